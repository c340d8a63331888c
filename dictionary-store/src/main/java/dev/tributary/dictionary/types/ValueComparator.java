package dev.tributary.dictionary.types;

import dev.tributary.dictionary.internal.Utf8;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Cassandra's order of values of a CQL type, as used for clustering columns, set elements and map
 * keys. It matches the {@code AbstractType.compare} of Cassandra (and ScyllaDB):
 * <ul>
 * <li>tinyint..bigint, counter, float, double, varint, decimal: numeric, signed (decimal ignores
 * scale, so {@code 1.0} equals {@code 1.00});</li>
 * <li>ascii, text, varchar: unsigned UTF-8 bytes (code point order); blob, inet: unsigned bytes,
 * then length;</li>
 * <li>boolean false before true; timestamp, date, time chronological;</li>
 * <li>uuid as {@code UUIDType}: version first, then the timestamp for version 1 or the unsigned
 * high bits otherwise, then the low bits unsigned;</li>
 * <li>timeuuid as {@code TimeUUIDType}: timestamp, then the low 8 bytes compared as SIGNED bytes
 * (Cassandra keeps this quirk for compatibility, CASSANDRA-8730);</li>
 * <li>frozen list/set/map: element by element (map: key then value), a shorter prefix first;
 * user types field by field, a null field before any value.</li>
 * </ul>
 * Durations have no order: {@link #of} refuses any type that contains one, and {@link #equal}
 * gives equality for every type. Comparators are stateless and thread-safe; they throw
 * {@code ClassCastException} for values outside the value model (and
 * {@link dev.tributary.dictionary.types.InvalidValueException} for a set or map that is not
 * normalized and cannot be put in order). Sets and maps are compared fastest in their normalized
 * form ({@link Values#normalize}); others are normalized on the fly.
 */
public final class ValueComparator {
    private static final EnumMap<CqlType.Kind, Comparator<Object>> NATIVE = new EnumMap<>(CqlType.Kind.class);

    static {
        Comparator<Object> text = (a, b) -> Utf8.compare((String) a, (String) b);
        NATIVE.put(CqlType.Kind.ASCII, text);
        NATIVE.put(CqlType.Kind.TEXT, text);
        NATIVE.put(CqlType.Kind.VARCHAR, text);
        NATIVE.put(CqlType.Kind.TINYINT, (a, b) -> Byte.compare((Byte) a, (Byte) b));
        NATIVE.put(CqlType.Kind.SMALLINT, (a, b) -> Short.compare((Short) a, (Short) b));
        NATIVE.put(CqlType.Kind.INT, (a, b) -> Integer.compare((Integer) a, (Integer) b));
        Comparator<Object> longs = (a, b) -> Long.compare((Long) a, (Long) b);
        NATIVE.put(CqlType.Kind.BIGINT, longs);
        NATIVE.put(CqlType.Kind.COUNTER, longs);
        NATIVE.put(CqlType.Kind.VARINT, (a, b) -> ((BigInteger) a).compareTo((BigInteger) b));
        NATIVE.put(CqlType.Kind.DECIMAL, (a, b) -> ((BigDecimal) a).compareTo((BigDecimal) b));
        NATIVE.put(CqlType.Kind.FLOAT, (a, b) -> Float.compare((Float) a, (Float) b));
        NATIVE.put(CqlType.Kind.DOUBLE, (a, b) -> Double.compare((Double) a, (Double) b));
        NATIVE.put(CqlType.Kind.BOOLEAN, (a, b) -> Boolean.compare((Boolean) a, (Boolean) b));
        // on the millisecond, as stored: two Instants within one millisecond are the same timestamp
        NATIVE.put(CqlType.Kind.TIMESTAMP,
                (a, b) -> Long.compare(((Instant) a).toEpochMilli(), ((Instant) b).toEpochMilli()));
        NATIVE.put(CqlType.Kind.DATE, (a, b) -> ((LocalDate) a).compareTo((LocalDate) b));
        NATIVE.put(CqlType.Kind.TIME, (a, b) -> ((LocalTime) a).compareTo((LocalTime) b));
        NATIVE.put(CqlType.Kind.BLOB, (a, b) -> ((Blob) a).compareTo((Blob) b));
        NATIVE.put(CqlType.Kind.UUID, (a, b) -> compareUuid((UUID) a, (UUID) b));
        NATIVE.put(CqlType.Kind.TIMEUUID, (a, b) -> compareTimeUuid((UUID) a, (UUID) b));
        NATIVE.put(CqlType.Kind.INET, (a, b) -> compareInet((InetAddress) a, (InetAddress) b));
    }

    private ValueComparator() {
    }

    /**
     * The order of {@code type}'s values.
     *
     * @throws IllegalArgumentException if the type is or contains a duration, which has no order
     *         (so it can be neither a clustering column, nor a set element, nor a map key)
     */
    public static Comparator<Object> of(CqlType type) {
        if (type instanceof CqlType.Native n) {
            if (n.kind() == CqlType.Kind.DURATION) {
                throw noOrder(type);
            }
            return NATIVE.get(n.kind());
        }
        if (!isOrderable(type)) {
            throw noOrder(type);
        }
        if (type instanceof CqlType.ListType l) {
            Comparator<Object> e = of(l.element());
            return (a, b) -> compareSequences(((List<?>) a).iterator(), ((List<?>) b).iterator(), e);
        }
        if (type instanceof CqlType.SetType s) {
            CqlType elementType = s.element();
            Comparator<Object> e = of(elementType);
            return (a, b) -> compareSequences(ordered(s, (Set<?>) a).iterator(), ordered(s, (Set<?>) b).iterator(), e);
        }
        if (type instanceof CqlType.MapType m) {
            Comparator<Object> k = of(m.key());
            Comparator<Object> v = of(m.value());
            return (a, b) -> compareMaps(ordered(m, (Map<?, ?>) a), ordered(m, (Map<?, ?>) b), k, v);
        }
        CqlType.UserType u = (CqlType.UserType) type;
        int n = u.fields().size();
        String[] names = new String[n];
        @SuppressWarnings({"unchecked", "rawtypes"})
        Comparator<Object>[] fields = new Comparator[n];
        for (int i = 0; i < n; i++) {
            names[i] = u.fields().get(i).name();
            fields[i] = of(u.fields().get(i).type());
        }
        return (a, b) -> compareUdt((Map<?, ?>) a, (Map<?, ?>) b, names, fields);
    }

    /** False if {@code type} is or contains a duration. */
    public static boolean isOrderable(CqlType type) {
        if (type instanceof CqlType.Native n) {
            return n.kind() != CqlType.Kind.DURATION;
        }
        if (type instanceof CqlType.ListType l) {
            return isOrderable(l.element());
        }
        if (type instanceof CqlType.SetType s) {
            return isOrderable(s.element());
        }
        if (type instanceof CqlType.MapType m) {
            return isOrderable(m.key()) && isOrderable(m.value());
        }
        for (CqlType.Field f : ((CqlType.UserType) type).fields()) {
            if (!isOrderable(f.type())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether two values of {@code type} are the same CQL value ({@code null} equals only
     * {@code null}). For orderable types this is {@code compare == 0}; durations compare by
     * their three components.
     */
    public static boolean equal(CqlType type, Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (isOrderable(type)) {
            return of(type).compare(a, b) == 0;
        }
        if (type instanceof CqlType.Native) {
            return a.equals(b); // duration
        }
        if (type instanceof CqlType.ListType l) {
            List<?> x = (List<?>) a;
            List<?> y = (List<?>) b;
            if (x.size() != y.size()) {
                return false;
            }
            Iterator<?> i = x.iterator();
            Iterator<?> j = y.iterator();
            while (i.hasNext()) {
                if (!equal(l.element(), i.next(), j.next())) {
                    return false;
                }
            }
            return true;
        }
        if (type instanceof CqlType.MapType m) {
            // keys are orderable here (a duration key is refused by the schema); values are not
            Map<?, ?> x = ordered(m, (Map<?, ?>) a);
            Map<?, ?> y = ordered(m, (Map<?, ?>) b);
            if (x.size() != y.size()) {
                return false;
            }
            Comparator<Object> k = of(m.key());
            Iterator<? extends Map.Entry<?, ?>> i = x.entrySet().iterator();
            Iterator<? extends Map.Entry<?, ?>> j = y.entrySet().iterator();
            while (i.hasNext()) {
                Map.Entry<?, ?> e = i.next();
                Map.Entry<?, ?> f = j.next();
                if (k.compare(e.getKey(), f.getKey()) != 0 || !equal(m.value(), e.getValue(), f.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (type instanceof CqlType.UserType u) {
            Map<?, ?> x = (Map<?, ?>) a;
            Map<?, ?> y = (Map<?, ?>) b;
            for (CqlType.Field f : u.fields()) {
                if (!equal(f.type(), x.get(f.name()), y.get(f.name()))) {
                    return false;
                }
            }
            return true;
        }
        throw noOrder(type); // a set of durations: Cassandra refuses the type
    }

    private static IllegalArgumentException noOrder(CqlType type) {
        return new IllegalArgumentException("values of type " + type.cql()
                + " have no order: a duration cannot be part of a clustering key, a set element or a map key");
    }

    private static Set<?> ordered(CqlType.SetType type, Set<?> s) {
        return s instanceof SortedArraySet ? s : (Set<?>) Values.normalize(type, s);
    }

    private static Map<?, ?> ordered(CqlType.MapType type, Map<?, ?> m) {
        return m instanceof SortedArrayMap ? m : (Map<?, ?>) Values.normalize(type, m);
    }

    private static int compareSequences(Iterator<?> a, Iterator<?> b, Comparator<Object> e) {
        while (a.hasNext() && b.hasNext()) {
            int c = e.compare(a.next(), b.next());
            if (c != 0) {
                return c;
            }
        }
        return Boolean.compare(a.hasNext(), b.hasNext());
    }

    private static int compareMaps(Map<?, ?> a, Map<?, ?> b, Comparator<Object> k, Comparator<Object> v) {
        Iterator<? extends Map.Entry<?, ?>> i = a.entrySet().iterator();
        Iterator<? extends Map.Entry<?, ?>> j = b.entrySet().iterator();
        while (i.hasNext() && j.hasNext()) {
            Map.Entry<?, ?> x = i.next();
            Map.Entry<?, ?> y = j.next();
            int c = k.compare(x.getKey(), y.getKey());
            if (c != 0) {
                return c;
            }
            c = v.compare(x.getValue(), y.getValue());
            if (c != 0) {
                return c;
            }
        }
        return Boolean.compare(i.hasNext(), j.hasNext());
    }

    private static int compareUdt(Map<?, ?> a, Map<?, ?> b, String[] names, Comparator<Object>[] fields) {
        for (int i = 0; i < names.length; i++) {
            Object x = a.get(names[i]);
            Object y = b.get(names[i]);
            if (x == null || y == null) {
                if (x != y) {
                    return x == null ? -1 : 1;
                }
                continue;
            }
            int c = fields[i].compare(x, y);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Moves a version-1 timestamp's fields so that comparing the long orders by time. */
    static long reorderTimestamp(long msb) {
        return (msb << 48) | ((msb << 16) & 0xFFFF00000000L) | (msb >>> 32);
    }

    static int compareUuid(UUID a, UUID b) {
        long msb1 = a.getMostSignificantBits();
        long msb2 = b.getMostSignificantBits();
        int v1 = (int) ((msb1 >>> 12) & 0xf);
        int v2 = (int) ((msb2 >>> 12) & 0xf);
        if (v1 != v2) {
            return Integer.compare(v1, v2);
        }
        int c = v1 == 1
                ? Long.compare(reorderTimestamp(msb1), reorderTimestamp(msb2))
                : Long.compareUnsigned(msb1, msb2);
        if (c != 0) {
            return c;
        }
        return Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }

    static int compareTimeUuid(UUID a, UUID b) {
        int c = Long.compare(reorderTimestamp(a.getMostSignificantBits()), reorderTimestamp(b.getMostSignificantBits()));
        if (c != 0) {
            return c;
        }
        // byte-wise signed: flipping the sign bit of bytes 1..7 makes a signed long compare do it
        return Long.compare(a.getLeastSignificantBits() ^ 0x0080808080808080L,
                b.getLeastSignificantBits() ^ 0x0080808080808080L);
    }

    static int compareInet(InetAddress a, InetAddress b) {
        return Arrays.compareUnsigned(a.getAddress(), b.getAddress());
    }
}
