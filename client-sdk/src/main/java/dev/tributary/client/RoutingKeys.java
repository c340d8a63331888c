package dev.tributary.client;

import dev.tributary.protocol.v1.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The serialized partition key of bound wire values, the bytes a node hashes to the key's token:
 * each component as Cassandra's native protocol serializes it (what the node's value codec
 * writes for a value it read from the same wire {@link Value}), several components as
 * Cassandra's {@code CompositeType} (2-byte length, bytes, a 0 byte each).
 *
 * <p>A component the client cannot serialize exactly as the node would — a NULL, a type with no
 * compact form here (collections, user types, duration) or a value the node would refuse — gives
 * no key, and the statement is sent without
 * routing: a wrong guess would only cost a forward, but no guess costs nothing. Stateless and
 * thread-safe.
 */
public final class RoutingKeys {
    private static final long DATE_EPOCH = 1L << 31;
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;
    private static final int MAX_COMPONENT = 0xFFFF;
    // the node accepts address literals only (no DNS lookups), and so does this
    private static final Pattern IPV4 =
            Pattern.compile("((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
    private static final Pattern IPV6 = Pattern.compile("(?=[^%]*:)[0-9a-fA-F:][0-9a-fA-F:.]*(%\\d+)?");
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private RoutingKeys() {
    }

    /**
     * The serialized key of {@code values[indexes[i]]} read as {@code types[i]}, or null when a
     * component cannot be serialized.
     */
    public static byte[] serialize(List<Integer> indexes, List<CqlTypeName> types, List<Value> values) {
        if (indexes.isEmpty() || indexes.size() != types.size()) {
            return null;
        }
        byte[][] parts = new byte[indexes.size()][];
        for (int i = 0; i < parts.length; i++) {
            int at = indexes.get(i);
            if (at < 0 || at >= values.size()) {
                return null;
            }
            parts[i] = component(types.get(i), values.get(at));
            if (parts[i] == null) {
                return null;
            }
        }
        return composite(parts);
    }

    /**
     * The token of a partition key given as Java values of the key's columns, in key order —
     * what {@code token(pk, ...)} gives in CQL and the node computes — or empty when a component
     * cannot be serialized here (see the class comment).
     */
    public static java.util.OptionalLong token(List<CqlTypeName> types, List<Object> values) {
        if (types.isEmpty() || types.size() != values.size()) {
            return java.util.OptionalLong.empty();
        }
        byte[][] parts = new byte[types.size()][];
        for (int i = 0; i < parts.length; i++) {
            Value v;
            try {
                v = ValueCodec.encode(values.get(i), types.get(i), "partition key component " + i);
            } catch (RuntimeException notOfItsType) {
                return java.util.OptionalLong.empty();
            }
            parts[i] = component(types.get(i), v);
            if (parts[i] == null) {
                return java.util.OptionalLong.empty();
            }
        }
        byte[] key = composite(parts);
        return key == null ? java.util.OptionalLong.empty()
                : java.util.OptionalLong.of(dev.tributary.client.internal.Murmur3.token(key));
    }

    /** One component; CompositeType framing for several, the bytes alone for one. */
    public static byte[] composite(byte[][] parts) {
        if (parts.length == 1) {
            return parts[0];
        }
        int size = 0;
        for (byte[] p : parts) {
            if (p.length > MAX_COMPONENT) {
                return null;
            }
            size += p.length + 3;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        for (byte[] p : parts) {
            b.putShort((short) p.length).put(p).put((byte) 0);
        }
        return b.array();
    }

    /** The serialized value of one key component, or null when the client cannot tell it. */
    public static byte[] component(CqlTypeName type, Value v) {
        if (!(type instanceof CqlTypeName.Native n) || v.getKindCase() == Value.KindCase.KIND_NOT_SET) {
            return null;
        }
        try {
            switch (n.kind()) {
                case ASCII:
                    return v.hasText() && isAscii(v.getText()) ? v.getText().getBytes(StandardCharsets.US_ASCII) : null;
                case TEXT:
                case VARCHAR:
                    return v.hasText() ? v.getText().getBytes(StandardCharsets.UTF_8) : null;
                case TINYINT:
                    return integer(v, Byte.MIN_VALUE, Byte.MAX_VALUE) ? new byte[] {(byte) v.getInteger()} : null;
                case SMALLINT:
                    return integer(v, Short.MIN_VALUE, Short.MAX_VALUE)
                            ? ByteBuffer.allocate(2).putShort((short) v.getInteger()).array() : null;
                case INT:
                    return integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE)
                            ? ByteBuffer.allocate(4).putInt((int) v.getInteger()).array() : null;
                case BIGINT:
                case COUNTER:
                    return v.hasInteger() ? ByteBuffer.allocate(8).putLong(v.getInteger()).array() : null;
                case VARINT:
                    return varint(v);
                case DECIMAL:
                    return decimal(v);
                case FLOAT:
                    return float32(v);
                case DOUBLE:
                    if (v.hasFloat64() || v.hasFloat32()) {
                        double d = v.hasFloat64() ? v.getFloat64() : v.getFloat32();
                        return ByteBuffer.allocate(8).putLong(Double.doubleToRawLongBits(d)).array();
                    }
                    return null;
                case BOOLEAN:
                    return v.hasBoolean() ? new byte[] {(byte) (v.getBoolean() ? 1 : 0)} : null;
                case TIMESTAMP:
                    return v.hasTimestampMillis() ? ByteBuffer.allocate(8).putLong(v.getTimestampMillis()).array() : null;
                case DATE:
                    return v.hasDateDays() ? ByteBuffer.allocate(4).putInt((int) (v.getDateDays() + DATE_EPOCH)).array()
                            : null;
                case TIME:
                    return v.hasTimeNanos() && v.getTimeNanos() >= 0 && v.getTimeNanos() < NANOS_PER_DAY
                            ? ByteBuffer.allocate(8).putLong(v.getTimeNanos()).array() : null;
                case BLOB:
                    return v.hasBlob() ? v.getBlob().toByteArray() : null;
                case UUID:
                case TIMEUUID:
                    return uuid(v, n.kind() == CqlTypeName.Kind.TIMEUUID);
                case INET:
                    return inet(v);
                default:
                    return null; // duration cannot be a key
            }
        } catch (NumberFormatException | ArithmeticException e) {
            return null; // the node refuses it too; it can say why
        }
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static boolean integer(Value v, long min, long max) {
        return v.hasInteger() && v.getInteger() >= min && v.getInteger() <= max;
    }

    private static byte[] varint(Value v) {
        if (v.hasInteger()) {
            return BigInteger.valueOf(v.getInteger()).toByteArray();
        }
        return v.hasDecimal() ? new BigInteger(v.getDecimal()).toByteArray() : null;
    }

    private static byte[] decimal(Value v) {
        BigDecimal d;
        if (v.hasInteger()) {
            d = BigDecimal.valueOf(v.getInteger());
        } else if (v.hasDecimal()) {
            d = new BigDecimal(v.getDecimal());
        } else {
            return null;
        }
        byte[] unscaled = d.unscaledValue().toByteArray();
        return ByteBuffer.allocate(4 + unscaled.length).putInt(d.scale()).put(unscaled).array();
    }

    private static byte[] float32(Value v) {
        float f;
        if (v.hasFloat32()) {
            f = v.getFloat32();
        } else if (v.hasFloat64()) {
            f = (float) v.getFloat64();
            if (Float.isInfinite(f) && !Double.isInfinite(v.getFloat64())) {
                return null;
            }
        } else {
            return null;
        }
        return ByteBuffer.allocate(4).putInt(Float.floatToRawIntBits(f)).array();
    }

    private static byte[] uuid(Value v, boolean timeuuid) {
        if (!v.hasUuid() || !UUID_TEXT.matcher(v.getUuid()).matches()) {
            return null;
        }
        UUID u = UUID.fromString(v.getUuid());
        if (timeuuid && u.version() != 1) {
            return null;
        }
        return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
    }

    private static byte[] inet(Value v) {
        if (!v.hasInet() || !IPV4.matcher(v.getInet()).matches() && !IPV6.matcher(v.getInet()).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(v.getInet()).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
