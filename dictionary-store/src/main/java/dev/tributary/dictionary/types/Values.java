package dev.tributary.dictionary.types;

import dev.tributary.dictionary.internal.Utf8;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Checks, normalizes, renders and sizes values of the value model (docs/ARCHITECTURE.md). A
 * normalized value is immutable: lists are unmodifiable, sets and maps iterate in the CQL order of
 * their elements / keys ({@link ValueComparator}) with duplicates removed, user type values are
 * unmodifiable maps holding every field in field order (null for NULL), timestamps are on the
 * millisecond. {@code null} stands for NULL at the top level and is never an element. Stateless
 * and thread-safe.
 */
public final class Values {
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSSSSS");
    private static final Pattern UNQUOTED_IDENTIFIER = Pattern.compile("[a-z][a-z0-9_]*");

    private Values() {
    }

    /**
     * Checks that {@code value} is a valid value of {@code type}: the Java class of the value
     * model, no null inside a collection (element, map key or map value), user type keys that are
     * fields of the type, ASCII only in ascii, no unpaired surrogate in text, a date and timestamp
     * the CQL types can hold, a version-1 UUID for timeuuid. {@code null} (NULL) passes.
     *
     * @throws InvalidValueException naming {@code columnName} and the type
     */
    public static void check(CqlType type, Object value, String columnName) {
        if (value == null) {
            return;
        }
        try {
            walk(type, value, false);
        } catch (Bad b) {
            throw new InvalidValueException(columnName, type, b.getMessage());
        }
    }

    /**
     * The normalized form of {@code value} (see the class comment); values already normalized are
     * returned as they are where that can be seen cheaply. {@code null} gives {@code null}.
     *
     * @throws InvalidValueException if the value does not pass {@link #check}
     */
    public static Object normalize(CqlType type, Object value) {
        if (value == null) {
            return null;
        }
        try {
            return walk(type, value, true);
        } catch (Bad b) {
            throw new InvalidValueException(null, type, b.getMessage());
        }
    }

    /** The serialized size of a non-null value, as {@link ValueCodec#encodedSize}. */
    public static int sizeInBytes(CqlType type, Object value) {
        return ValueCodec.encodedSize(type, value);
    }

    /**
     * {@code value} written as a CQL literal that parses back to the same value: strings quoted
     * with {@code ''} escaping, blobs {@code 0x..}, timestamps {@code '2020-03-25T12:44:43.006Z'},
     * dates {@code '2020-03-25'}, times {@code '12:44:43.006000000'}, durations {@code 1y2mo3d4h},
     * uuids bare, inets quoted, lists {@code [..]}, sets {@code {..}} and maps {@code {k: v}} in
     * CQL order, user types {@code {field: v}}; NULL is {@code null}.
     *
     * @throws InvalidValueException if the value does not pass {@link #check}
     */
    public static String toCqlLiteral(CqlType type, Object value) {
        if (value == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder();
        literal(sb, type, normalize(type, value));
        return sb.toString();
    }

    // ---------------------------------------------------------------- check and normalize

    /** A check failure deep inside a value; caught at the top and turned into InvalidValueException. */
    private static final class Bad extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Bad(String message) {
            super(message, null, false, false);
        }

        Bad within(String where) {
            return new Bad(where + ": " + getMessage());
        }
    }

    private static Object walk(CqlType type, Object v, boolean build) {
        if (type instanceof CqlType.Native n) {
            return walkNative(n, v, build);
        }
        if (type instanceof CqlType.ListType l) {
            return walkList(l, v, build);
        }
        if (type instanceof CqlType.SetType s) {
            return walkSet(s, v, build);
        }
        if (type instanceof CqlType.MapType m) {
            return walkMap(m, v, build);
        }
        return walkUdt((CqlType.UserType) type, v, build);
    }

    private static Object walkNative(CqlType.Native type, Object v, boolean build) {
        CqlType.Kind kind = type.kind();
        if (!kind.javaClass().isInstance(v)) {
            throw new Bad("expected a " + kind.javaClass().getName() + ", got a " + v.getClass().getName());
        }
        switch (kind) {
            case ASCII:
                if (!Utf8.isAscii((String) v)) {
                    throw new Bad("non-ASCII character in an ascii value");
                }
                return v;
            case TEXT:
            case VARCHAR:
                if (!Utf8.isWellFormed((String) v)) {
                    throw new Bad("unpaired surrogate character in a text value");
                }
                return v;
            case TIMESTAMP: {
                Instant t = (Instant) v;
                try {
                    t.toEpochMilli();
                } catch (ArithmeticException e) {
                    throw new Bad("timestamp " + t + " is out of the range of 64-bit milliseconds");
                }
                return build && t.getNano() % 1_000_000 != 0 ? t.truncatedTo(ChronoUnit.MILLIS) : t;
            }
            case DATE: {
                long days = ((LocalDate) v).toEpochDay();
                if (days < Integer.MIN_VALUE || days > Integer.MAX_VALUE) {
                    throw new Bad("date " + v + " is out of the range of a CQL date");
                }
                return v;
            }
            case TIMEUUID:
                if (((UUID) v).version() != 1) {
                    throw new Bad("a timeuuid must be a version 1 UUID, got version " + ((UUID) v).version());
                }
                return v;
            default:
                return v;
        }
    }

