package dev.tributary.dictionary.types;

import dev.tributary.dictionary.internal.Utf8;
import dev.tributary.dictionary.internal.VIntCoding;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Serializes values exactly as Cassandra's native protocol v4 does, so the bytes of a partition
 * key hash to the same Murmur3 token as in Cassandra and ScyllaDB.
 *
 * <ul>
 * <li>tinyint, smallint, int, bigint, counter: 1, 2, 4, 8 bytes big-endian two's complement;
 * float, double: IEEE 754 big-endian; boolean: one byte 0 or 1;</li>
 * <li>ascii, text, varchar: the characters' bytes (UTF-8); blob: the bytes;</li>
 * <li>varint: minimal two's complement ({@code BigInteger.toByteArray}); decimal: int32 scale,
 * then the unscaled value as a varint;</li>
 * <li>timestamp: int64 milliseconds since the epoch; date: uint32 days with 2^31 at
 * 1970-01-01; time: int64 nanoseconds of the day; duration: months, days, nanoseconds as three
 * zigzag vints ({@link VIntCoding});</li>
 * <li>uuid, timeuuid: 16 bytes; inet: 4 or 16 address bytes;</li>
 * <li>list, set: int32 count, then per element int32 length and bytes (sets in CQL order); map:
 * int32 count, then key and value the same way; user type: per field, int32 length and bytes, or
 * length -1 for null.</li>
 * </ul>
 * The top-level value carries no length prefix. NULL is not a value here: callers handle it (an
 * absent cell, a -1 length in their own framing).
 *
 * <p>Encoding sizes the value first and then writes into one exactly-sized array; sets and maps
 * built by {@link Values#normalize} or by {@link #decode} are written as they are, any other set
 * or map is put in CQL order first (a copy). Stateless and thread-safe.
 *
 * <p>Errors: encoding a value outside the value model throws {@code IllegalArgumentException};
 * decoding bytes that are not a valid serialization throws {@link MalformedValueException}.
 */
public final class ValueCodec {
    private static final long DATE_EPOCH = 1L << 31;
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private ValueCodec() {
    }

    /**
     * The serialized form of a non-null {@code value} of {@code type}.
     *
     * @throws IllegalArgumentException if value is null or not of the type's Java class
     */
    public static byte[] encode(CqlType type, Object value) {
        byte[] out = new byte[encodedSize(type, value)];
        write(type, value, out, 0);
        return out;
    }

    /**
     * The number of bytes {@link #encode} produces, computed without encoding.
     *
     * @throws IllegalArgumentException as {@link #encode}
     */
    public static int encodedSize(CqlType type, Object value) {
        if (value == null) {
            throw new IllegalArgumentException("cannot encode null as " + type.cql() + ": NULL is handled by the caller");
        }
        return size(type, value);
    }

    /**
     * Writes the serialized form of {@code value} into {@code dest} at {@code offset}, which must
     * have {@link #encodedSize} bytes of room; returns the offset after the value. For callers
     * assembling a larger buffer (a composite partition key, a row) without intermediate arrays.
     *
     * @throws IllegalArgumentException as {@link #encode}
     * @throws IndexOutOfBoundsException if {@code dest} is too short (it may be partly written)
     */
    public static int encodeTo(CqlType type, Object value, byte[] dest, int offset) {
        if (value == null) {
            throw new IllegalArgumentException("cannot encode null as " + type.cql() + ": NULL is handled by the caller");
        }
        if (offset < 0 || offset > dest.length) {
            throw new IndexOutOfBoundsException("offset " + offset + " outside an array of " + dest.length);
        }
        return write(type, value, dest, offset);
    }

    /**
     * Reads a whole array as one value of {@code type}; the result is in the value model's
     * normalized form (immutable, sets and maps in CQL order).
     *
     * @throws MalformedValueException if the bytes are not exactly one value of the type
     */
    public static Object decode(CqlType type, byte[] bytes) {
        return read(type, bytes, 0, bytes.length);
    }

    /** Reads {@code bytes[offset, offset + length)} as one value; see {@link #decode(CqlType, byte[])}. */
    public static Object decode(CqlType type, byte[] bytes, int offset, int length) {
        if (offset < 0 || length < 0 || offset > bytes.length - length) {
            throw new IndexOutOfBoundsException("range [" + offset + ", " + offset + "+" + length
                    + ") outside an array of " + bytes.length);
        }
        return read(type, bytes, offset, length);
    }

    // ---------------------------------------------------------------- sizing

    private static int size(CqlType type, Object v) {
        if (type instanceof CqlType.Native n) {
            return nativeSize(n, v);
        }
        if (type instanceof CqlType.ListType l) {
            return collectionSize(l.element(), list(type, v), type);
        }
        if (type instanceof CqlType.SetType s) {
            return collectionSize(s.element(), set(s, v), type);
        }
        if (type instanceof CqlType.MapType m) {
            Map<?, ?> map = map(m, v);
            int size = 4;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                size += 8 + size(m.key(), element(type, e.getKey())) + size(m.value(), element(type, e.getValue()));
            }
            return size;
        }
        CqlType.UserType u = (CqlType.UserType) type;
        Map<?, ?> fields = udt(u, v);
        int size = 0;
        for (CqlType.Field f : u.fields()) {
            Object fv = fields.get(f.name());
            size += 4 + (fv == null ? 0 : size(f.type(), fv));
        }
        return size;
    }

    private static int collectionSize(CqlType elementType, Collection<?> c, CqlType type) {
        int size = 4;
        for (Object e : c) {
            size += 4 + size(elementType, element(type, e));
        }
        return size;
    }

    private static int nativeSize(CqlType.Native type, Object v) {
        switch (type.kind()) {
            case ASCII:
                return string(type, v).length();
            case TEXT:
            case VARCHAR:
                return Utf8.encodedLength(string(type, v));
            case TINYINT:
                cast(type, v, Byte.class);
                return 1;
            case SMALLINT:
                cast(type, v, Short.class);
                return 2;
            case INT:
                cast(type, v, Integer.class);
                return 4;
            case FLOAT:
                cast(type, v, Float.class);
                return 4;
            case DATE:
                cast(type, v, LocalDate.class);
                return 4;
            case BIGINT:
            case COUNTER:
                cast(type, v, Long.class);
                return 8;
            case DOUBLE:
                cast(type, v, Double.class);
                return 8;
            case TIMESTAMP:
                cast(type, v, Instant.class);
                return 8;
            case TIME:
                cast(type, v, LocalTime.class);
                return 8;
            case BOOLEAN:
                cast(type, v, Boolean.class);
                return 1;
            case UUID:
            case TIMEUUID:
                cast(type, v, UUID.class);
                return 16;
            case INET:
                return cast(type, v, InetAddress.class) instanceof Inet4Address ? 4 : 16;
            case BLOB:
                return cast(type, v, Blob.class).length();
            case VARINT:
                return varintSize(cast(type, v, BigInteger.class));
            case DECIMAL:
                return 4 + varintSize(cast(type, v, BigDecimal.class).unscaledValue());
            case DURATION: {
                CqlDuration d = cast(type, v, CqlDuration.class);
                return VIntCoding.signedSize(d.months()) + VIntCoding.signedSize(d.days())
                        + VIntCoding.signedSize(d.nanos());
            }
            default:
                throw new AssertionError(type.kind());
        }
    }

    private static int varintSize(BigInteger i) {
        return i.bitLength() / 8 + 1; // the length of toByteArray()
    }

    // ---------------------------------------------------------------- writing

    private static int write(CqlType type, Object v, byte[] b, int p) {
        if (type instanceof CqlType.Native n) {
            return writeNative(n, v, b, p);
        }
        if (type instanceof CqlType.ListType l) {
            return writeCollection(l.element(), list(type, v), type, b, p);
        }
        if (type instanceof CqlType.SetType s) {
            return writeCollection(s.element(), set(s, v), type, b, p);
        }
        if (type instanceof CqlType.MapType m) {
            Map<?, ?> map = map(m, v);
            p = putInt(b, p, map.size());
            for (Map.Entry<?, ?> e : map.entrySet()) {
                p = writeFramed(m.key(), element(type, e.getKey()), b, p);
                p = writeFramed(m.value(), element(type, e.getValue()), b, p);
            }
            return p;
        }
        CqlType.UserType u = (CqlType.UserType) type;
        Map<?, ?> fields = udt(u, v);
        for (CqlType.Field f : u.fields()) {
            Object fv = fields.get(f.name());
            p = fv == null ? putInt(b, p, -1) : writeFramed(f.type(), fv, b, p);
        }
        return p;
    }

    private static int writeCollection(CqlType elementType, Collection<?> c, CqlType type, byte[] b, int p) {
        p = putInt(b, p, c.size());
        for (Object e : c) {
            p = writeFramed(elementType, element(type, e), b, p);
        }
        return p;
    }

    /** Writes an int32 length and the value; the length is filled in afterwards, not precomputed. */
    private static int writeFramed(CqlType type, Object v, byte[] b, int p) {
        int end = write(type, v, b, p + 4);
        putInt(b, p, end - p - 4);
        return end;
    }

    private static int writeNative(CqlType.Native type, Object v, byte[] b, int p) {
        switch (type.kind()) {
            case ASCII: {
                String s = string(type, v);
                for (int i = 0, n = s.length(); i < n; i++) {
                    char c = s.charAt(i);
                    b[p++] = c < 0x80 ? (byte) c : (byte) '?'; // as String.getBytes(US_ASCII)
                }
                return p;
            }
            case TEXT:
            case VARCHAR:
                return Utf8.write(string(type, v), b, p);
            case TINYINT:
                b[p] = cast(type, v, Byte.class);
                return p + 1;
            case SMALLINT: {
                short s = cast(type, v, Short.class);
                b[p] = (byte) (s >> 8);
                b[p + 1] = (byte) s;
                return p + 2;
            }
            case INT:
                return putInt(b, p, cast(type, v, Integer.class));
            case FLOAT:
                return putInt(b, p, Float.floatToRawIntBits(cast(type, v, Float.class)));
            case DATE:
                return putInt(b, p, (int) (dateDays(cast(type, v, LocalDate.class)) + DATE_EPOCH));
            case BIGINT:
            case COUNTER:
                return putLong(b, p, cast(type, v, Long.class));
            case DOUBLE:
                return putLong(b, p, Double.doubleToRawLongBits(cast(type, v, Double.class)));
            case TIMESTAMP:
                return putLong(b, p, timestampMillis(cast(type, v, Instant.class)));
            case TIME:
                return putLong(b, p, cast(type, v, LocalTime.class).toNanoOfDay());
            case BOOLEAN:
                b[p] = cast(type, v, Boolean.class) ? (byte) 1 : (byte) 0;
                return p + 1;
            case UUID:
            case TIMEUUID: {
                UUID u = cast(type, v, UUID.class);
                p = putLong(b, p, u.getMostSignificantBits());
                return putLong(b, p, u.getLeastSignificantBits());
            }
            case INET: {
                byte[] a = cast(type, v, InetAddress.class).getAddress();
                System.arraycopy(a, 0, b, p, a.length);
                return p + a.length;
            }
            case BLOB: {
                byte[] a = cast(type, v, Blob.class).array();
                System.arraycopy(a, 0, b, p, a.length);
                return p + a.length;
            }
            case VARINT:
                return putVarint(b, p, cast(type, v, BigInteger.class));
            case DECIMAL: {
                BigDecimal d = cast(type, v, BigDecimal.class);
                p = putInt(b, p, d.scale());
                return putVarint(b, p, d.unscaledValue());
            }
            case DURATION: {
                CqlDuration d = cast(type, v, CqlDuration.class);
                p = VIntCoding.writeSigned(d.months(), b, p);
                p = VIntCoding.writeSigned(d.days(), b, p);
                return VIntCoding.writeSigned(d.nanos(), b, p);
            }
            default:
                throw new AssertionError(type.kind());
        }
    }

    private static long dateDays(LocalDate d) {
        long days = d.toEpochDay();
        if (days < Integer.MIN_VALUE || days > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("date " + d + " is outside the range of a CQL date");
        }
        return days;
    }

    private static long timestampMillis(Instant t) {
        try {
            return t.toEpochMilli();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("timestamp " + t + " is outside the range of a CQL timestamp", e);
        }
    }

    private static int putVarint(byte[] b, int p, BigInteger i) {
        int n = varintSize(i);
        if (n <= 8) {
            // the common case: the same bytes as toByteArray(), without allocating them
            long x = i.longValue();
            for (int k = n - 1; k >= 0; k--) {
                b[p + k] = (byte) x;
                x >>= 8;
            }
            return p + n;
        }
        byte[] a = i.toByteArray();
        System.arraycopy(a, 0, b, p, a.length);
        return p + a.length;
    }

    private static int putInt(byte[] b, int p, int v) {
        b[p] = (byte) (v >>> 24);
        b[p + 1] = (byte) (v >>> 16);
        b[p + 2] = (byte) (v >>> 8);
        b[p + 3] = (byte) v;
        return p + 4;
    }

    private static int putLong(byte[] b, int p, long v) {
        putInt(b, p, (int) (v >>> 32));
        return putInt(b, p + 4, (int) v);
    }

    // ---------------------------------------------------------------- value access

    private static <T> T cast(CqlType type, Object v, Class<T> c) {
        if (!c.isInstance(v)) {
            throw new IllegalArgumentException("a " + type.cql() + " value must be a " + c.getName() + ", not a "
                    + v.getClass().getName());
        }
        return c.cast(v);
    }

    private static String string(CqlType type, Object v) {
        return cast(type, v, String.class);
    }

    private static Object element(CqlType collection, Object e) {
        if (e == null) {
            throw new IllegalArgumentException("a " + collection.cql() + " value cannot contain null");
        }
        return e;
    }

    private static List<?> list(CqlType type, Object v) {
        return cast(type, v, List.class);
    }

    private static Set<?> set(CqlType.SetType type, Object v) {
        Set<?> s = cast(type, v, Set.class);
        if (s instanceof SortedArraySet sorted && sorted.elementType().equals(type.element())) {
            return s;
        }
        return (Set<?>) inCqlOrder(type, s); // a HashSet etc.: the bytes must follow CQL order
    }

    private static Map<?, ?> map(CqlType.MapType type, Object v) {
        Map<?, ?> m = cast(type, v, Map.class);
        if (m instanceof SortedArrayMap sorted && sorted.keyType().equals(type.key())) {
            return m;
        }
        return (Map<?, ?>) inCqlOrder(type, m);
    }

    private static Object inCqlOrder(CqlType type, Object collection) {
        try {
            return Values.normalize(type, collection);
        } catch (InvalidValueException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static Map<?, ?> udt(CqlType.UserType type, Object v) {
        Map<?, ?> m = cast(type, v, Map.class);
        int known = 0;
        for (CqlType.Field f : type.fields()) {
            if (m.get(f.name()) != null || m.containsKey(f.name())) {
                known++;
            }
        }
        if (known != m.size()) {
            throw new IllegalArgumentException("a " + type.cql() + " value has keys that are not fields of the type: "
                    + m.keySet());
        }
        return m;
    }

    // ---------------------------------------------------------------- reading

    private static Object read(CqlType type, byte[] b, int off, int len) {
        if (type instanceof CqlType.Native n) {
            return readNative(n, b, off, len);
        }
        int end = off + len;
        if (type instanceof CqlType.UserType u) {
            return readUdt(u, b, off, end);
        }
        int count = readInt(type, b, off, end);
        int p = off + 4;
        if (count < 0 || count > (len - 4) / (type instanceof CqlType.MapType ? 8 : 4)) {
            throw new MalformedValueException(type, "element count " + count + " does not fit in " + len + " bytes");
        }
        if (type instanceof CqlType.MapType m) {
            Object[] keys = new Object[count];
            Object[] values = new Object[count];
            for (int i = 0; i < count; i++) {
                int kl = elementLength(type, b, p, end);
                keys[i] = read(m.key(), b, p + 4, kl);
                p += 4 + kl;
                int vl = elementLength(type, b, p, end);
                values[i] = read(m.value(), b, p + 4, vl);
                p += 4 + vl;
            }
            requireEnd(type, p, end);
            Comparator<Object> order = order(type, m.key());
            int n = SortedArrays.sortDistinctEntries(keys, values, order);
            return new SortedArrayMap(m.key(), order, trim(keys, n), trim(values, n));
        }
        CqlType elementType = type instanceof CqlType.ListType l ? l.element() : ((CqlType.SetType) type).element();
        Object[] elements = new Object[count];
        for (int i = 0; i < count; i++) {
            int el = elementLength(type, b, p, end);
            elements[i] = read(elementType, b, p + 4, el);
            p += 4 + el;
        }
        requireEnd(type, p, end);
        if (type instanceof CqlType.ListType) {
            return new ImmutableArrayList(elementType, elements);
        }
        Comparator<Object> order = order(type, elementType);
        int n = SortedArrays.sortDistinct(elements, order);
        return new SortedArraySet(elementType, order, trim(elements, n));
    }

    private static Comparator<Object> order(CqlType collection, CqlType elementType) {
        try {
            return ValueComparator.of(elementType);
        } catch (IllegalArgumentException e) {
            throw new MalformedValueException(collection, e.getMessage());
        }
    }

    private static Object[] trim(Object[] a, int n) {
        return n == a.length ? a : Arrays.copyOf(a, n);
    }

    private static Object readUdt(CqlType.UserType type, byte[] b, int off, int end) {
        LinkedHashMap<String, Object> fields = new LinkedHashMap<>(Math.max(4, type.fields().size() * 2));
        int p = off;
        for (CqlType.Field f : type.fields()) {
            Object fv = null;
            if (p < end) { // Cassandra lets trailing fields be absent: they read as null
                int fl = readInt(type, b, p, end);
                p += 4;
                if (fl >= 0) {
                    if (fl > end - p) {
                        throw new MalformedValueException(type, "field '" + f.name() + "' of " + fl
                                + " bytes overruns the value");
                    }
                    fv = read(f.type(), b, p, fl);
                    p += fl;
                } else if (fl != -1) {
                    throw new MalformedValueException(type, "field '" + f.name() + "' has length " + fl);
                }
            }
            fields.put(f.name(), fv);
        }
        requireEnd(type, p, end);
        return Collections.unmodifiableMap(fields);
    }

    private static int elementLength(CqlType type, byte[] b, int p, int end) {
        int l = readInt(type, b, p, end);
        if (l < 0) {
            throw new MalformedValueException(type, "a collection element cannot be null (length " + l + ")");
        }
        if (l > end - p - 4) {
            throw new MalformedValueException(type, "an element of " + l + " bytes overruns the value");
        }
        return l;
    }

    private static void requireEnd(CqlType type, int p, int end) {
        if (p != end) {
            throw new MalformedValueException(type, (end - p) + " trailing bytes");
        }
    }

    private static int readInt(CqlType type, byte[] b, int p, int end) {
        if (end - p < 4) {
            throw new MalformedValueException(type, "truncated: " + (end - p) + " bytes where an int32 length is due");
        }
        return getInt(b, p);
    }

    private static int getInt(byte[] b, int p) {
        return (b[p] << 24) | ((b[p + 1] & 0xFF) << 16) | ((b[p + 2] & 0xFF) << 8) | (b[p + 3] & 0xFF);
    }

    private static long getLong(byte[] b, int p) {
        return ((long) getInt(b, p) << 32) | (getInt(b, p + 4) & 0xFFFFFFFFL);
    }

    private static void requireLength(CqlType type, int len, int expected) {
        if (len != expected) {
            throw new MalformedValueException(type, "expected " + expected + " bytes, got " + len);
        }
    }

    private static Object readNative(CqlType.Native type, byte[] b, int off, int len) {
        switch (type.kind()) {
            case ASCII:
                if (!Utf8.isAscii(b, off, len)) {
                    throw new MalformedValueException(type, "non-ASCII byte");
                }
                return new String(b, off, len, StandardCharsets.US_ASCII);
            case TEXT:
            case VARCHAR:
                if (!Utf8.isValid(b, off, len)) {
                    throw new MalformedValueException(type, "invalid UTF-8");
                }
                return new String(b, off, len, StandardCharsets.UTF_8);
            case TINYINT:
                requireLength(type, len, 1);
                return b[off];
            case SMALLINT:
                requireLength(type, len, 2);
                return (short) ((b[off] << 8) | (b[off + 1] & 0xFF));
            case INT:
                requireLength(type, len, 4);
                return getInt(b, off);
            case FLOAT:
                requireLength(type, len, 4);
                return Float.intBitsToFloat(getInt(b, off));
            case DATE:
                requireLength(type, len, 4);
                return LocalDate.ofEpochDay((getInt(b, off) & 0xFFFFFFFFL) - DATE_EPOCH);
            case BIGINT:
            case COUNTER:
                requireLength(type, len, 8);
                return getLong(b, off);
            case DOUBLE:
                requireLength(type, len, 8);
                return Double.longBitsToDouble(getLong(b, off));
            case TIMESTAMP:
                requireLength(type, len, 8);
                return Instant.ofEpochMilli(getLong(b, off));
            case TIME: {
                requireLength(type, len, 8);
                long nanos = getLong(b, off);
                if (nanos < 0 || nanos >= NANOS_PER_DAY) {
                    throw new MalformedValueException(type, nanos + " is not a nanosecond of the day");
                }
                return LocalTime.ofNanoOfDay(nanos);
            }
            case BOOLEAN:
                requireLength(type, len, 1);
                return b[off] != 0; // Cassandra reads any non-zero byte as true
            case UUID:
                requireLength(type, len, 16);
                return new UUID(getLong(b, off), getLong(b, off + 8));
            case TIMEUUID: {
                requireLength(type, len, 16);
                UUID u = new UUID(getLong(b, off), getLong(b, off + 8));
                if (u.version() != 1) {
                    throw new MalformedValueException(type, "version " + u.version() + " UUID, a timeuuid is version 1");
                }
                return u;
            }
            case INET: {
                if (len != 4 && len != 16) {
                    throw new MalformedValueException(type, "expected 4 or 16 bytes, got " + len);
                }
                try {
                    return InetAddress.getByAddress(Arrays.copyOfRange(b, off, off + len));
                } catch (UnknownHostException e) {
                    throw new MalformedValueException(type, e.getMessage());
                }
            }
            case BLOB:
                return Blob.wrap(Arrays.copyOfRange(b, off, off + len));
            case VARINT:
                if (len == 0) {
                    throw new MalformedValueException(type, "no bytes");
                }
                return readVarint(b, off, len);
            case DECIMAL: {
                if (len < 5) {
                    throw new MalformedValueException(type, "expected a scale and at least one unscaled byte, got "
                            + len + " bytes");
                }
                return new BigDecimal(readVarint(b, off + 4, len - 4), getInt(b, off));
            }
            case DURATION:
                return readDuration(type, b, off, len);
            default:
                throw new AssertionError(type.kind());
        }
    }

    private static BigInteger readVarint(byte[] b, int off, int len) {
        if (len <= 8) {
            long x = b[off]; // sign-extends
            for (int i = 1; i < len; i++) {
                x = (x << 8) | (b[off + i] & 0xFF);
            }
            return BigInteger.valueOf(x);
        }
        return new BigInteger(b, off, len);
    }

    private static CqlDuration readDuration(CqlType type, byte[] b, int off, int len) {
        int end = off + len;
        long[] parts = new long[3];
        int p = off;
        for (int i = 0; i < 3; i++) {
            if (p >= end) {
                throw new MalformedValueException(type, "truncated after " + i + " of 3 components");
            }
            int size = VIntCoding.sizeFromFirstByte(b[p]);
            if (size > end - p) {
                throw new MalformedValueException(type, "truncated vint");
            }
            parts[i] = VIntCoding.readSigned(b, p);
            p += size;
        }
        requireEnd(type, p, end);
        if (parts[0] != (int) parts[0] || parts[1] != (int) parts[1]) {
            throw new MalformedValueException(type, "months or days out of the int range");
        }
        try {
            return new CqlDuration((int) parts[0], (int) parts[1], parts[2]);
        } catch (IllegalArgumentException e) {
            throw new MalformedValueException(type, e.getMessage());
        }
    }
}
