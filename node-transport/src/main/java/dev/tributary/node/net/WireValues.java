package dev.tributary.node.net;

import com.google.protobuf.ByteString;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlDuration;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.node.errors.InvalidRequestException;
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
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** Converts values between the value model and the wire's {@code Value}, driven by the CQL type. */
public final class WireValues {
    private static final Value NULL = Value.getDefaultInstance();

    private WireValues() {
    }

    public static Value toWire(CqlType type, Object v) {
        if (v == null) {
            return NULL;
        }
        Value.Builder b = Value.newBuilder();
        if (type instanceof CqlType.Native n) {
            switch (n.kind()) {
                case ASCII, TEXT, VARCHAR -> b.setText((String) v);
                case TINYINT, SMALLINT, INT, BIGINT, COUNTER -> b.setInteger(((Number) v).longValue());
                case VARINT, DECIMAL -> b.setDecimal(v.toString());
                case FLOAT -> b.setFloat32((Float) v);
                case DOUBLE -> b.setFloat64((Double) v);
                case BOOLEAN -> b.setBoolean((Boolean) v);
                case TIMESTAMP -> b.setTimestampMillis(((Instant) v).toEpochMilli());
                case DATE -> b.setDateDays((int) ((LocalDate) v).toEpochDay());
                case TIME -> b.setTimeNanos(((LocalTime) v).toNanoOfDay());
                case DURATION -> {
                    CqlDuration d = (CqlDuration) v;
                    b.setDuration(DurationValue.newBuilder().setMonths(d.months()).setDays(d.days()).setNanos(d.nanos()));
                }
                case BLOB -> b.setBlob(ByteString.copyFrom(((Blob) v).asReadOnlyBuffer()));
                case UUID, TIMEUUID -> b.setUuid(v.toString());
                case INET -> b.setInet(((InetAddress) v).getHostAddress());
                default -> throw new IllegalStateException("unhandled type " + type);
            }
        } else if (type instanceof CqlType.ListType l) {
            b.setCollection(collection(l.element(), (List<?>) v));
        } else if (type instanceof CqlType.SetType s) {
            b.setCollection(collection(s.element(), new ArrayList<>((Set<?>) v)));
        } else if (type instanceof CqlType.MapType m) {
            MapValue.Builder mb = MapValue.newBuilder();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                mb.addEntries(MapEntry.newBuilder().setKey(toWire(m.key(), e.getKey())).setValue(toWire(m.value(), e.getValue())));
            }
            b.setMap(mb);
        } else if (type instanceof CqlType.UserType u) {
            UdtValue.Builder ub = UdtValue.newBuilder();
            Map<?, ?> fields = (Map<?, ?>) v;
            for (CqlType.Field f : u.fields()) {
                ub.addFields(NamedValue.newBuilder().setName(f.name()).setType(f.type().cql())
                        .setValue(toWire(f.type(), fields.get(f.name()))));
            }
            b.setUdt(ub);
        }
        return b.build();
    }

    private static CollectionValue collection(CqlType element, List<?> values) {
        CollectionValue.Builder cb = CollectionValue.newBuilder();
        for (Object o : values) {
            cb.addElements(toWire(element, o));
        }
        return cb.build();
    }

    /** A wire value bound for a column of {@code type}; a value of the wrong kind names the column. */
    /** @param what names the value in an error; its text is built only then (a bind marker's, per value of every row) */
    public static Object fromWire(CqlType type, Value v, Object what) {
        if (v.getKindCase() == Value.KindCase.KIND_NOT_SET) {
            return null;
        }
        try {
            if (type instanceof CqlType.Native n) {
                return switch (n.kind()) {
                    case ASCII, TEXT, VARCHAR -> expect(v, Value.KindCase.TEXT, type, what).getText();
                    case TINYINT -> narrow(expect(v, Value.KindCase.INTEGER, type, what).getInteger(), Byte.MIN_VALUE, Byte.MAX_VALUE, type, what).byteValue();
                    case SMALLINT -> narrow(expect(v, Value.KindCase.INTEGER, type, what).getInteger(), Short.MIN_VALUE, Short.MAX_VALUE, type, what).shortValue();
                    case INT -> narrow(expect(v, Value.KindCase.INTEGER, type, what).getInteger(), Integer.MIN_VALUE, Integer.MAX_VALUE, type, what).intValue();
                    case BIGINT, COUNTER -> expect(v, Value.KindCase.INTEGER, type, what).getInteger();
                    case VARINT -> v.getKindCase() == Value.KindCase.INTEGER ? BigInteger.valueOf(v.getInteger())
                            : new BigInteger(expect(v, Value.KindCase.DECIMAL, type, what).getDecimal());
                    case DECIMAL -> v.getKindCase() == Value.KindCase.INTEGER ? BigDecimal.valueOf(v.getInteger())
                            : new BigDecimal(expect(v, Value.KindCase.DECIMAL, type, what).getDecimal());
                    case FLOAT -> v.getKindCase() == Value.KindCase.FLOAT64 ? toFloat(v.getFloat64(), type, what)
                            : expect(v, Value.KindCase.FLOAT32, type, what).getFloat32();
                    case DOUBLE -> v.getKindCase() == Value.KindCase.FLOAT32 ? (double) v.getFloat32()
                            : expect(v, Value.KindCase.FLOAT64, type, what).getFloat64();
                    case BOOLEAN -> expect(v, Value.KindCase.BOOLEAN, type, what).getBoolean();
                    case TIMESTAMP -> Instant.ofEpochMilli(expect(v, Value.KindCase.TIMESTAMP_MILLIS, type, what).getTimestampMillis());
                    case DATE -> LocalDate.ofEpochDay(expect(v, Value.KindCase.DATE_DAYS, type, what).getDateDays());
                    case TIME -> LocalTime.ofNanoOfDay(expect(v, Value.KindCase.TIME_NANOS, type, what).getTimeNanos());
                    case DURATION -> {
                        DurationValue d = expect(v, Value.KindCase.DURATION, type, what).getDuration();
                        yield new CqlDuration(d.getMonths(), d.getDays(), d.getNanos());
                    }
                    case BLOB -> Blob.of(expect(v, Value.KindCase.BLOB, type, what).getBlob().asReadOnlyByteBuffer());
                    case UUID -> uuid(expect(v, Value.KindCase.UUID, type, what).getUuid(), type, what);
                    case TIMEUUID -> {
                        UUID u = uuid(expect(v, Value.KindCase.UUID, type, what).getUuid(), type, what);
                        if (u.version() != 1) {
                            throw new InvalidRequestException("value " + u + " for " + what
                                    + " is not a timeuuid (version 1 UUID)");
                        }
                        yield u;
                    }
                    case INET -> inet(expect(v, Value.KindCase.INET, type, what).getInet(), what);
                };
            }
            if (type instanceof CqlType.ListType l) {
                List<Object> out = new ArrayList<>();
                for (Value e : expect(v, Value.KindCase.COLLECTION, type, what).getCollection().getElementsList()) {
                    out.add(fromWire(l.element(), e, what));
                }
                return out;
            }
            if (type instanceof CqlType.SetType s) {
                Set<Object> out = new LinkedHashSet<>();
                for (Value e : expect(v, Value.KindCase.COLLECTION, type, what).getCollection().getElementsList()) {
                    out.add(fromWire(s.element(), e, what));
                }
                return out;
            }
            if (type instanceof CqlType.MapType m) {
                Map<Object, Object> out = new LinkedHashMap<>();
                for (MapEntry e : expect(v, Value.KindCase.MAP, type, what).getMap().getEntriesList()) {
                    out.put(fromWire(m.key(), e.getKey(), what), fromWire(m.value(), e.getValue(), what));
                }
                return out;
            }
            CqlType.UserType u = (CqlType.UserType) type;
            Map<String, Object> out = new LinkedHashMap<>();
            Map<String, Value> given = new LinkedHashMap<>();
            for (NamedValue f : expect(v, Value.KindCase.UDT, type, what).getUdt().getFieldsList()) {
                given.put(f.getName(), f.getValue());
            }
            for (CqlType.Field f : u.fields()) {
                Value fv = given.remove(f.name());
                out.put(f.name(), fv == null ? null : fromWire(f.type(), fv, what + "." + f.name()));
            }
            if (!given.isEmpty()) {
                throw new InvalidRequestException("unknown field '" + given.keySet().iterator().next() + "' for " + what
                        + " of type " + type.cql());
            }
            return out;
        } catch (NumberFormatException e) {
            throw new InvalidRequestException("invalid number for " + what + " of type " + type.cql() + ": " + e.getMessage());
        } catch (IllegalArgumentException | java.time.DateTimeException e) {
            if (e instanceof InvalidRequestException) {
                throw e;
            }
            throw new InvalidRequestException("invalid value for " + what + " of type " + type.cql() + ": " + e.getMessage());
        }
    }

    private static Value expect(Value v, Value.KindCase kind, CqlType type, Object what) {
        if (v.getKindCase() != kind) {
            throw new InvalidRequestException("bound value for " + what + " is a " + v.getKindCase().name().toLowerCase()
                    + " value; a " + type.cql() + " column needs " + kind.name().toLowerCase());
        }
        return v;
    }

    private static Long narrow(long v, long min, long max, CqlType type, Object what) {
        if (v < min || v > max) {
            throw new InvalidRequestException("value " + v + " out of range for " + type.cql() + " " + what);
        }
        return v;
    }

    private static final java.util.regex.Pattern IPV4 =
            java.util.regex.Pattern.compile("((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
    /** Has a colon and starts like a literal, so getByName parses it (or refuses it) without a lookup. */
    private static final java.util.regex.Pattern IPV6 =
            java.util.regex.Pattern.compile("(?=[^%]*:)[0-9a-fA-F:][0-9a-fA-F:.]*(%\\d+)?");
    private static final java.util.regex.Pattern UUID_TEXT =
            java.util.regex.Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    /**
     * Only address literals: a dotted quad or an IPv6 address. Anything else would make
     * {@code InetAddress.getByName} look it up as a host name (a DNS query per bound value).
     */
    private static InetAddress inet(String s, Object what) {
        try {
            if (!IPV4.matcher(s).matches() && !IPV6.matcher(s).matches()) {
                throw new UnknownHostException(s);
            }
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new InvalidRequestException("invalid inet address '" + s + "' for " + what);
        }
    }

    /** The canonical 8-4-4-4-12 form only: UUID.fromString also takes shortened groups such as {@code 1-1-1-1-1}. */
    private static UUID uuid(String s, CqlType type, Object what) {
        if (!UUID_TEXT.matcher(s).matches()) {
            throw new InvalidRequestException("invalid " + type.cql() + " '" + s + "' for " + what);
        }
        return UUID.fromString(s);
    }

    private static float toFloat(double d, CqlType type, Object what) {
        float f = (float) d;
        if (Float.isInfinite(f) && !Double.isInfinite(d)) {
            throw new InvalidRequestException("value " + d + " out of range for " + type.cql() + " " + what);
        }
        return f;
    }

    /** Helper for building result rows. */
    public static List<Value> row(List<CqlType> types, List<Object> values) {
        List<Value> out = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            out.add(toWire(types.get(i), values.get(i)));
        }
        return out;
    }
}
