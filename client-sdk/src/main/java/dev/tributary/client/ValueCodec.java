package dev.tributary.client;

import com.google.protobuf.ByteString;
import dev.tributary.client.CqlTypeName.Kind;
import dev.tributary.client.errors.ValueConversionException;
import dev.tributary.protocol.v1.CollectionValue;
import dev.tributary.protocol.v1.DurationValue;
import dev.tributary.protocol.v1.MapEntry;
import dev.tributary.protocol.v1.MapValue;
import dev.tributary.protocol.v1.NamedValue;
import dev.tributary.protocol.v1.UdtValue;
import dev.tributary.protocol.v1.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Converts between the Java value model (docs/ARCHITECTURE.md, "Value model"; blobs are read-only
 * {@link ByteBuffer}s and durations {@link CqlDuration}s) and the wire {@link Value}. Reading
 * needs the column's type, since the wire kinds are shared (an {@code integer} is a tinyint or a
 * bigint); writing takes the type when it is known (prepared statements) and otherwise goes by
 * the Java class and lets the server type the value. Stateless and thread-safe.
 */
public final class ValueCodec {
    private static final Pattern INET_LITERAL = Pattern.compile("[0-9A-Fa-f:.%\\[\\]]+");
    private static final Value NULL = Value.getDefaultInstance();

    private ValueCodec() {
    }

    // ---------------------------------------------------------------- Java -> wire

    /**
     * The wire form of a Java value for a known type, or by its Java class when {@code type} is
     * null. {@code what} names the value in errors, e.g. {@code "bind marker 1 (v)"}.
     */
    public static Value encode(Object value, CqlTypeName type, String what) {
        if (value == null) {
            return NULL;
        }
        if (type == null) {
            return encodeUntyped(value, what);
        }
        if (type instanceof CqlTypeName.Native n) {
            return encodeNative(value, n.kind(), what);
        }
        if (type instanceof CqlTypeName.ListOf l) {
            return Value.newBuilder().setCollection(encodeElements(collection(value, type, what), l.element(), what)).build();
        }
        if (type instanceof CqlTypeName.SetOf s) {
            return Value.newBuilder().setCollection(encodeElements(collection(value, type, what), s.element(), what)).build();
        }
        if (type instanceof CqlTypeName.MapOf m) {
            if (!(value instanceof Map<?, ?> map)) {
                throw mismatch(value, type, what);
            }
            return Value.newBuilder().setMap(encodeEntries(map, m.key(), m.value(), what)).build();
        }
        CqlTypeName.UserDefined u = (CqlTypeName.UserDefined) type;
        if (!(value instanceof Map<?, ?> fields)) {
            throw mismatch(value, type, what);
        }
        return Value.newBuilder().setUdt(encodeFields(fields, u, what)).build();
    }

