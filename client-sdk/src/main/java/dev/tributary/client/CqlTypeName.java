package dev.tributary.client;

import dev.tributary.client.errors.ValueConversionException;
import java.util.Locale;
import java.util.Objects;

/**
 * A CQL type as the server names it in {@code ColumnSpec.type} ({@code int},
 * {@code frozen<map<text, list<int>>>}, {@code ks.address}), parsed by the client alone: the client
 * does not know user types' fields (they travel with each UDT value), so any name that is not a
 * native type or collection is a {@link UserDefined} type. Immutable; {@link #toString()} gives
 * the CQL form back.
 */
public sealed interface CqlTypeName permits CqlTypeName.Native, CqlTypeName.ListOf, CqlTypeName.SetOf,
        CqlTypeName.MapOf, CqlTypeName.UserDefined {

    /** The native CQL types. */
    enum Kind {
        ASCII, TEXT, VARCHAR, TINYINT, SMALLINT, INT, BIGINT, COUNTER, VARINT, DECIMAL, FLOAT, DOUBLE,
        BOOLEAN, TIMESTAMP, DATE, TIME, DURATION, BLOB, UUID, TIMEUUID, INET;

        private final String cql = name().toLowerCase(Locale.ROOT);

        /** The name as written in CQL. */
        public String cql() {
            return cql;
        }

        /** ascii, text and varchar: values are {@code String}. */
        public boolean isText() {
            return this == ASCII || this == TEXT || this == VARCHAR;
        }
    }

    /** Whether values are frozen (stored as one value); no effect on how values are read. */
    boolean frozen();

    /**
     * Parses a type name; whitespace and letter case are free. An empty name (the server sent no
     * type) is not accepted here.
     *
     * @throws ValueConversionException naming the text and the position when it does not parse
     */
    static CqlTypeName parse(String text) {
        Objects.requireNonNull(text, "text");
        CqlTypeName known = ParsedTypeNames.NAMES.get(text);
        if (known != null) {
            return known;
        }
        Parser p = new Parser(text);
        CqlTypeName t = p.type();
        p.end();
        if (ParsedTypeNames.NAMES.size() < ParsedTypeNames.MAX) {
            ParsedTypeNames.NAMES.put(text, t); // every LCR names its columns' types: parse each name once
        }
        return t;
    }


    record Native(Kind kind) implements CqlTypeName {
        public Native {
            Objects.requireNonNull(kind, "kind");
        }

        @Override
        public boolean frozen() {
            return false;
        }

        @Override
        public String toString() {
            return kind.cql();
        }
    }

    record ListOf(CqlTypeName element, boolean frozen) implements CqlTypeName {
        public ListOf {
            Objects.requireNonNull(element, "element");
        }

        @Override
        public String toString() {
            return wrap(frozen, "list<" + element + ">");
        }
    }

    record SetOf(CqlTypeName element, boolean frozen) implements CqlTypeName {
        public SetOf {
            Objects.requireNonNull(element, "element");
        }

        @Override
        public String toString() {
            return wrap(frozen, "set<" + element + ">");
        }
    }

    record MapOf(CqlTypeName key, CqlTypeName value, boolean frozen) implements CqlTypeName {
        public MapOf {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toString() {
            return wrap(frozen, "map<" + key + ", " + value + ">");
        }
    }

    /** A user-defined type, by the name the server gave ({@code address} or {@code ks.address}). */
    record UserDefined(String name, boolean frozen) implements CqlTypeName {
        public UserDefined {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String toString() {
            return wrap(frozen, name);
        }
    }

    private static String wrap(boolean frozen, String s) {
        return frozen ? "frozen<" + s + ">" : s;
    }

    /** Recursive descent over {@code name ['<' type (',' type)* '>']}. */
    final class Parser {
        private final String s;
        private int i;

        private Parser(String s) {
            this.s = s;
        }

        private CqlTypeName type() {
            int start = position();
            boolean quoted = peek() == '"';
            String name = identifier();
            if (!quoted) {
                String lower = name.toLowerCase(Locale.ROOT);
                switch (lower) {
                    case "frozen": {
                        expect('<');
                        CqlTypeName inner = type();
                        expect('>');
                        return frozen(inner);
                    }
                    case "list": {
                        expect('<');
                        CqlTypeName e = type();
                        expect('>');
                        return new ListOf(e, false);
                    }
                    case "set": {
                        expect('<');
                        CqlTypeName e = type();
                        expect('>');
                        return new SetOf(e, false);
                    }
                    case "map": {
                        expect('<');
                        CqlTypeName k = type();
                        expect(',');
                        CqlTypeName v = type();
                        expect('>');
                        return new MapOf(k, v, false);
                    }
                    case "tuple":
                        throw error("tuple types are not supported", start);
                    default:
                        for (Kind k : Kind.values()) {
                            if (k.cql().equals(lower)) {
                                return new Native(k);
                            }
                        }
                }
            }
            if (peek() == '.') {
                i++;
                boolean quotedType = peek() == '"';
                String typeName = identifier();
                return new UserDefined(render(name, quoted) + "." + render(typeName, quotedType), false);
            }
            return new UserDefined(render(name, quoted), false);
        }

        private static String render(String name, boolean quoted) {
            return quoted ? '"' + name.replace("\"", "\"\"") + '"' : name;
        }

        private static CqlTypeName frozen(CqlTypeName t) {
            if (t instanceof ListOf l) {
                return new ListOf(l.element(), true);
            }
            if (t instanceof SetOf st) {
                return new SetOf(st.element(), true);
            }
            if (t instanceof MapOf m) {
                return new MapOf(m.key(), m.value(), true);
            }
            if (t instanceof UserDefined u) {
                return new UserDefined(u.name(), true);
            }
            return t;
        }

        private void end() {
            skipWhitespace();
            if (i != s.length()) {
                throw error("unexpected '" + s.substring(i) + "'", i);
            }
        }

        private int position() {
            skipWhitespace();
            return i;
        }

        private char peek() {
            skipWhitespace();
            return i < s.length() ? s.charAt(i) : '\0';
        }

        private String identifier() {
            skipWhitespace();
            int start = i;
            if (i < s.length() && s.charAt(i) == '"') {
                StringBuilder sb = new StringBuilder();
                i++;
                while (true) {
                    if (i >= s.length()) {
                        throw error("unterminated quoted name", start);
                    }
                    char c = s.charAt(i++);
                    if (c == '"') {
                        if (i < s.length() && s.charAt(i) == '"') {
                            sb.append('"');
                            i++;
                        } else {
                            return sb.toString();
                        }
                    } else {
                        sb.append(c);
                    }
                }
            }
            while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
                i++;
            }
            if (start == i) {
                throw error("expected a type name", start);
            }
            return s.substring(start, i);
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'", i);
            }
            i++;
        }

        private void skipWhitespace() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private ValueConversionException error(String what, int at) {
            return new ValueConversionException(what + " at position " + at + " in type '" + s + "'");
        }
    }
}