    private static Object walkList(CqlType.ListType type, Object v, boolean build) {
        if (!(v instanceof List<?> list)) {
            throw new Bad("expected a java.util.List, got a " + v.getClass().getName());
        }
        if (list instanceof ImmutableArrayList own && own.elementType().equals(type.element())) {
            return list; // made by normalize or decode: already checked
        }
        Object[] out = build ? new Object[list.size()] : null;
        int i = 0;
        for (Object e : list) {
            if (e == null) {
                throw new Bad("element " + i + " is null; a list cannot contain null");
            }
            Object n;
            try {
                n = walk(type.element(), e, build);
            } catch (Bad b) {
                throw b.within("element " + i);
            }
            if (build) {
                out[i] = n;
            }
            i++;
        }
        return build ? new ImmutableArrayList(type.element(), out) : null;
    }

    private static Comparator<Object> orderOf(CqlType collection, CqlType elementType) {
        try {
            return ValueComparator.of(elementType);
        } catch (IllegalArgumentException e) {
            throw new Bad("type " + collection.cql() + " cannot hold values: " + e.getMessage());
        }
    }

    private static Object walkSet(CqlType.SetType type, Object v, boolean build) {
        if (!(v instanceof Set<?> set)) {
            throw new Bad("expected a java.util.Set, got a " + v.getClass().getName());
        }
        if (set instanceof SortedArraySet sorted && sorted.elementType().equals(type.element())) {
            return sorted; // made by normalize or decode: valid and in order already
        }
        Comparator<Object> order = orderOf(type, type.element());
        Object[] out = build ? new Object[set.size()] : null;
        int i = 0;
        for (Object e : set) {
            if (e == null) {
                throw new Bad("a set cannot contain null");
            }
            Object n;
            try {
                n = walk(type.element(), e, build);
            } catch (Bad b) {
                throw b.within("element " + e);
            }
            if (build) {
                out[i] = n;
            }
            i++;
        }
        if (!build) {
            return null;
        }
        int distinct = SortedArrays.sortDistinct(out, order);
        return new SortedArraySet(type.element(), order, distinct == out.length ? out : Arrays.copyOf(out, distinct));
    }