    private static Value encodeUntyped(Object value, String what) {
        Value.Builder b = Value.newBuilder();
        if (value instanceof String s) {
            return b.setText(s).build();
        }
        if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
            return b.setInteger(((Number) value).longValue()).build();
        }
        if (value instanceof BigInteger || value instanceof BigDecimal) {
            return b.setDecimal(value.toString()).build();
        }
        if (value instanceof Float f) {
            return b.setFloat32(f).build();
        }
        if (value instanceof Double d) {
            return b.setFloat64(d).build();
        }
        if (value instanceof Boolean bool) {
            return b.setBoolean(bool).build();
        }
        if (value instanceof Instant || value instanceof Date) {
            return encodeNative(value, Kind.TIMESTAMP, what);
        }
        if (value instanceof LocalDate) {
            return encodeNative(value, Kind.DATE, what);
        }
        if (value instanceof LocalTime) {
            return encodeNative(value, Kind.TIME, what);
        }
        if (value instanceof CqlDuration) {
            return encodeNative(value, Kind.DURATION, what);
        }
        if (value instanceof ByteBuffer || value instanceof byte[]) {
            return encodeNative(value, Kind.BLOB, what);
        }
        if (value instanceof UUID u) {
            return b.setUuid(u.toString()).build();
        }
        if (value instanceof InetAddress a) {
            return b.setInet(a.getHostAddress()).build();
        }
        if (value instanceof Collection<?> c) {
            CollectionValue.Builder cb = CollectionValue.newBuilder();
            int i = 0;
            for (Object e : c) {
                cb.addElements(encodeUntyped(requireElement(e, what, i++), what + " element"));
            }
            return b.setCollection(cb).build();
        }
        if (value instanceof Map<?, ?> m) {
            MapValue.Builder mb = MapValue.newBuilder();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                mb.addEntries(MapEntry.newBuilder()
                        .setKey(encodeUntyped(requireKey(e.getKey(), what), what + " key"))
                        .setValue(encodeUntyped(requireMapValue(e, what), what + " value")));
            }
            return b.setMap(mb).build();
        }
        throw new ValueConversionException("cannot send " + what + ": no CQL type for Java class "
                + value.getClass().getName());
    }

    private static Value encodeNative(Object value, Kind kind, String what) {
        Value.Builder b = Value.newBuilder();
        switch (kind) {
            case ASCII:
            case TEXT:
            case VARCHAR: {
                if (!(value instanceof String s)) {
                    throw mismatch(value, kind, what);
                }
                if (kind == Kind.ASCII) {
                    for (int i = 0; i < s.length(); i++) {
                        if (s.charAt(i) > 0x7F) {
                            throw new ValueConversionException("cannot send " + what + " as ascii: character '"
                                    + s.charAt(i) + "' at index " + i + " is not ASCII");
                        }
                    }
                }
                return b.setText(s).build();
            }
            case TINYINT:
                return b.setInteger(integral(value, kind, what, Byte.MIN_VALUE, Byte.MAX_VALUE)).build();
            case SMALLINT:
                return b.setInteger(integral(value, kind, what, Short.MIN_VALUE, Short.MAX_VALUE)).build();
            case INT:
                return b.setInteger(integral(value, kind, what, Integer.MIN_VALUE, Integer.MAX_VALUE)).build();
            case BIGINT:
            case COUNTER:
                return b.setInteger(integral(value, kind, what, Long.MIN_VALUE, Long.MAX_VALUE)).build();
            case VARINT: {
                if (isIntegral(value)) {
                    return b.setDecimal(value.toString()).build();
                }
                throw mismatch(value, kind, what);
            }
            case DECIMAL: {
                if (isIntegral(value) || value instanceof BigDecimal) {
                    return b.setDecimal(value.toString()).build();
                }
                if (value instanceof Float || value instanceof Double) {
                    double d = ((Number) value).doubleValue();
                    if (Double.isNaN(d) || Double.isInfinite(d)) {
                        throw new ValueConversionException("cannot send " + what + " as decimal: " + d + " is not finite");
                    }
                    return b.setDecimal(BigDecimal.valueOf(d).toString()).build();
                }
                throw mismatch(value, kind, what);
            }
            case FLOAT: {
                if (value instanceof Float f) {
                    return b.setFloat32(f).build();
                }
                if (value instanceof Double d && (Double.isNaN(d) || (double) d.floatValue() == d)) {
                    return b.setFloat32(d.floatValue()).build();
                }
                throw mismatch(value, kind, what);
            }
            case DOUBLE: {
                if (value instanceof Float || value instanceof Double) {
                    return b.setFloat64(((Number) value).doubleValue()).build();
                }
                throw mismatch(value, kind, what);
            }
            case BOOLEAN: {
                if (value instanceof Boolean bool) {
                    return b.setBoolean(bool).build();
                }
                throw mismatch(value, kind, what);
            }
            case TIMESTAMP: {
                if (value instanceof Instant t) {
                    try {
                        return b.setTimestampMillis(t.toEpochMilli()).build();
                    } catch (ArithmeticException e) {
                        throw new ValueConversionException("cannot send " + what + " as timestamp: " + t
                                + " is out of range", e);
                    }
                }
                if (value instanceof Date d) {
                    return b.setTimestampMillis(d.getTime()).build();
                }
                throw mismatch(value, kind, what);
            }
            case DATE: {
                if (value instanceof LocalDate d) {
                    long days = d.toEpochDay();
                    if (days < Integer.MIN_VALUE || days > Integer.MAX_VALUE) {
                        throw new ValueConversionException("cannot send " + what + " as date: " + d + " is out of range");
                    }
                    return b.setDateDays((int) days).build();
                }
                throw mismatch(value, kind, what);
            }
            case TIME: {
                if (value instanceof LocalTime t) {
                    return b.setTimeNanos(t.toNanoOfDay()).build();
                }
                throw mismatch(value, kind, what);
            }
            case DURATION: {
                if (value instanceof CqlDuration d) {
                    return b.setDuration(DurationValue.newBuilder()
                            .setMonths(d.months()).setDays(d.days()).setNanos(d.nanos())).build();
                }
                throw mismatch(value, kind, what);
            }
            case BLOB: {
                if (value instanceof ByteBuffer buf) {
                    // duplicate(): reading must not move the caller's buffer position
                    return b.setBlob(ByteString.copyFrom(buf.duplicate())).build();
                }
                if (value instanceof byte[] bytes) {
                    return b.setBlob(ByteString.copyFrom(bytes)).build();
                }
                throw mismatch(value, kind, what);
            }
            case UUID:
            case TIMEUUID: {
                if (!(value instanceof UUID u)) {
                    throw mismatch(value, kind, what);
                }
                if (kind == Kind.TIMEUUID && u.version() != 1) {
                    throw new ValueConversionException("cannot send " + what + " as timeuuid: " + u
                            + " is a version " + u.version() + " UUID, not a time-based (version 1) one");
                }
                return b.setUuid(u.toString()).build();
            }
            case INET: {
                if (value instanceof InetAddress a) {
                    return b.setInet(a.getHostAddress()).build();
                }
                throw mismatch(value, kind, what);
            }
            default:
                throw new IllegalStateException("unhandled kind " + kind);
        }
    }

    private static boolean isIntegral(Object v) {
        return v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long
                || v instanceof BigInteger;
    }

    private static long integral(Object value, Kind kind, String what, long min, long max) {
        if (!isIntegral(value)) {
            throw mismatch(value, kind, what);
        }
        boolean inRange;
        if (value instanceof BigInteger big) {
            inRange = big.compareTo(BigInteger.valueOf(min)) >= 0 && big.compareTo(BigInteger.valueOf(max)) <= 0;
        } else {
            // Long, Integer, Short, Byte: compared as longs, without a BigInteger per value
            long v = ((Number) value).longValue();
            inRange = v >= min && v <= max;
        }
        if (!inRange) {
            throw new ValueConversionException("cannot send " + what + " as " + kind.cql() + ": " + value
                    + " is outside [" + min + ", " + max + "]");
        }
        return ((Number) value).longValue();
    }

    private static Collection<?> collection(Object value, CqlTypeName type, String what) {
        if (value instanceof Collection<?> c) {
            return c;
        }
        throw mismatch(value, type, what);
    }

    private static CollectionValue encodeElements(Collection<?> c, CqlTypeName element, String what) {
        CollectionValue.Builder cb = CollectionValue.newBuilder();
        int i = 0;
        for (Object e : c) {
            cb.addElements(encode(requireElement(e, what, i), element, what + " element " + i));
            i++;
        }
        return cb.build();
    }

    private static MapValue encodeEntries(Map<?, ?> map, CqlTypeName key, CqlTypeName value, String what) {
        MapValue.Builder mb = MapValue.newBuilder();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            Object k = requireKey(e.getKey(), what);
            mb.addEntries(MapEntry.newBuilder()
                    .setKey(encode(k, key, what + " key"))
                    .setValue(encode(requireMapValue(e, what), value, what + " value of key " + k)));
        }
        return mb.build();
    }

    private static UdtValue encodeFields(Map<?, ?> fields, CqlTypeName.UserDefined type, String what) {
        UdtValue.Builder ub = UdtValue.newBuilder();
        for (Map.Entry<?, ?> e : fields.entrySet()) {
            if (!(e.getKey() instanceof String name)) {
                throw new ValueConversionException("cannot send " + what + " as " + type
                        + ": field names must be Strings, got " + describe(e.getKey()));
            }
            // The client does not know the user type's fields; the server types them by name.
            ub.addFields(NamedValue.newBuilder().setName(name)
                    .setValue(encode(e.getValue(), null, what + " field " + name)));
        }
        return ub.build();
    }

    private static Object requireElement(Object e, String what, int index) {
        if (e == null) {
            throw new ValueConversionException("cannot send " + what + ": element " + index
                    + " is null, and CQL collections cannot hold nulls");
        }
        return e;
    }

    private static Object requireKey(Object k, String what) {
        if (k == null) {
            throw new ValueConversionException("cannot send " + what + ": a map key is null");
        }
        return k;
    }

    private static Object requireMapValue(Map.Entry<?, ?> e, String what) {
        if (e.getValue() == null) {
            throw new ValueConversionException("cannot send " + what + ": the value of key " + e.getKey()
                    + " is null, and CQL maps cannot hold nulls");
        }
        return e.getValue();
    }

    private static ValueConversionException mismatch(Object value, Kind kind, String what) {
        return new ValueConversionException("cannot send " + what + " as " + kind.cql() + ": got "
                + describe(value));
    }

    private static ValueConversionException mismatch(Object value, CqlTypeName type, String what) {
        return new ValueConversionException("cannot send " + what + " as " + type + ": got " + describe(value));
    }

    private static String describe(Object v) {
        return v == null ? "null" : v.getClass().getName() + " " + v;
    }

    // ---------------------------------------------------------------- wire -> Java

    /**
     * The Java value of a wire value of the given type, or by its wire kind alone when
     * {@code type} is null (integers then read as Long, decimals as BigDecimal).
     */
    public static Object decode(Value value, CqlTypeName type, String what) {
        if (value.getKindCase() == Value.KindCase.KIND_NOT_SET) {
            return null;
        }
        if (type == null) {
            return decodeUntyped(value, what);
        }
        if (type instanceof CqlTypeName.Native n) {
            return decodeNative(value, n.kind(), what);
        }
        if (type instanceof CqlTypeName.ListOf l) {
            return Collections.unmodifiableList(decodeElements(value, type, l.element(), what));
        }
        if (type instanceof CqlTypeName.SetOf s) {
            return Collections.unmodifiableSet(new LinkedHashSet<>(decodeElements(value, type, s.element(), what)));
        }
        if (type instanceof CqlTypeName.MapOf m) {
            expect(value, Value.KindCase.MAP, type, what);
            Map<Object, Object> out = new LinkedHashMap<>();
            for (MapEntry e : value.getMap().getEntriesList()) {
                Object k = decode(e.getKey(), m.key(), what + " key");
                out.put(k, decode(e.getValue(), m.value(), what + " value of key " + k));
            }
            return Collections.unmodifiableMap(out);
        }
        expect(value, Value.KindCase.UDT, type, what);
        return decodeFields(value.getUdt().getFieldsList(), what);
    }

    /**
     * Named values (LCR column values, UDT fields), each read with its own type, as an ordered,
     * unmodifiable map; a value without a type is read by its wire kind.
     */
    public static Map<String, Object> decodeFields(List<NamedValue> fields, String what) {
        return decodeFields(fields, () -> what);
    }

    /**
     * As {@link #decodeFields(List, String)}, with the description built only for an error: a
     * consumer decodes every column of every LCR, and the description would cost more than the value.
     */
    public static Map<String, Object> decodeFields(List<NamedValue> fields, Supplier<String> what) {
        Map<String, Object> out = new LinkedHashMap<>(Math.max(4, fields.size() * 2));
        for (NamedValue f : fields) {
            out.put(f.getName(), decodeField(f, what));
        }
        return Collections.unmodifiableMap(out);
    }

    /** One field's value; {@code what} describes its record, built only for an error. */
    static Object decodeField(NamedValue f, Supplier<String> what) {
        CqlTypeName t = f.getType().isBlank() ? null : CqlTypeName.parse(f.getType());
        try {
            return decode(f.getValue(), t, f.getName());
        } catch (ValueConversionException e) {
            // decoding is pure: decoding again with the full description fails the same way
            return decode(f.getValue(), t, what.get() + " field " + f.getName());
        }
    }

    private static List<Object> decodeElements(Value value, CqlTypeName type, CqlTypeName element, String what) {
        expect(value, Value.KindCase.COLLECTION, type, what);
        List<Object> out = new ArrayList<>(value.getCollection().getElementsCount());
        int i = 0;
        for (Value e : value.getCollection().getElementsList()) {
            out.add(decode(e, element, what + " element " + i++));
        }
        return out;
    }

    private static Object decodeNative(Value v, Kind kind, String what) {
        switch (kind) {
            case ASCII:
            case TEXT:
            case VARCHAR:
                expect(v, Value.KindCase.TEXT, kind, what);
                return v.getText();
            case TINYINT:
                return (byte) integerInRange(v, kind, what, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SMALLINT:
                return (short) integerInRange(v, kind, what, Short.MIN_VALUE, Short.MAX_VALUE);
            case INT:
                return (int) integerInRange(v, kind, what, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT:
            case COUNTER:
                return integerInRange(v, kind, what, Long.MIN_VALUE, Long.MAX_VALUE);
            case VARINT:
                if (v.getKindCase() == Value.KindCase.INTEGER) {
                    return BigInteger.valueOf(v.getInteger());
                }
                expect(v, Value.KindCase.DECIMAL, kind, what);
                try {
                    return new BigInteger(v.getDecimal());
                } catch (NumberFormatException e) {
                    throw new ValueConversionException(what + " of type varint: '" + v.getDecimal()
                            + "' is not an integer", e);
                }
            case DECIMAL:
                if (v.getKindCase() == Value.KindCase.INTEGER) {
                    return BigDecimal.valueOf(v.getInteger());
                }
                expect(v, Value.KindCase.DECIMAL, kind, what);
                try {
                    return new BigDecimal(v.getDecimal());
                } catch (NumberFormatException e) {
                    throw new ValueConversionException(what + " of type decimal: '" + v.getDecimal()
                            + "' is not a decimal number", e);
                }
            case FLOAT:
                expect(v, Value.KindCase.FLOAT32, kind, what);
                return v.getFloat32();
            case DOUBLE:
                if (v.getKindCase() == Value.KindCase.FLOAT32) {
                    return (double) v.getFloat32();
                }
                expect(v, Value.KindCase.FLOAT64, kind, what);
                return v.getFloat64();
            case BOOLEAN:
                expect(v, Value.KindCase.BOOLEAN, kind, what);
                return v.getBoolean();
            case TIMESTAMP:
                expect(v, Value.KindCase.TIMESTAMP_MILLIS, kind, what);
                return Instant.ofEpochMilli(v.getTimestampMillis());
            case DATE:
                expect(v, Value.KindCase.DATE_DAYS, kind, what);
                return LocalDate.ofEpochDay(v.getDateDays());
            case TIME:
                expect(v, Value.KindCase.TIME_NANOS, kind, what);
                try {
                    return LocalTime.ofNanoOfDay(v.getTimeNanos());
                } catch (DateTimeException e) {
                    throw new ValueConversionException(what + " of type time: " + v.getTimeNanos()
                            + " ns is not within a day", e);
                }
            case DURATION: {
                expect(v, Value.KindCase.DURATION, kind, what);
                DurationValue d = v.getDuration();
                try {
                    return new CqlDuration(d.getMonths(), d.getDays(), d.getNanos());
                } catch (IllegalArgumentException e) {
                    throw new ValueConversionException(what + " of type duration: " + e.getMessage(), e);
                }
            }
            case BLOB:
                expect(v, Value.KindCase.BLOB, kind, what);
                return v.getBlob().asReadOnlyByteBuffer();
            case UUID:
            case TIMEUUID:
                expect(v, Value.KindCase.UUID, kind, what);
                return uuid(v.getUuid(), what);
            case INET:
                expect(v, Value.KindCase.INET, kind, what);
                return inet(v.getInet(), what);
            default:
                throw new IllegalStateException("unhandled kind " + kind);
        }
    }

    private static Object decodeUntyped(Value v, String what) {
        switch (v.getKindCase()) {
            case TEXT:
                return v.getText();
            case INTEGER:
                return v.getInteger();
            case DECIMAL:
                return decodeNative(v, Kind.DECIMAL, what);
            case FLOAT32:
                return v.getFloat32();
            case FLOAT64:
                return v.getFloat64();
            case BOOLEAN:
                return v.getBoolean();
            case TIMESTAMP_MILLIS:
                return decodeNative(v, Kind.TIMESTAMP, what);
            case DATE_DAYS:
                return decodeNative(v, Kind.DATE, what);
            case TIME_NANOS:
                return decodeNative(v, Kind.TIME, what);
            case DURATION:
                return decodeNative(v, Kind.DURATION, what);
            case BLOB:
                return decodeNative(v, Kind.BLOB, what);
            case UUID:
                return decodeNative(v, Kind.UUID, what);
            case INET:
                return decodeNative(v, Kind.INET, what);
            case COLLECTION: {
                List<Object> out = new ArrayList<>();
                for (Value e : v.getCollection().getElementsList()) {
                    out.add(decodeUntyped(e, what + " element"));
                }
                return Collections.unmodifiableList(out);
            }
            case MAP: {
                Map<Object, Object> out = new LinkedHashMap<>();
                for (MapEntry e : v.getMap().getEntriesList()) {
                    out.put(decode(e.getKey(), null, what + " key"), decode(e.getValue(), null, what + " value"));
                }
                return Collections.unmodifiableMap(out);
            }
            case UDT:
                return decodeFields(v.getUdt().getFieldsList(), what);
            default:
                return null;
        }
    }

    private static long integerInRange(Value v, Kind kind, String what, long min, long max) {
        expect(v, Value.KindCase.INTEGER, kind, what);
        long n = v.getInteger();
        if (n < min || n > max) {
            throw new ValueConversionException(what + " of type " + kind.cql() + ": " + n + " is outside ["
                    + min + ", " + max + "]");
        }
        return n;
    }

    private static UUID uuid(String s, String what) {
        try {
            UUID u = UUID.fromString(s);
            if (!u.toString().equalsIgnoreCase(s)) {
                throw new IllegalArgumentException("not in canonical form");
            }
            return u;
        } catch (IllegalArgumentException e) {
            throw new ValueConversionException(what + ": '" + s + "' is not a canonical UUID", e);
        }
    }

    private static InetAddress inet(String s, String what) {
        // Only literals: InetAddress.getByName would look a host name up in DNS.
        if (!INET_LITERAL.matcher(s).matches() || (s.indexOf(':') < 0 && !isDottedQuad(s))) {
            throw new ValueConversionException(what + ": '" + s + "' is not an IP address literal");
        }
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new ValueConversionException(what + ": '" + s + "' is not an IP address literal", e);
        }
    }

    private static boolean isDottedQuad(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit) || Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return true;
    }

    private static void expect(Value v, Value.KindCase kindCase, Kind kind, String what) {
        if (v.getKindCase() != kindCase) {
            throw new ValueConversionException(what + " of type " + kind.cql() + ": expected a wire "
                    + kindName(kindCase) + " value, got " + kindName(v.getKindCase()));
        }
    }

    private static void expect(Value v, Value.KindCase kindCase, CqlTypeName type, String what) {
        if (v.getKindCase() != kindCase) {
            throw new ValueConversionException(what + " of type " + type + ": expected a wire "
                    + kindName(kindCase) + " value, got " + kindName(v.getKindCase()));
        }
    }

    private static String kindName(Value.KindCase k) {
        return k.name().toLowerCase(java.util.Locale.ROOT);
    }
}
