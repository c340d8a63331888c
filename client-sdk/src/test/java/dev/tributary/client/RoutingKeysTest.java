package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tributary.client.internal.Murmur3;
import dev.tributary.protocol.v1.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Key components as Cassandra's native protocol serializes them, from the wire values the SDK
 * itself binds. node-server's TokenAwareRoutingIT checks the same types against the tokens a node
 * computes ({@code SELECT token(pk)}).
 */
class RoutingKeysTest {
    private static String hex(String type, Object javaValue) {
        CqlTypeName t = CqlTypeName.parse(type);
        byte[] b = RoutingKeys.component(t, ValueCodec.encode(javaValue, t, "test"));
        return b == null ? null : HexFormat.of().formatHex(b);
    }

    @Test
    @DisplayName("native types serialize as Cassandra's native protocol does")
    void natives() throws Exception {
        assertEquals("68c3a9", hex("text", "hé"));
        assertEquals("68c3a9", hex("varchar", "hé"));
        assertEquals("6869", hex("ascii", "hi"));
        assertEquals("ff", hex("tinyint", (byte) -1));
        assertEquals("0102", hex("smallint", (short) 258));
        assertEquals("00000001", hex("int", 1));
        assertEquals("fffffffffffffffe", hex("bigint", -2L));
        assertEquals("00", hex("varint", BigInteger.ZERO));
        assertEquals("00ff", hex("varint", BigInteger.valueOf(255)));
        assertEquals("ff7f", hex("varint", BigInteger.valueOf(-129)));
        assertEquals("00000002" + "04d2", hex("decimal", new BigDecimal("12.34")));
        assertEquals("3f800000", hex("float", 1.0f));
        assertEquals("bff0000000000000", hex("double", -1.0));
        assertEquals("01", hex("boolean", true));
        assertEquals("00", hex("boolean", false));
        assertEquals("0000000000000001", hex("timestamp", Instant.ofEpochMilli(1)));
        assertEquals("80000000", hex("date", LocalDate.ofEpochDay(0)));
        assertEquals("7fffffff", hex("date", LocalDate.ofEpochDay(-1)));
        assertEquals("0000000000000001", hex("time", LocalTime.ofNanoOfDay(1)));
        assertEquals("cafe", hex("blob", ByteBuffer.wrap(new byte[] {(byte) 0xca, (byte) 0xfe})));
        assertEquals("550e8400e29b41d4a716446655440000", hex("uuid", UUID.fromString("550e8400-e29b-41d4-a716-446655440000")));
        assertEquals("7f000001", hex("inet", InetAddress.getByName("127.0.0.1")));
        assertEquals("00000000000000000000000000000001", hex("inet", InetAddress.getByName("::1")));
    }

    @Test
    @DisplayName("a timeuuid key must be a version 1 UUID, as the node requires")
    void timeuuid() {
        UUID v1 = UUID.fromString("e7d2f8a0-1dd2-11b2-8080-808080808080");
        assertEquals("e7d2f8a01dd211b28080808080808080", hex("timeuuid", v1));
        CqlTypeName t = CqlTypeName.parse("timeuuid");
        assertNull(RoutingKeys.component(t, Value.newBuilder().setUuid(UUID.randomUUID().toString()).build()));
    }

    @Test
    @DisplayName("what the client cannot serialize as the node would gives no key: NULL, collections, bad values")
    void unroutable() {
        assertNull(RoutingKeys.component(CqlTypeName.parse("int"), Value.getDefaultInstance()));
        assertNull(hex("frozen<list<int>>", List.of(1)));
        assertNull(hex("frozen<map<int, int>>", Map.of(1, 1)));
        assertNull(RoutingKeys.component(CqlTypeName.parse("int"), Value.newBuilder().setInteger(1L << 40).build()));
        assertNull(RoutingKeys.component(CqlTypeName.parse("ascii"), Value.newBuilder().setText("é").build()));
        assertNull(RoutingKeys.component(CqlTypeName.parse("inet"), Value.newBuilder().setInet("localhost").build()));
        assertNull(RoutingKeys.component(CqlTypeName.parse("uuid"), Value.newBuilder().setUuid("1-1-1-1-1").build()));
        assertNull(RoutingKeys.component(CqlTypeName.parse("int"), Value.newBuilder().setText("1").build()));
        assertNull(RoutingKeys.serialize(List.of(0, 1), List.of(CqlTypeName.parse("int"), CqlTypeName.parse("int")),
                List.of(Value.newBuilder().setInteger(1).build(), Value.getDefaultInstance())));
    }

    @Test
    @DisplayName("several components are framed as CompositeType: length, bytes, 0 each")
    void composite() {
        CqlTypeName i = CqlTypeName.parse("int");
        CqlTypeName t = CqlTypeName.parse("text");
        byte[] key = RoutingKeys.serialize(List.of(2, 0), List.of(t, i), List.of(ValueCodec.encode(10, i, "a"),
                ValueCodec.encode("ignored", t, "b"), ValueCodec.encode("20", t, "c")));
        assertArrayEquals(HexFormat.of().parseHex("0002323000" + "00040000000a00"), key);
        // the key CqlSharp's TokenTest took from Cassandra for PRIMARY KEY ((id1 int, id2 text)) = (10, '20'), reversed here
        byte[] forward = RoutingKeys.serialize(List.of(0, 1), List.of(i, t),
                List.of(ValueCodec.encode(10, i, "a"), ValueCodec.encode("20", t, "b")));
        assertEquals(-9026262514124674157L, Murmur3.token(forward));
    }

    @Test
    @DisplayName("the token of a key given as Java values, as Cassandra computes it; empty when a component cannot be serialized")
    void tokenOfJavaValues() {
        CqlTypeName i = CqlTypeName.parse("int");
        CqlTypeName t = CqlTypeName.parse("text");
        assertEquals(java.util.OptionalLong.of(-4069959284402364209L), RoutingKeys.token(List.of(i), List.of(1)));
        assertEquals(java.util.OptionalLong.of(-9026262514124674157L), RoutingKeys.token(List.of(i, t), List.of(10, "20")));
        assertEquals(java.util.OptionalLong.empty(), RoutingKeys.token(List.of(i), java.util.Collections.singletonList(null)));
        assertEquals(java.util.OptionalLong.empty(), RoutingKeys.token(List.of(i), List.of("not an int")));
        assertEquals(java.util.OptionalLong.empty(), RoutingKeys.token(List.of(CqlTypeName.parse("frozen<list<int>>")),
                List.of(List.of(1))));
    }
}