    private static Object walkMap(CqlType.MapType type, Object v, boolean build) {
        if (!(v instanceof Map<?, ?> map)) {
            throw new Bad("expected a java.util.Map, got a " + v.getClass().getName());
        }
        if (map instanceof SortedArrayMap sorted && sorted.keyType().equals(type.key())) {
            return sorted;
        }
        Comparator<Object> order = orderOf(type, type.key());
        int size = map.size();
        Object[] keys = build ? new Object[size] : null;
        Object[] values = build ? new Object[size] : null;
        int i = 0;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            Object k = e.getKey();
            Object val = e.getValue();
            if (k == null) {
                throw new Bad("a map key cannot be null");
            }
            if (val == null) {
                throw new Bad("the value for key " + k + " is null; a map cannot contain null");
            }
            Object nk;
            Object nv;
            try {
                nk = walk(type.key(), k, build);
            } catch (Bad b) {
                throw b.within("key " + k);
            }
            try {
                nv = walk(type.value(), val, build);
            } catch (Bad b) {
                throw b.within("value for key " + k);
            }
            if (build) {
                keys[i] = nk;
                values[i] = nv;
            }
            i++;
        }
        if (!build) {
            return null;
        }
        int distinct = SortedArrays.sortDistinctEntries(keys, values, order);
        if (distinct != size) {
            keys = Arrays.copyOf(keys, distinct);
            values = Arrays.copyOf(values, distinct);
        }
        return new SortedArrayMap(type.key(), order, keys, values);
    }

    private static Object walkUdt(CqlType.UserType type, Object v, boolean build) {
        if (!(v instanceof Map<?, ?> map)) {
            throw new Bad("expected a java.util.Map of field values, got a " + v.getClass().getName());
        }
        for (Object key : map.keySet()) {
            if (!(key instanceof String name) || !hasField(type, name)) {
                throw new Bad("'" + key + "' is not a field of type " + type.keyspace() + "." + type.name());
            }
        }
        LinkedHashMap<String, Object> out = build ? new LinkedHashMap<>(type.fields().size() * 2) : null;
        for (CqlType.Field f : type.fields()) {
            Object fv = map.get(f.name());
            Object n = null;
            if (fv != null) {
                try {
                    n = walk(f.type(), fv, build);
                } catch (Bad b) {
                    throw b.within("field '" + f.name() + "'");
                }
            }
            if (build) {
                out.put(f.name(), n);
            }
        }
        return build ? Collections.unmodifiableMap(out) : null;
    }

    private static boolean hasField(CqlType.UserType type, String name) {
        for (CqlType.Field f : type.fields()) {
            if (f.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- literals

    private static void literal(StringBuilder sb, CqlType type, Object v) {
        if (type instanceof CqlType.Native n) {
            nativeLiteral(sb, n.kind(), v);
        } else if (type instanceof CqlType.ListType l) {
            sequence(sb, '[', ']', l.element(), ((List<?>) v).iterator());
        } else if (type instanceof CqlType.SetType s) {
            sequence(sb, '{', '}', s.element(), ((Set<?>) v).iterator());
        } else if (type instanceof CqlType.MapType m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                literal(sb, m.key(), e.getKey());
                sb.append(": ");
                literal(sb, m.value(), e.getValue());
            }
            sb.append('}');
        } else {
            CqlType.UserType u = (CqlType.UserType) type;
            Map<?, ?> fields = (Map<?, ?>) v;
            sb.append('{');
            boolean first = true;
            for (CqlType.Field f : u.fields()) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                sb.append(identifier(f.name())).append(": ");
                Object fv = fields.get(f.name());
                if (fv == null) {
                    sb.append("null");
                } else {
                    literal(sb, f.type(), fv);
                }
            }
            sb.append('}');
        }
    }

    private static void sequence(StringBuilder sb, char open, char close, CqlType element, Iterator<?> it) {
        sb.append(open);
        boolean first = true;
        while (it.hasNext()) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            literal(sb, element, it.next());
        }
        sb.append(close);
    }

    private static void nativeLiteral(StringBuilder sb, CqlType.Kind kind, Object v) {
        switch (kind) {
            case ASCII:
            case TEXT:
            case VARCHAR:
                quoted(sb, (String) v);
                return;
            case TIMESTAMP:
                quoted(sb, TIMESTAMP.format((Instant) v));
                return;
            case DATE:
                quoted(sb, v.toString());
                return;
            case TIME:
                quoted(sb, TIME.format((LocalTime) v));
                return;
            case INET:
                quoted(sb, ((java.net.InetAddress) v).getHostAddress());
                return;
            case DECIMAL:
                sb.append(((BigDecimal) v).toString());
                return;
            case FLOAT:
            case DOUBLE: {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d)) {
                    sb.append("NaN");
                } else if (Double.isInfinite(d)) {
                    sb.append(d > 0 ? "Infinity" : "-Infinity");
                } else {
                    sb.append(v);
                }
                return;
            }
            case DURATION:
                duration(sb, (CqlDuration) v);
                return;
            default:
                // integers, varint, boolean, uuid, timeuuid and blob print as their CQL literal
                sb.append(v);
        }
    }

    private static void quoted(StringBuilder sb, String s) {
        sb.append('\'');
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c == '\'') {
                sb.append('\'');
            }
            sb.append(c);
        }
        sb.append('\'');
    }

    private static String identifier(String name) {
        return UNQUOTED_IDENTIFIER.matcher(name).matches() ? name : '"' + name.replace("\"", "\"\"") + '"';
    }

    /** Cassandra's {@code Duration.toString} form, with {@code 0s} for the zero duration. */
    private static void duration(StringBuilder sb, CqlDuration d) {
        if (d.months() == 0 && d.days() == 0 && d.nanos() == 0) {
            sb.append("0s");
            return;
        }
        if (d.months() < 0 || d.days() < 0 || d.nanos() < 0) {
            sb.append('-');
        }
        long months = Math.abs((long) d.months());
        unit(sb, months / 12, "y");
        unit(sb, months % 12, "mo");
        unit(sb, Math.abs((long) d.days()), "d");
        // unsigned arithmetic: the magnitude of Long.MIN_VALUE nanoseconds does not fit a long
        long nanos = d.nanos() < 0 ? -d.nanos() : d.nanos();
        long[] divisors = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L};
        String[] units = {"h", "m", "s", "ms", "us", "ns"};
        for (int i = 0; i < divisors.length; i++) {
            unit(sb, Long.divideUnsigned(nanos, divisors[i]), units[i]);
            nanos = Long.remainderUnsigned(nanos, divisors[i]);
        }
    }

    private static void unit(StringBuilder sb, long amount, String unit) {
        if (amount != 0) {
            sb.append(Long.toUnsignedString(amount)).append(unit);
        }
    }
}
