package dev.tributary.node.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlDuration;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.Values;
import dev.tributary.node.errors.ErrorCode;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(30)
class WireValuesTest {
    private static final String COLUMN = "bind marker 1 (price)";

    private static CqlType t(String cql) {
        return CqlType.parse(cql);
    }

    private static final CqlType.UserType ADDRESS = new CqlType.UserType("ks", "address",
            List.of(new CqlType.Field("street", t("text")), new CqlType.Field("zip", t("int")),
                    new CqlType.Field("tags", t("frozen<set<text>>"))), true);

    private static InetAddress inet(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    static Stream<Arguments> everyType() {
        Map<String, Object> address = new LinkedHashMap<>();
        address.put("street", "1 Main St");
        address.put("zip", null);
        address.put("tags", Set.of("a"));
        return Stream.of(
                Arguments.of(t("ascii"), "abc"), Arguments.of(t("text"), "héllo ✓"), Arguments.of(t("varchar"), ""),
                Arguments.of(t("tinyint"), Byte.MIN_VALUE), Arguments.of(t("tinyint"), Byte.MAX_VALUE),
                Arguments.of(t("smallint"), Short.MIN_VALUE), Arguments.of(t("int"), Integer.MAX_VALUE),
                Arguments.of(t("bigint"), Long.MIN_VALUE), Arguments.of(t("counter"), 42L),
                Arguments.of(t("varint"), new BigInteger("-98765432109876543210987654321")),
                Arguments.of(t("decimal"), new BigDecimal("12345.678900")), Arguments.of(t("decimal"), new BigDecimal("1E+7")),
                Arguments.of(t("float"), 3.25f), Arguments.of(t("float"), Float.NEGATIVE_INFINITY),
                Arguments.of(t("float"), Float.NaN), Arguments.of(t("double"), Math.PI),
                Arguments.of(t("double"), Double.MAX_VALUE), Arguments.of(t("boolean"), false),
                Arguments.of(t("timestamp"), Instant.parse("2020-03-25T12:44:43.006Z")),
                Arguments.of(t("timestamp"), Instant.ofEpochMilli(-1)),
                Arguments.of(t("date"), LocalDate.of(1969, 12, 31)), Arguments.of(t("date"), LocalDate.of(9999, 1, 1)),
                Arguments.of(t("time"), LocalTime.MAX), Arguments.of(t("time"), LocalTime.MIDNIGHT),
                Arguments.of(t("duration"), new CqlDuration(-1, -2, -3)),
                Arguments.of(t("blob"), Blob.of(new byte[] {0, (byte) 0xFF})), Arguments.of(t("blob"), Blob.of(new byte[0])),
                Arguments.of(t("uuid"), UUID.fromString("123e4567-e89b-42d3-a456-556642440000")),
                Arguments.of(t("timeuuid"), UUID.fromString("c232ab00-9414-11ec-b3c8-9f6bdeced846")),
                Arguments.of(t("inet"), inet("10.0.0.1")), Arguments.of(t("inet"), inet("2001:db8::ff00:42:8329")),
                Arguments.of(t("list<int>"), List.of(3, 1, 3)), Arguments.of(t("frozen<list<text>>"), List.of()),
                Arguments.of(t("set<bigint>"), Set.of(5L, -5L)),
                Arguments.of(t("map<text, frozen<list<double>>>"), Map.of("k", List.of(1.0), "a", List.of())),
                Arguments.of(t("list<frozen<map<int, frozen<set<uuid>>>>>"),
                        List.of(Map.of(1, Set.of(UUID.fromString("123e4567-e89b-42d3-a456-556642440000"))))),
                Arguments.of(ADDRESS, address), Arguments.of(new CqlType.ListType(ADDRESS, false), List.of(address)),
                Arguments.of(t("int"), null), Arguments.of(t("list<int>"), null), Arguments.of(ADDRESS, null));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyType")
    @DisplayName("toWire then fromWire gives the value back, for every CQL type; NULL is an unset value")
    void roundTrip(CqlType type, Object value) {
        Object normalized = Values.normalize(type, value);
        Value wire = WireValues.toWire(type, normalized);
        Object back = WireValues.fromWire(type, wire, COLUMN);
        assertEquals(normalized, back);
        if (value == null) {
            assertEquals(Value.KindCase.KIND_NOT_SET, wire.getKindCase());
            assertNull(back);
        } else {
            assertEquals(normalized, Values.normalize(type, back), "what fromWire gives passes the value model");
        }
    }

    @Test
    @DisplayName("the wire kinds follow values.proto")
    void wireKinds() {
        assertEquals(Value.KindCase.INTEGER, WireValues.toWire(t("tinyint"), (byte) 1).getKindCase());
        assertEquals("123.40", WireValues.toWire(t("decimal"), new BigDecimal("123.40")).getDecimal());
        assertEquals(-1, WireValues.toWire(t("date"), LocalDate.of(1969, 12, 31)).getDateDays());
        assertEquals("c232ab00-9414-11ec-b3c8-9f6bdeced846",
                WireValues.toWire(t("timeuuid"), UUID.fromString("C232AB00-9414-11EC-B3C8-9F6BDECED846")).getUuid());
        assertEquals("10.0.0.1", WireValues.toWire(t("inet"), inet("10.0.0.1")).getInet());
        NamedValue street = WireValues.toWire(ADDRESS, Values.normalize(ADDRESS, Map.of("street", "x"))).getUdt()
                .getFields(0);
        assertEquals("street", street.getName());
        assertEquals("text", street.getType());
        assertEquals(List.of(Value.newBuilder().setInteger(1).build(), Value.newBuilder().setInteger(2).build()),
                WireValues.row(List.of(t("int"), t("bigint")), List.of(1, 2L)));
    }

    @Test
    @DisplayName("wider wire kinds are accepted where no value is lost: integer for varint/decimal, float64/float32 across")
    void lenientKinds() {
        assertEquals(BigInteger.valueOf(7), WireValues.fromWire(t("varint"), Value.newBuilder().setInteger(7).build(), COLUMN));
        assertEquals(BigDecimal.valueOf(-7), WireValues.fromWire(t("decimal"), Value.newBuilder().setInteger(-7).build(), COLUMN));
        assertEquals(0.5f, WireValues.fromWire(t("float"), Value.newBuilder().setFloat64(0.5).build(), COLUMN));
        assertEquals(0.5d, WireValues.fromWire(t("double"), Value.newBuilder().setFloat32(0.5f).build(), COLUMN));
        assertEquals(Float.POSITIVE_INFINITY, WireValues.fromWire(t("float"),
                Value.newBuilder().setFloat64(Double.POSITIVE_INFINITY).build(), COLUMN));
    }

    private static Value text(String s) {
        return Value.newBuilder().setText(s).build();
    }

    private static Value integer(long v) {
        return Value.newBuilder().setInteger(v).build();
    }

    static Stream<Arguments> badValues() {
        Value uuidText = Value.newBuilder().setUuid("123e4567-e89b-42d3-a456-556642440000").build();
        return Stream.of(
                // wrong kind
                Arguments.of(t("text"), integer(1)), Arguments.of(t("int"), text("1")),
                Arguments.of(t("bigint"), Value.newBuilder().setFloat64(1).build()),
                Arguments.of(t("varint"), text("1")), Arguments.of(t("float"), integer(1)),
                Arguments.of(t("boolean"), integer(1)), Arguments.of(t("timestamp"), integer(1)),
                Arguments.of(t("date"), integer(1)), Arguments.of(t("time"), integer(1)),
                Arguments.of(t("duration"), integer(1)), Arguments.of(t("blob"), text("00")),
                Arguments.of(t("uuid"), text("123e4567-e89b-42d3-a456-556642440000")), Arguments.of(t("inet"), text("10.0.0.1")),
                Arguments.of(t("list<int>"), integer(1)), Arguments.of(t("map<int, int>"), integer(1)),
                Arguments.of(ADDRESS, uuidText),
                // out of range or malformed
                Arguments.of(t("tinyint"), integer(128)), Arguments.of(t("tinyint"), integer(-129)),
                Arguments.of(t("smallint"), integer(40_000)), Arguments.of(t("int"), integer(1L << 31)),
                Arguments.of(t("float"), Value.newBuilder().setFloat64(1e300).build()),
                Arguments.of(t("varint"), Value.newBuilder().setDecimal("1.5").build()),
                Arguments.of(t("decimal"), Value.newBuilder().setDecimal("twelve").build()),
                Arguments.of(t("time"), Value.newBuilder().setTimeNanos(-1).build()),
                Arguments.of(t("time"), Value.newBuilder().setTimeNanos(86_400_000_000_000L).build()),
                Arguments.of(t("duration"), Value.newBuilder().setDuration(DurationValue.newBuilder().setMonths(1)
                        .setDays(-1)).build()),
                Arguments.of(t("uuid"), Value.newBuilder().setUuid("not-a-uuid").build()),
                Arguments.of(t("uuid"), Value.newBuilder().setUuid("1-1-1-1-1").build()),
                Arguments.of(t("timeuuid"), uuidText),
                Arguments.of(t("inet"), Value.newBuilder().setInet("1.2.3").build()),
                Arguments.of(t("inet"), Value.newBuilder().setInet("1").build()),
                Arguments.of(t("inet"), Value.newBuilder().setInet("256.0.0.1").build()),
                Arguments.of(t("inet"), Value.newBuilder().setInet("cafe").build()),
                Arguments.of(t("inet"), Value.newBuilder().setInet("localhost").build()),
                Arguments.of(t("inet"), Value.newBuilder().setInet("1:2:3").build()),
                Arguments.of(t("inet"), Value.newBuilder().setInet("").build()),
                // inside collections and user types
                Arguments.of(t("list<int>"), Value.newBuilder().setCollection(CollectionValue.newBuilder()
                        .addElements(integer(1)).addElements(text("2"))).build()),
                Arguments.of(t("set<tinyint>"), Value.newBuilder().setCollection(CollectionValue.newBuilder()
                        .addElements(integer(1000))).build()),
                Arguments.of(t("map<text, int>"), Value.newBuilder().setMap(MapValue.newBuilder().addEntries(
                        MapEntry.newBuilder().setKey(integer(1)).setValue(integer(1)))).build()),
                Arguments.of(ADDRESS, Value.newBuilder().setUdt(UdtValue.newBuilder().addFields(NamedValue.newBuilder()
                        .setName("zip").setValue(text("12345")))).build()),
                Arguments.of(ADDRESS, Value.newBuilder().setUdt(UdtValue.newBuilder().addFields(NamedValue.newBuilder()
                        .setName("country").setValue(text("NL")))).build()));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("badValues")
    @DisplayName("a value of the wrong kind or out of range gives InvalidRequestException naming the column")
    void badValuesNameTheColumn(CqlType type, Value v) {
        InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> WireValues.fromWire(type, v, COLUMN));
        assertTrue(e.getMessage().contains("price"), e.getMessage());
        assertSame(ErrorCode.INVALID_REQUEST, e.code());
    }

    @Test
    void userTypeFieldErrorsNameTheField() {
        Value v = Value.newBuilder().setUdt(UdtValue.newBuilder().addFields(NamedValue.newBuilder().setName("zip")
                .setValue(text("12345")))).build();
        InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> WireValues.fromWire(ADDRESS, v, COLUMN));
        assertTrue(e.getMessage().contains(COLUMN + ".zip"), e.getMessage());
    }

    @Test
    void blobsAreCopied() {
        byte[] raw = {1, 2, 3};
        Value v = Value.newBuilder().setBlob(ByteString.copyFrom(raw)).build();
        Blob b = (Blob) WireValues.fromWire(t("blob"), v, COLUMN);
        raw[0] = 9;
        assertEquals(Blob.of(new byte[] {1, 2, 3}), b);
    }
}
