package dev.tributary.node.nativeproto;

import com.datastax.oss.protocol.internal.ProtocolConstants;
import com.datastax.oss.protocol.internal.response.result.RawType;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.ValueCodec;
import dev.tributary.node.errors.InvalidRequestException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CQL value encoding of the native protocol (v4) for Tributary's CQL types: the type of a
 * column as the protocol's {@code [option]} ({@link RawType}), and a value of the value model as
 * its {@code [bytes]}. The serialization itself is dictionary-store's {@link ValueCodec}, which
 * already writes values exactly as the native protocol does (so partition keys hash as in
 * Cassandra); this class adds what only the wire has: NULL as an absent buffer, the protocol's
 * "unset" marker, and the type ids. Stateless and thread-safe.
 */
public final class NativeValues {
    private NativeValues() {
    }

    /** The protocol's description of a column type. */
    public static RawType rawType(CqlType type) {
        if (type instanceof CqlType.Native n) {
            return RawType.PRIMITIVES.get(switch (n.kind()) {
                case ASCII -> ProtocolConstants.DataType.ASCII;
                case TEXT, VARCHAR -> ProtocolConstants.DataType.VARCHAR;
                case TINYINT -> ProtocolConstants.DataType.TINYINT;
                case SMALLINT -> ProtocolConstants.DataType.SMALLINT;
                case INT -> ProtocolConstants.DataType.INT;
                case BIGINT -> ProtocolConstants.DataType.BIGINT;
                case COUNTER -> ProtocolConstants.DataType.COUNTER;
                case VARINT -> ProtocolConstants.DataType.VARINT;
                case DECIMAL -> ProtocolConstants.DataType.DECIMAL;
                case FLOAT -> ProtocolConstants.DataType.FLOAT;
                case DOUBLE -> ProtocolConstants.DataType.DOUBLE;
                case BOOLEAN -> ProtocolConstants.DataType.BOOLEAN;
                case TIMESTAMP -> ProtocolConstants.DataType.TIMESTAMP;
                case DATE -> ProtocolConstants.DataType.DATE;
                case TIME -> ProtocolConstants.DataType.TIME;
                case DURATION -> ProtocolConstants.DataType.DURATION;
                case BLOB -> ProtocolConstants.DataType.BLOB;
                case UUID -> ProtocolConstants.DataType.UUID;
                case TIMEUUID -> ProtocolConstants.DataType.TIMEUUID;
                case INET -> ProtocolConstants.DataType.INET;
            });
        }
        if (type instanceof CqlType.ListType l) {
            return new RawType.RawList(rawType(l.element()));
        }
        if (type instanceof CqlType.SetType s) {
            return new RawType.RawSet(rawType(s.element()));
        }
        if (type instanceof CqlType.MapType m) {
            return new RawType.RawMap(rawType(m.key()), rawType(m.value()));
        }
        CqlType.UserType u = (CqlType.UserType) type;
        Map<String, RawType> fields = new LinkedHashMap<>();
        for (CqlType.Field f : u.fields()) {
            fields.put(f.name(), rawType(f.type()));
        }
        return new RawType.RawUdt(u.keyspace(), u.name(), fields);
    }

    /** A value as the protocol's {@code [bytes]}: null for NULL. */
    public static ByteBuffer encode(CqlType type, Object value) {
        return value == null ? null : ByteBuffer.wrap(ValueCodec.encode(type, value));
    }

    /**
     * A bound value read from a request: null for NULL.
     *
     * @param what names the value in an error (the bind marker); its text is built only then
     * @throws InvalidRequestException for bytes that are no value of the type, or an unset value
     */
    public static Object decode(CqlType type, ByteBuffer bytes, Object what) {
        if (bytes == null) {
            return null;
        }
        if (bytes == ProtocolConstants.UNSET_VALUE) {
            // Cassandra leaves the column as it is; Tributary's statements have no such state, so
            // an unset marker would silently mean NULL
            throw new InvalidRequestException(what + " is unset; bind a value (or NULL) to every marker");
        }
        byte[] b = new byte[bytes.remaining()];
        bytes.duplicate().get(b);
        try {
            return ValueCodec.decode(type, b);
        } catch (RuntimeException e) {
            throw new InvalidRequestException("invalid value for " + what + " of type " + type.cql() + ": " + e.getMessage());
        }
    }
}
