package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.client.errors.ValueConversionException;
import dev.tributary.protocol.v1.NamedValue;
import dev.tributary.protocol.v1.UdtValue;
import dev.tributary.protocol.v1.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ValueCodecTest {

    static Stream<Arguments> everyType() throws Exception {
        Map<String, List<Integer>> nested = new LinkedHashMap<>();
        nested.put("b", List.of(2, 3));
        nested.put("a", List.of(1));
        return Stream.of(
                Arguments.of("ascii", "plain"),
                Arguments.of("text", "héllo ✓"),
                Arguments.of("varchar", ""),
                Arguments.of("tinyint", (byte) -128),
                Arguments.of("smallint", (short) 32767),
                Arguments.of("int", Integer.MIN_VALUE),
                Arguments.of("bigint", Long.MAX_VALUE),
                Arguments.of("counter", 42L),
                Arguments.of("varint", new BigInteger("123456789012345678901234567890")),
                Arguments.of("decimal", new BigDecimal("-1.2345E+30")),
                Arguments.of("decimal", new BigDecimal("0.000100")),
                Arguments.of("float", 1.5f),
                Arguments.of("float", Float.NaN),
                Arguments.of("double", -0.1),
                Arguments.of("double", Double.POSITIVE_INFINITY),
                Arguments.of("boolean", true),
                Arguments.of("timestamp", Instant.parse("2020-03-25T12:44:43.006Z")),
                Arguments.of("timestamp", Instant.ofEpochMilli(-1)),
                Arguments.of("date", LocalDate.of(1969, 12, 31)),
                Arguments.of("time", LocalTime.of(23, 59, 59, 999_999_999)),
                Arguments.of("duration", new CqlDuration(1, 2, 3_000_000_000L)),
                Arguments.of("blob", ByteBuffer.wrap(new byte[] {0, 1, (byte) 0xff})),
                Arguments.of("uuid", UUID.fromString("123e4567-e89b-42d3-a456-556642440000")),
                Arguments.of("timeuuid", UUID.fromString("e7cd2a10-6e1a-11ea-bc55-0242ac130003")),
                Arguments.of("inet", InetAddress.getByName("192.168.0.1")),
                Arguments.of("inet", InetAddress.getByName("::1")),
                Arguments.of("list<int>", List.of(3, 1, 2)),
                Arguments.of("set<text>", new LinkedHashSet<>(List.of("z", "a"))),
                Arguments.of("map<int, text>", new LinkedHashMap<>(Map.of(1, "one"))),
                Arguments.of("frozen<map<text, list<int>>>", nested),
                Arguments.of("set<frozen<list<blob>>>", Set.of(List.of(ByteBuffer.wrap(new byte[] {7})))),
                Arguments.of("list<timestamp>", List.of(Instant.EPOCH)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyType")
    void typedRoundTrip(String type, Object value) {
        CqlTypeName t = CqlTypeName.parse(type);
        Value wire = ValueCodec.encode(value, t, "v");
        Object back = ValueCodec.decode(wire, t, "v");
        assertEquals(value, back);
        if (!(value instanceof java.util.Collection || value instanceof Map || value instanceof ByteBuffer
                || value instanceof InetAddress)) {
            assertEquals(value.getClass(), back.getClass());
        }
        // a second trip gives the same wire bytes: the conversion is stable
        assertEquals(wire, ValueCodec.encode(back, t, "v"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyType")
    void untypedEncodingDecodesWithTheColumnType(String type, Object value) {
        CqlTypeName t = CqlTypeName.parse(type);
        Object back = ValueCodec.decode(ValueCodec.encode(value, null, "v"), t, "v");
        assertEquals(value, back);
    }

    @Test
    void nullIsAnUnsetValue() {
        Value wire = ValueCodec.encode(null, CqlTypeName.parse("int"), "v");
        assertEquals(Value.KindCase.KIND_NOT_SET, wire.getKindCase());
        assertNull(ValueCodec.decode(wire, CqlTypeName.parse("int"), "v"));
        assertNull(ValueCodec.decode(wire, null, "v"));
    }

    @Test
    void valuesDecodeToTheModelsJavaClasses() {
        assertInstanceOf(Byte.class, ValueCodec.decode(Value.newBuilder().setInteger(1).build(), CqlTypeName.parse("tinyint"), "v"));
        assertInstanceOf(Short.class, ValueCodec.decode(Value.newBuilder().setInteger(1).build(), CqlTypeName.parse("smallint"), "v"));
        assertInstanceOf(Integer.class, ValueCodec.decode(Value.newBuilder().setInteger(1).build(), CqlTypeName.parse("int"), "v"));
        assertInstanceOf(Long.class, ValueCodec.decode(Value.newBuilder().setInteger(1).build(), CqlTypeName.parse("counter"), "v"));
        assertInstanceOf(Set.class, ValueCodec.decode(ValueCodec.encode(List.of(1), null, "v"), CqlTypeName.parse("set<int>"), "v"));
        ByteBuffer blob = (ByteBuffer) ValueCodec.decode(Value.newBuilder().setBlob(ByteString.copyFrom(new byte[] {1})).build(),
                CqlTypeName.parse("blob"), "v");
        assertTrue(blob.isReadOnly());
    }

    @Test
    void setsAndMapsKeepTheServersOrder() {
        Value set = ValueCodec.encode(List.of(3, 1, 2), null, "v");
        assertEquals(List.of(3, 1, 2), new ArrayList<>((Set<?>) ValueCodec.decode(set, CqlTypeName.parse("set<int>"), "v")));
        Map<Integer, String> m = new LinkedHashMap<>();
        m.put(9, "nine");
        m.put(1, "one");
        Map<?, ?> back = (Map<?, ?>) ValueCodec.decode(ValueCodec.encode(m, null, "v"), CqlTypeName.parse("map<int, text>"), "v");
        assertEquals(List.of(9, 1), new ArrayList<>(back.keySet()));
    }

    @Test
    void userTypesReadEachFieldWithItsOwnType() {
        Value udt = Value.newBuilder().setUdt(UdtValue.newBuilder()
                .addFields(NamedValue.newBuilder().setName("street").setType("text").setValue(Value.newBuilder().setText("Main")))
                .addFields(NamedValue.newBuilder().setName("zip").setType("int").setValue(Value.newBuilder().setInteger(12345)))
                .addFields(NamedValue.newBuilder().setName("since").setType("date")))
                .build();
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) ValueCodec.decode(udt, CqlTypeName.parse("frozen<address>"), "v");
        assertEquals(List.of("street", "zip", "since"), new ArrayList<>(fields.keySet()));
        assertEquals("Main", fields.get("street"));
        assertEquals(12345, fields.get("zip"));
        assertNull(fields.get("since"));

        Map<String, Object> in = new LinkedHashMap<>();
        in.put("street", "Main");
        in.put("zip", 12345);
        Value encoded = ValueCodec.encode(in, CqlTypeName.parse("address"), "v");
        assertEquals(Value.KindCase.UDT, encoded.getKindCase());
        assertEquals("zip", encoded.getUdt().getFields(1).getName());
        assertEquals(12345, encoded.getUdt().getFields(1).getValue().getInteger());
    }

    @Test
    void untypedDecodingGoesByWireKind() {
        assertEquals(5L, ValueCodec.decode(Value.newBuilder().setInteger(5).build(), null, "v"));
        assertEquals(new BigDecimal("1.5"), ValueCodec.decode(Value.newBuilder().setDecimal("1.5").build(), null, "v"));
        assertEquals(List.of("a"), ValueCodec.decode(ValueCodec.encode(List.of("a"), null, "v"), null, "v"));
    }

    @Test
    void outOfRangeIntegersAreRefusedBeforeSending() {
        ValueConversionException e = assertThrows(ValueConversionException.class,
                () -> ValueCodec.encode(300, CqlTypeName.parse("tinyint"), "bind marker 0 (t)"));
        assertTrue(e.getMessage().contains("bind marker 0 (t)"), e.getMessage());
        assertTrue(e.getMessage().contains("tinyint"), e.getMessage());
        assertThrows(ValueConversionException.class,
                () -> ValueCodec.encode(new BigInteger("9223372036854775808"), CqlTypeName.parse("bigint"), "v"));
        assertEquals(7, ValueCodec.encode(7L, CqlTypeName.parse("int"), "v").getInteger());
    }

    @Test
    void aFieldThatDoesNotDecodeIsNamedWithTheDescriptionBuiltOnlyThen() {
        NamedValue good = NamedValue.newBuilder().setName("k").setType("bigint")
                .setValue(Value.newBuilder().setInteger(1)).build();
        NamedValue bad = NamedValue.newBuilder().setName("d").setType("decimal")
                .setValue(Value.newBuilder().setDecimal("1.x")).build();
        int[] built = {0};
        java.util.function.Supplier<String> what = () -> {
            built[0]++;
            return "LCR of ks.t new value";
        };
        assertEquals(Map.of("k", 1L), ValueCodec.decodeFields(List.of(good), what));
        assertEquals(0, built[0], "no description is built while every field decodes");
        ValueConversionException e = assertThrows(ValueConversionException.class,
                () -> ValueCodec.decodeFields(List.of(good, bad), what));
        assertTrue(e.getMessage().contains("LCR of ks.t new value field d of type decimal"), e.getMessage());
    }

    @Test
    void wrongJavaClassesNameTheValueAndType() {
        ValueConversionException e = assertThrows(ValueConversionException.class,
                () -> ValueCodec.encode("x", CqlTypeName.parse("int"), "bind marker 1 (k)"));
        assertTrue(e.getMessage().contains("bind marker 1 (k) as int"), e.getMessage());
        assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
        assertThrows(ValueConversionException.class, () -> ValueCodec.encode(1.5, CqlTypeName.parse("int"), "v"));
        assertThrows(ValueConversionException.class, () -> ValueCodec.encode(0.1, CqlTypeName.parse("float"), "v"));
        assertThrows(ValueConversionException.class, () -> ValueCodec.encode(List.of(1), CqlTypeName.parse("map<int, int>"), "v"));
        assertThrows(ValueConversionException.class, () -> ValueCodec.encode(new Object(), null, "v"));
    }

    @Test
    void asciiAndTimeuuidAreChecked() {
        assertThrows(ValueConversionException.class, () -> ValueCodec.encode("é", CqlTypeName.parse("ascii"), "v"));
        ValueConversionException e = assertThrows(ValueConversionException.class,
                () -> ValueCodec.encode(UUID.randomUUID(), CqlTypeName.parse("timeuuid"), "v"));
        assertTrue(e.getMessage().contains("version 4"), e.getMessage());
    }

    @Test
    void nullsInsideCollectionsAreRefused() {
        List<Integer> withNull = new ArrayList<>();
        withNull.add(null);
        assertThrows(ValueConversionException.class, () -> ValueCodec.encode(withNull, CqlTypeName.parse("list<int>"), "v"));
        assertThrows(ValueConversionException.class, () -> ValueCodec.encode(withNull, null, "v"));
        Map<String, Integer> nullValue = new LinkedHashMap<>();
        nullValue.put("a", null);
        assertThrows(ValueConversionException.class, () -> ValueCodec.encode(nullValue, CqlTypeName.parse("map<text, int>"), "v"));
    }

    @Test
    void blobEncodingDoesNotMoveTheCallersBuffer() {
        ByteBuffer b = ByteBuffer.wrap(new byte[] {1, 2, 3});
        b.get();
        Value v = ValueCodec.encode(b, CqlTypeName.parse("blob"), "v");
        assertEquals(ByteString.copyFrom(new byte[] {2, 3}), v.getBlob());
        assertEquals(1, b.position());
        assertEquals(ByteString.copyFrom(new byte[] {9}), ValueCodec.encode(new byte[] {9}, null, "v").getBlob());
    }

    @Test
    void mismatchedWireKindsNameTheColumnAndType() {
        ValueConversionException e = assertThrows(ValueConversionException.class,
                () -> ValueCodec.decode(Value.newBuilder().setText("x").build(), CqlTypeName.parse("int"), "column 'k'"));
        assertEquals("column 'k' of type int: expected a wire integer value, got text", e.getMessage());
        assertThrows(ValueConversionException.class,
                () -> ValueCodec.decode(Value.newBuilder().setInteger(128).build(), CqlTypeName.parse("tinyint"), "v"));
        assertThrows(ValueConversionException.class,
                () -> ValueCodec.decode(Value.newBuilder().setUuid("not-a-uuid").build(), CqlTypeName.parse("uuid"), "v"));
        assertThrows(ValueConversionException.class,
                () -> ValueCodec.decode(Value.newBuilder().setInet("example.com").build(), CqlTypeName.parse("inet"), "v"));
        assertThrows(ValueConversionException.class,
                () -> ValueCodec.decode(Value.newBuilder().setTimeNanos(86_400_000_000_000L).build(), CqlTypeName.parse("time"), "v"));
        assertThrows(ValueConversionException.class,
                () -> ValueCodec.decode(ValueCodec.encode(List.of(1), null, "v"), CqlTypeName.parse("map<int, int>"), "v"));
    }
}
