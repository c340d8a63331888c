package dev.tributary.kafka.internal;

import dev.tributary.client.CqlDuration;
import dev.tributary.client.CqlTypeName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.DataException;

/**
 * CQL types as Connect schemas and SDK values as Connect values, the way Debezium's Cassandra
 * connector maps them, so sinks written for Debezium read the same types: integers by width,
 * varint and decimal as strings (no precision is lost and no scale has to be fixed per column),
 * timestamp/date/time/duration as Debezium's time types, uuid/timeuuid as {@code io.debezium.data.Uuid}
 * strings, inet as its address string, blob as bytes, list and set as arrays, map as a map.
 * Stateless and thread-safe.
 */
public final class CqlSchemas {
    public static final String TIMESTAMP = "io.debezium.time.Timestamp";
    public static final String DATE = "io.debezium.time.Date";
    public static final String NANO_TIME = "io.debezium.time.NanoTime";
    public static final String NANO_DURATION = "io.debezium.time.NanoDuration";
    public static final String UUID_NAME = "io.debezium.data.Uuid";
    /** Debezium's NanoDuration counts a month as the average month, 365.25 / 12 days. */
    static final double DAYS_PER_MONTH_AVG = 365.25 / 12.0;
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private CqlSchemas() {
    }

    /** The Connect schema of a column of this type. */
    public static Schema schemaOf(CqlTypeName type, boolean optional) {
        SchemaBuilder b = builderOf(type);
        return (optional ? b.optional() : b).build();
    }

    private static SchemaBuilder builderOf(CqlTypeName type) {
        if (type instanceof CqlTypeName.Native n) {
            return switch (n.kind()) {
                case ASCII, TEXT, VARCHAR, VARINT, DECIMAL, INET -> SchemaBuilder.string();
                case TINYINT -> SchemaBuilder.int8();
                case SMALLINT -> SchemaBuilder.int16();
                case INT -> SchemaBuilder.int32();
                case BIGINT, COUNTER -> SchemaBuilder.int64();
                case FLOAT -> SchemaBuilder.float32();
                case DOUBLE -> SchemaBuilder.float64();
                case BOOLEAN -> SchemaBuilder.bool();
                case TIMESTAMP -> SchemaBuilder.int64().name(TIMESTAMP).version(1);
                case DATE -> SchemaBuilder.int32().name(DATE).version(1);
                case TIME -> SchemaBuilder.int64().name(NANO_TIME).version(1);
                case DURATION -> SchemaBuilder.int64().name(NANO_DURATION).version(1);
                case BLOB -> SchemaBuilder.bytes();
                case UUID, TIMEUUID -> SchemaBuilder.string().name(UUID_NAME).version(1);
            };
        }
        if (type instanceof CqlTypeName.ListOf l) {
            return SchemaBuilder.array(schemaOf(l.element(), true));
        }
        if (type instanceof CqlTypeName.SetOf s) {
            return SchemaBuilder.array(schemaOf(s.element(), true));
        }
        if (type instanceof CqlTypeName.MapOf m) {
            return SchemaBuilder.map(schemaOf(m.key(), false), schemaOf(m.value(), true));
        }
        // capture does not support user-defined types (docs/REFERENCE.md, "Statements"): no LCR carries one
        throw new DataException("column type " + type + " (a user-defined type) cannot be captured");
    }

    /** The Connect value of an SDK value (docs/ARCHITECTURE.md, "Value model") of this type; null stays null. */
    public static Object valueOf(CqlTypeName type, Object v, String column) {
        if (v == null) {
            return null;
        }
        try {
            return convert(type, v, column);
        } catch (ClassCastException e) {
            throw new DataException("column " + column + " of type " + type + ": a " + v.getClass().getSimpleName()
                    + " value cannot be converted", e);
        }
    }

    private static Object convert(CqlTypeName type, Object v, String column) {
        if (type instanceof CqlTypeName.Native n) {
            return switch (n.kind()) {
                case ASCII, TEXT, VARCHAR -> (String) v;
                case TINYINT -> ((Number) v).byteValue();
                case SMALLINT -> ((Number) v).shortValue();
                case INT -> ((Number) v).intValue();
                case BIGINT, COUNTER -> ((Number) v).longValue();
                case VARINT -> v instanceof BigInteger b ? b.toString() : BigInteger.valueOf(((Number) v).longValue()).toString();
                case DECIMAL -> v instanceof BigDecimal d ? d.toString() : new BigDecimal(v.toString()).toString();
                case FLOAT -> ((Number) v).floatValue();
                case DOUBLE -> ((Number) v).doubleValue();
                case BOOLEAN -> (Boolean) v;
                case TIMESTAMP -> ((Instant) v).toEpochMilli();
                case DATE -> Math.toIntExact(((LocalDate) v).toEpochDay());
                case TIME -> ((LocalTime) v).toNanoOfDay();
                case DURATION -> durationNanos((CqlDuration) v);
                case BLOB -> bytes((ByteBuffer) v);
                case UUID, TIMEUUID -> ((UUID) v).toString();
                case INET -> ((InetAddress) v).getHostAddress();
            };
        }
        if (type instanceof CqlTypeName.ListOf l) {
            return elements(l.element(), (Collection<?>) v, column);
        }
        if (type instanceof CqlTypeName.SetOf s) {
            return elements(s.element(), (Collection<?>) v, column);
        }
        if (type instanceof CqlTypeName.MapOf m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                out.put(convert(m.key(), e.getKey(), column), valueOf(m.value(), e.getValue(), column));
            }
            return out;
        }
        throw new DataException("column " + column + " of type " + type + " (a user-defined type) cannot be captured");
    }

    /** As Debezium's NanoDuration: months at the average month's length, then days and nanoseconds. */
    static long durationNanos(CqlDuration d) {
        double monthNanos = d.months() * DAYS_PER_MONTH_AVG * NANOS_PER_DAY;
        return (long) monthNanos + d.days() * NANOS_PER_DAY + d.nanos();
    }

    private static List<Object> elements(CqlTypeName element, Collection<?> values, String column) {
        List<Object> out = new ArrayList<>(values.size());
        for (Object o : values) {
            out.add(valueOf(element, o, column));
        }
        return out;
    }

    private static byte[] bytes(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        byte[] out = new byte[d.remaining()];
        d.get(out);
        return out;
    }
}
