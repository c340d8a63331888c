package dev.tributary.dictionary.types;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A CQL column type. Values of each type are plain Java objects (see {@link Native} and
 * docs/ARCHITECTURE.md, "Value model"); NULL is Java {@code null}.
 */
public sealed interface CqlType permits CqlType.Native, CqlType.ListType, CqlType.SetType,
        CqlType.MapType, CqlType.UserType {

    /** The type as written in CQL, e.g. {@code map<text, frozen<list<int>>>}. */
    String cql();

    /** Frozen collections and user types are stored and compared as one value. */
    boolean frozen();

    /** A copy of this type with the given frozenness (a no-op for native types). */
    CqlType withFrozen(boolean frozen);

    default boolean isCollection() {
        return this instanceof ListType || this instanceof SetType || this instanceof MapType;
    }

    /** The scalar kinds, with the Java class that holds their values. */
    enum Kind {
        ASCII(String.class), TEXT(String.class), VARCHAR(String.class),
        TINYINT(Byte.class), SMALLINT(Short.class), INT(Integer.class), BIGINT(Long.class),
        COUNTER(Long.class), VARINT(java.math.BigInteger.class), DECIMAL(java.math.BigDecimal.class),
        FLOAT(Float.class), DOUBLE(Double.class), BOOLEAN(Boolean.class),
        TIMESTAMP(java.time.Instant.class), DATE(java.time.LocalDate.class), TIME(java.time.LocalTime.class),
        DURATION(CqlDuration.class), BLOB(Blob.class), UUID(java.util.UUID.class),
        TIMEUUID(java.util.UUID.class), INET(java.net.InetAddress.class);

        private final Class<?> javaClass;
        private final String cql = name().toLowerCase(Locale.ROOT);

        Kind(Class<?> javaClass) {
            this.javaClass = javaClass;
        }

        /** The name as written in CQL. */
        public String cql() {
            return cql;
        }

        public Class<?> javaClass() {
            return javaClass;
        }

        /**
         * The kind a Java value of the value model is written as, where a value comes without a
         * declared type (a transformation's added column, a value bound to a destination, a JSON
         * form): the inverse of {@link #javaClass()}, taking text, bigint and uuid where several
         * kinds share a class. Decided here once, so that every such place agrees.
         *
         * @return empty for null and for values that are not scalars (collections, user types)
         */
        public static Optional<Kind> of(Object value) {
            if (value == null) {
                return Optional.empty();
            }
            for (Kind k : PREFERRED) {
                if (k.javaClass.isInstance(value)) { // isInstance: an inet is an Inet4Address or Inet6Address
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }

        /** One kind per class, the first listed where several share one. */
        private static final List<Kind> PREFERRED = List.of(TEXT, BIGINT, UUID, TINYINT, SMALLINT, INT, VARINT, DECIMAL,
                FLOAT, DOUBLE, BOOLEAN, TIMESTAMP, DATE, TIME, DURATION, BLOB, INET);
    }

    record Native(Kind kind) implements CqlType {
        public Native {
            Objects.requireNonNull(kind, "kind");
        }

        @Override
        public String cql() {
            return kind.cql();
        }

        @Override
        public boolean frozen() {
            return false;
        }

        @Override
        public CqlType withFrozen(boolean frozen) {
            return this;
        }

        @Override
        public String toString() {
            return cql();
        }
    }

    /** Values are {@code java.util.List<Object>}. */
    record ListType(CqlType element, boolean frozen) implements CqlType {
        @Override
        public String cql() {
            return wrapFrozen(frozen, "list<" + element.cql() + ">");
        }

        @Override
        public CqlType withFrozen(boolean f) {
            return new ListType(element, f);
        }

        @Override
        public String toString() {
            return cql();
        }
    }

    /** Values are {@code java.util.Set<Object>} iterating in the element type's CQL order. */
    record SetType(CqlType element, boolean frozen) implements CqlType {
        @Override
        public String cql() {
            return wrapFrozen(frozen, "set<" + element.cql() + ">");
        }

        @Override
        public CqlType withFrozen(boolean f) {
            return new SetType(element, f);
        }

        @Override
        public String toString() {
            return cql();
        }
    }

    /** Values are {@code java.util.Map<Object,Object>} iterating in the key type's CQL order. */
    record MapType(CqlType key, CqlType value, boolean frozen) implements CqlType {
        @Override
        public String cql() {
            return wrapFrozen(frozen, "map<" + key.cql() + ", " + value.cql() + ">");
        }

        @Override
        public CqlType withFrozen(boolean f) {
            return new MapType(key, value, f);
        }

        @Override
        public String toString() {
            return cql();
        }
    }

    /**
     * A user-defined type ({@code CREATE TYPE}). Capture does not support it (docs/REFERENCE.md);
     * values are {@code java.util.Map<String,Object>} keyed by field name, in field order.
     */
    record UserType(String keyspace, String name, List<Field> fields, boolean frozen) implements CqlType {
        public UserType {
            fields = List.copyOf(fields);
        }

        @Override
        public String cql() {
            return wrapFrozen(frozen, keyspace + "." + name);
        }

        @Override
        public CqlType withFrozen(boolean f) {
            return new UserType(keyspace, name, fields, f);
        }

        @Override
        public String toString() {
            return cql();
        }
    }

    record Field(String name, CqlType type) {
    }

    static Native of(Kind kind) {
        return new Native(kind);
    }

    private static String wrapFrozen(boolean frozen, String s) {
        return frozen ? "frozen<" + s + ">" : s;
    }

    /**
     * Parses a type written as in CQL ({@code int}, {@code frozen<set<text>>}). User types are not
     * resolved here: a name that is no native type yields {@link UnknownTypeException} unless a
     * resolver is given.
     */
    static CqlType parse(String text) {
        return parse(text, null);
    }

    /** Resolves user-defined type names ({@code name} or {@code ks.name}) through a resolver. */
    interface UserTypeResolver {
        UserType resolve(String name);
    }

    static CqlType parse(String text, UserTypeResolver resolver) {
        TypeParser p = new TypeParser(text, resolver);
        CqlType t = p.type();
        p.end();
        return t;
    }

    /** Thrown for a type name that is neither native nor a known user type. */
    final class UnknownTypeException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public UnknownTypeException(String message) {
            super(message);
        }
    }

    /** A tiny recursive-descent parser for type expressions. */
    final class TypeParser {
        private final String s;
        private final UserTypeResolver resolver;
        private int i;

        TypeParser(String s, UserTypeResolver resolver) {
            this.s = s;
            this.resolver = resolver;
        }

        CqlType type() {
            String name = ident();
            String lower = name.toLowerCase(Locale.ROOT);
            switch (lower) {
                case "frozen": {
                    expect('<');
                    CqlType inner = type();
                    expect('>');
                    return inner.withFrozen(true);
                }
                case "list": {
                    expect('<');
                    CqlType e = type();
                    expect('>');
                    return new ListType(e, false);
                }
                case "set": {
                    expect('<');
                    CqlType e = type();
                    expect('>');
                    return new SetType(e, false);
                }
                case "map": {
                    expect('<');
                    CqlType k = type();
                    expect(',');
                    CqlType v = type();
                    expect('>');
                    return new MapType(k, v, false);
                }
                default:
                    for (Kind k : Kind.values()) {
                        if (k.name().equalsIgnoreCase(lower)) {
                            return new Native(k);
                        }
                    }
                    skipWs();
                    if (i < s.length() && s.charAt(i) == '.') {
                        i++;
                        name = name + "." + ident();
                    }
                    if (resolver != null) {
                        UserType ut = resolver.resolve(name);
                        if (ut != null) {
                            return ut;
                        }
                    }
                    throw new UnknownTypeException("unknown type '" + name + "'");
            }
        }

        void end() {
            skipWs();
            if (i != s.length()) {
                throw new UnknownTypeException("unexpected '" + s.substring(i) + "' in type '" + s + "'");
            }
        }

        private String ident() {
            skipWs();
            int st = i;
            boolean quoted = i < s.length() && s.charAt(i) == '"';
            if (quoted) {
                int close = s.indexOf('"', i + 1);
                if (close < 0) {
                    throw new UnknownTypeException("unterminated quoted name in type '" + s + "'");
                }
                i = close + 1;
                return s.substring(st + 1, close);
            }
            while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
                i++;
            }
            if (st == i) {
                throw new UnknownTypeException("expected a type name at position " + i + " in '" + s + "'");
            }
            return s.substring(st, i);
        }

        private void expect(char c) {
            skipWs();
            if (i >= s.length() || s.charAt(i) != c) {
                throw new UnknownTypeException("expected '" + c + "' at position " + i + " in type '" + s + "'");
            }
            i++;
        }

        private void skipWs() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }

}
