package dev.tributary.node.nativeproto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import com.datastax.oss.protocol.internal.response.result.RawType;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlDuration;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.Values;
import dev.tributary.node.errors.InvalidRequestException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The native value encoding: every type of the value model round-trips, and the bytes are the
 * ones the Java driver's own codecs write and read (the driver is the reference for the wire).
 */
class NativeValuesTest {
    private static CqlType t(CqlType.Kind k) {
        return CqlType.of(k);
    }

    static Stream<Arguments> values() throws Exception {
        return Stream.of(
                Arguments.of(t(CqlType.Kind.ASCII), "plain", TypeCodecs.ASCII, "plain"),
                Arguments.of(t(CqlType.Kind.TEXT), "grüße ✓", TypeCodecs.TEXT, "grüße ✓"),
                Arguments.of(t(CqlType.Kind.VARCHAR), "v", TypeCodecs.TEXT, "v"),
                Arguments.of(t(CqlType.Kind.TINYINT), (byte) -7, TypeCodecs.TINYINT, (byte) -7),
                Arguments.of(t(CqlType.Kind.SMALLINT), (short) 1234, TypeCodecs.SMALLINT, (short) 1234),
                Arguments.of(t(CqlType.Kind.INT), Integer.MIN_VALUE, TypeCodecs.INT, Integer.MIN_VALUE),
                Arguments.of(t(CqlType.Kind.BIGINT), Long.MAX_VALUE, TypeCodecs.BIGINT, Long.MAX_VALUE),
                Arguments.of(t(CqlType.Kind.COUNTER), 42L, TypeCodecs.COUNTER, 42L),
                Arguments.of(t(CqlType.Kind.VARINT), new BigInteger("-123456789012345678901234567890"), TypeCodecs.VARINT,
                        new BigInteger("-123456789012345678901234567890")),
                Arguments.of(t(CqlType.Kind.DECIMAL), new BigDecimal("3.14159265358979323846"), TypeCodecs.DECIMAL,
                        new BigDecimal("3.14159265358979323846")),
                Arguments.of(t(CqlType.Kind.FLOAT), 1.5f, TypeCodecs.FLOAT, 1.5f),
                Arguments.of(t(CqlType.Kind.DOUBLE), -2.25d, TypeCodecs.DOUBLE, -2.25d),
                Arguments.of(t(CqlType.Kind.BOOLEAN), true, TypeCodecs.BOOLEAN, true),
                Arguments.of(t(CqlType.Kind.TIMESTAMP), Instant.parse("2026-12-03T19:10:00.123Z"), TypeCodecs.TIMESTAMP,
                        Instant.parse("2026-12-03T19:10:00.123Z")),
                Arguments.of(t(CqlType.Kind.DATE), LocalDate.of(1969, 7, 20), TypeCodecs.DATE, LocalDate.of(1969, 7, 20)),
                Arguments.of(t(CqlType.Kind.TIME), LocalTime.of(23, 59, 58, 123456789), TypeCodecs.TIME,
                        LocalTime.of(23, 59, 58, 123456789)),
                Arguments.of(t(CqlType.Kind.DURATION), new CqlDuration(14, 3, 5_000_000_007L), TypeCodecs.DURATION,
                        com.datastax.oss.driver.api.core.data.CqlDuration.newInstance(14, 3, 5_000_000_007L)),
                Arguments.of(t(CqlType.Kind.BLOB), Blob.of(new byte[] {0, 1, (byte) 0xff}), TypeCodecs.BLOB,
                        ByteBuffer.wrap(new byte[] {0, 1, (byte) 0xff})),
                Arguments.of(t(CqlType.Kind.UUID), UUID.fromString("123e4567-e89b-42d3-a456-556642440000"), TypeCodecs.UUID,
                        UUID.fromString("123e4567-e89b-42d3-a456-556642440000")),
                Arguments.of(t(CqlType.Kind.TIMEUUID), UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
                        TypeCodecs.TIMEUUID, UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8")),
                Arguments.of(t(CqlType.Kind.INET), InetAddress.getByName("::1"), TypeCodecs.INET, InetAddress.getByName("::1")),
                Arguments.of(new CqlType.ListType(t(CqlType.Kind.INT), false), List.of(3, 1, 2),
                        TypeCodecs.listOf(TypeCodecs.INT), List.of(3, 1, 2)),
                Arguments.of(new CqlType.SetType(t(CqlType.Kind.TEXT), true),
                        Values.normalize(new CqlType.SetType(t(CqlType.Kind.TEXT), true), new LinkedHashSet<>(List.of("b", "a"))),
                        TypeCodecs.setOf(TypeCodecs.TEXT), new LinkedHashSet<>(List.of("a", "b"))),
                Arguments.of(new CqlType.MapType(t(CqlType.Kind.TEXT), t(CqlType.Kind.BIGINT), false),
                        Values.normalize(new CqlType.MapType(t(CqlType.Kind.TEXT), t(CqlType.Kind.BIGINT), false),
                                new LinkedHashMap<>(Map.of("x", 1L))),
                        TypeCodecs.mapOf(TypeCodecs.TEXT, TypeCodecs.BIGINT), Map.of("x", 1L)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("values")
    @DisplayName("a value round-trips, and the driver's codec reads our bytes and writes the same bytes")
    <T> void roundTripAndDriverAgrees(CqlType type, Object value, TypeCodec<T> driver, T driverValue) {
        ByteBuffer bytes = NativeValues.encode(type, value);
        assertEquals(value, NativeValues.decode(type, bytes, "v"));
        assertEquals(driverValue, driver.decode(bytes.duplicate(), ProtocolVersion.V4));
        assertEquals(bytes, driver.encode(driverValue, ProtocolVersion.V4));
    }

    @Test
    @DisplayName("NULL is an absent buffer both ways; unset and malformed values are clear INVALID errors")
    void nullUnsetMalformed() {
        assertNull(NativeValues.encode(t(CqlType.Kind.INT), null));
        assertNull(NativeValues.decode(t(CqlType.Kind.INT), null, "v"));
        InvalidRequestException unset = assertThrows(InvalidRequestException.class,
                () -> NativeValues.decode(t(CqlType.Kind.INT), ProtocolConstants.UNSET_VALUE, "bind marker 1 (k)"));
        assertTrue(unset.getMessage().contains("bind marker 1 (k) is unset"), unset.getMessage());
        InvalidRequestException bad = assertThrows(InvalidRequestException.class,
                () -> NativeValues.decode(t(CqlType.Kind.INT), ByteBuffer.wrap(new byte[3]), "bind marker 2 (v)"));
        assertTrue(bad.getMessage().contains("bind marker 2 (v) of type int"), bad.getMessage());
    }

    @Test
    @DisplayName("column types are the protocol's type options, collections and user types nested")
    void rawTypes() {
        assertEquals(RawType.PRIMITIVES.get(ProtocolConstants.DataType.VARCHAR), NativeValues.rawType(t(CqlType.Kind.TEXT)));
        assertEquals(RawType.PRIMITIVES.get(ProtocolConstants.DataType.TIMEUUID), NativeValues.rawType(t(CqlType.Kind.TIMEUUID)));
        assertEquals(new RawType.RawMap(RawType.PRIMITIVES.get(ProtocolConstants.DataType.VARCHAR),
                new RawType.RawList(RawType.PRIMITIVES.get(ProtocolConstants.DataType.INT))),
                NativeValues.rawType(CqlType.parse("map<text, frozen<list<int>>>")));
        CqlType.UserType address = new CqlType.UserType("ks", "address",
                List.of(new CqlType.Field("street", t(CqlType.Kind.TEXT)), new CqlType.Field("zip", t(CqlType.Kind.INT))), true);
        RawType.RawUdt udt = (RawType.RawUdt) NativeValues.rawType(address);
        assertEquals("ks", udt.keyspace);
        assertEquals("address", udt.typeName);
        assertEquals(List.of("street", "zip"), List.copyOf(udt.fields.keySet()));
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("street", "Main");
        v.put("zip", 1234);
        assertEquals(v, NativeValues.decode(address, NativeValues.encode(address, v), "a"));
    }
}
