package dev.tributary.dictionary.types;

import static dev.tributary.dictionary.types.TestTypes.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ValueCodecTest {
    private static final HexFormat HEX = HexFormat.of();

    private static byte[] hex(String s) {
        return HEX.parseHex(s.replace(" ", ""));
    }

    private static InetAddress inet(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static Map<String, Object> address(String street, Integer zip, Set<String> tags) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("street", street);
        m.put("zip", zip);
        m.put("tags", tags);
        return m;
    }

    /** Value, type, and the bytes Cassandra's protocol v4 gives for it. */
    static Stream<Arguments> vectors() {
        return Stream.of(
                Arguments.of(ASCII, "abc", "616263"),
                Arguments.of(TEXT, "é😀", "c3a9 f09f9880"),
                Arguments.of(VARCHAR, "", ""),
                Arguments.of(TINYINT, (byte) -1, "ff"),
                Arguments.of(SMALLINT, (short) 258, "0102"),
                Arguments.of(INT, 1, "00000001"),
                Arguments.of(INT, -2, "fffffffe"),
                Arguments.of(BIGINT, 0x0102030405060708L, "0102030405060708"),
                Arguments.of(COUNTER, -1L, "ffffffffffffffff"),
                Arguments.of(VARINT, BigInteger.ZERO, "00"),
                Arguments.of(VARINT, BigInteger.valueOf(127), "7f"),
                Arguments.of(VARINT, BigInteger.valueOf(128), "0080"),
                Arguments.of(VARINT, BigInteger.valueOf(-1), "ff"),
                Arguments.of(VARINT, BigInteger.valueOf(-128), "80"),
                Arguments.of(VARINT, BigInteger.valueOf(-129), "ff7f"),
                Arguments.of(VARINT, BigInteger.valueOf(Long.MIN_VALUE), "8000000000000000"),
                Arguments.of(VARINT, BigInteger.ONE.shiftLeft(63), "008000000000000000"),
                Arguments.of(VARINT, BigInteger.valueOf(Long.MIN_VALUE).subtract(BigInteger.ONE), "ff7fffffffffffffff"),
                Arguments.of(DECIMAL, new BigDecimal("1.5"), "00000001 0f"),
                Arguments.of(DECIMAL, new BigDecimal("-0.01"), "00000002 ff"),
                Arguments.of(DECIMAL, new BigDecimal("1E+3"), "fffffffd 01"),
                Arguments.of(FLOAT, 1.0f, "3f800000"),
                Arguments.of(DOUBLE, -2.0, "c000000000000000"),
                Arguments.of(BOOLEAN, true, "01"),
                Arguments.of(BOOLEAN, false, "00"),
                Arguments.of(TIMESTAMP, Instant.parse("2020-03-25T12:44:43.006Z"), "0000017111b9367e"),
                Arguments.of(TIMESTAMP, Instant.EPOCH.minusMillis(1), "ffffffffffffffff"),
                Arguments.of(DATE, LocalDate.of(1970, 1, 1), "80000000"),
                Arguments.of(DATE, LocalDate.of(1969, 12, 31), "7fffffff"),
                Arguments.of(DATE, LocalDate.of(2020, 3, 25), "800047aa"),
                Arguments.of(TIME, LocalTime.parse("12:44:43.006"), "000029baf8461b80"),
                Arguments.of(DURATION, new CqlDuration(1, 2, 3), "020406"),
                Arguments.of(DURATION, new CqlDuration(-1, -2, -3), "010305"),
                Arguments.of(DURATION, new CqlDuration(0, 0, 3_600_000_000_000L), "0000 fc068c61714000"),
                Arguments.of(DURATION, new CqlDuration(14, 0, 0), "1c0000"),
                Arguments.of(DURATION, new CqlDuration(0, 0, Long.MIN_VALUE), "0000 ffffffffffffffffff"),
                Arguments.of(BLOB, Blob.fromHex("0x00ff10"), "00ff10"),
                Arguments.of(UUID, java.util.UUID.fromString("01234567-89ab-4def-8123-456789abcdef"),
                        "0123456789ab4def8123456789abcdef"),
                Arguments.of(TIMEUUID, java.util.UUID.fromString("d2177dd0-eaa2-11de-a572-001b779c76e3"),
                        "d2177dd0eaa211dea572001b779c76e3"),
                Arguments.of(INET, inet("127.0.0.1"), "7f000001"),
                Arguments.of(INET, inet("::1"), "00000000000000000000000000000001"),
                Arguments.of(list(INT), List.of(1, 2), "00000002 00000004 00000001 00000004 00000002"),
                Arguments.of(set(TEXT), new TreeSet<>(List.of("b", "a")), "00000002 00000001 61 00000001 62"),
                Arguments.of(map(TEXT, INT), Map.of("a", 1), "00000001 00000001 61 00000004 00000001"),
                Arguments.of(list(INT), List.of(), "00000000"),
                Arguments.of(ADDRESS, address("x", null, Set.of("t")),
                        "00000001 78 ffffffff 00000009 00000001 00000001 74"),
                Arguments.of(frozen(list(frozen(set(INT)))), List.of(Set.of(7)),
                        "00000001 0000000c 00000001 00000004 00000007"));
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void encodesAsCassandraProtocolV4(CqlType type, Object value, String expectedHex) {
        byte[] expected = hex(expectedHex);
        assertArrayEquals(expected, ValueCodec.encode(type, value), type.cql() + " " + value);
        assertEquals(expected.length, ValueCodec.encodedSize(type, value));
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void decodesTheFixedVectors(CqlType type, Object value, String expectedHex) {
        Object decoded = ValueCodec.decode(type, hex(expectedHex));
        assertTrue(ValueComparator.equal(type, Values.normalize(type, value), decoded), type.cql() + " " + decoded);
        assertEquals(Values.normalize(type, value), decoded);
    }

    static Stream<Arguments> roundTrips() {
        Map<String, Object> nested = new HashMap<>();
        nested.put("k1", List.of(new BigDecimal("3.14159"), new BigDecimal("-1e-30")));
        return Stream.of(
                Arguments.of(ASCII, "Hello, world!"),
                Arguments.of(TEXT, "Ünïcödé ☃ 𝄞 \u0000 end"),
                Arguments.of(VARCHAR, "varchar"),
                Arguments.of(TINYINT, Byte.MIN_VALUE),
                Arguments.of(SMALLINT, Short.MIN_VALUE),
                Arguments.of(INT, Integer.MAX_VALUE),
                Arguments.of(BIGINT, Long.MIN_VALUE),
                Arguments.of(COUNTER, 42L),
                Arguments.of(VARINT, new BigInteger("-123456789012345678901234567890")),
                Arguments.of(DECIMAL, new BigDecimal("123456789012345678901234567890.000001")),
                Arguments.of(FLOAT, Float.NaN),
                Arguments.of(DOUBLE, Double.NEGATIVE_INFINITY),
                Arguments.of(BOOLEAN, true),
                Arguments.of(TIMESTAMP, Instant.parse("1601-01-01T00:00:00.999Z")),
                Arguments.of(DATE, LocalDate.of(-5877641, 6, 23)), // the smallest CQL date
                Arguments.of(DATE, LocalDate.of(5881580, 7, 11)), // the largest
                Arguments.of(TIME, LocalTime.MAX),
                Arguments.of(DURATION, new CqlDuration(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE)),
                Arguments.of(DURATION, new CqlDuration(0, 0, 0)),
                Arguments.of(BLOB, Blob.of(new byte[1000])),
                Arguments.of(UUID, java.util.UUID.randomUUID()),
                Arguments.of(TIMEUUID, timeUuid(0x0123456789ABCDEL, 0x8000_0000_0000_0001L)),
                Arguments.of(INET, inet("2001:db8::ff00:42:8329")),
                Arguments.of(list(TEXT), List.of("b", "a", "b")),
                Arguments.of(set(TIMESTAMP), Set.of(Instant.ofEpochMilli(5), Instant.ofEpochMilli(-5))),
                Arguments.of(map(INT, list(DURATION)), Map.of(2, List.of(new CqlDuration(1, 1, 1)), 1, List.of())),
                Arguments.of(map(TEXT, frozen(list(DECIMAL))), nested),
                Arguments.of(frozen(set(frozen(map(UUID, BLOB)))),
                        Set.of(Map.of(new java.util.UUID(1, 2), Blob.fromHex("01")), Map.of())),
                Arguments.of(ADDRESS, address("Main St", 12345, Set.of("home", "work"))),
                Arguments.of(ADDRESS, address(null, null, null)),
                Arguments.of(list(ADDRESS), List.of(address("a", 1, Set.of()), address("b", null, null))));
    }

    @ParameterizedTest
    @MethodSource("roundTrips")
    void roundTripsEveryType(CqlType type, Object value) {
        byte[] bytes = ValueCodec.encode(type, value);
        assertEquals(bytes.length, ValueCodec.encodedSize(type, value));
        Object decoded = ValueCodec.decode(type, bytes);
        assertEquals(Values.normalize(type, value), decoded, type.cql());
        assertArrayEquals(bytes, ValueCodec.encode(type, decoded), "re-encoding " + type.cql());
    }

    @Test
    void aSetIsWrittenInCqlOrderWhateverTheJavaSetOrder() {
        Set<Integer> hashOrder = new HashSet<>(List.of(300, -5, 7, 1_000_000, 0));
        byte[] bytes = ValueCodec.encode(set(INT), hashOrder);
        assertArrayEquals(ValueCodec.encode(set(INT), new TreeSet<>(hashOrder)), bytes);
        assertEquals(List.of(-5, 0, 7, 300, 1_000_000), new ArrayList<>((Set<?>) ValueCodec.decode(set(INT), bytes)));
    }

    @Test
    void decodingOutOfOrderSetBytesGivesASortedDistinctSet() {
        // 2 elements: "b" then "a" then "b"
        byte[] bytes = hex("00000003 00000001 62 00000001 61 00000001 62");
        Set<?> s = (Set<?>) ValueCodec.decode(set(TEXT), bytes);
        assertEquals(List.of("a", "b"), new ArrayList<>(s));
    }

    @Test
    void encodeToWritesAtAnOffset() {
        byte[] buf = new byte[10];
        int end = ValueCodec.encodeTo(INT, 0x01020304, buf, 3);
        assertEquals(7, end);
        assertArrayEquals(hex("000000 01020304 000000"), buf);
        assertEquals(0x01020304, ValueCodec.decode(INT, buf, 3, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> ValueCodec.encodeTo(BIGINT, 1L, buf, 5));
    }

    @Test
    void encodingNullOrTheWrongClassIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValueCodec.encode(INT, null));
        assertTrue(e.getMessage().contains("int"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ValueCodec.encode(INT, 1L));
        assertTrue(e.getMessage().contains("java.lang.Integer"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ValueCodec.encode(list(INT), Arrays.asList(1, null)));
        assertThrows(IllegalArgumentException.class, () -> ValueCodec.encode(ADDRESS, Map.of("nope", 1)));
        assertThrows(IllegalArgumentException.class, () -> ValueCodec.encode(DATE, LocalDate.MAX));
    }

    @Test
    void malformedBytesAreRefusedWithTheType() {
        MalformedValueException e = assertThrows(MalformedValueException.class,
                () -> ValueCodec.decode(INT, hex("000001")));
        assertTrue(e.getMessage().startsWith("malformed int value"), e.getMessage());
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(TEXT, hex("c3")));
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(TEXT, hex("eda080"))); // a surrogate
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(TEXT, hex("c0af"))); // overlong
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(ASCII, hex("80")));
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(VARINT, new byte[0]));
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(DECIMAL, hex("00000001")));
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(TIME, hex("ffffffffffffffff")));
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(INET, hex("0102030405")));
        assertThrows(MalformedValueException.class,
                () -> ValueCodec.decode(TIMEUUID, hex("0123456789ab4def8123456789abcdef")));
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(DURATION, hex("0204")));
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(DURATION, hex("020406 00")));
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(DURATION, hex("02 03 06"))); // mixed signs
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(list(INT), hex("00000001 ffffffff")));
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(list(INT), hex("7fffffff")));
        assertThrows(MalformedValueException.class,
                () -> ValueCodec.decode(list(INT), hex("00000001 00000004 00000001 00")));
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(list(INT), hex("00000001 00000009 01")));
        assertThrows(MalformedValueException.class, () -> ValueCodec.decode(ADDRESS, hex("fffffffe")));
    }

    @Test
    void userTypeBytesMayOmitTrailingFields() {
        Object decoded = ValueCodec.decode(ADDRESS, hex("00000001 78"));
        assertEquals(address("x", null, null), decoded);
        assertInstanceOf(Map.class, decoded);
    }

    @Test
    void decodedCollectionsAreImmutable() {
        List<?> l = (List<?>) ValueCodec.decode(list(INT), ValueCodec.encode(list(INT), List.of(1)));
        assertThrows(UnsupportedOperationException.class, () -> l.remove(0));
        Set<?> s = (Set<?>) ValueCodec.decode(set(INT), ValueCodec.encode(set(INT), Set.of(1)));
        assertThrows(UnsupportedOperationException.class, s::clear);
        Map<?, ?> m = (Map<?, ?>) ValueCodec.decode(map(INT, INT), ValueCodec.encode(map(INT, INT), Map.of(1, 2)));
        assertThrows(UnsupportedOperationException.class, m::clear);
        Blob b = (Blob) ValueCodec.decode(BLOB, hex("01"));
        assertEquals(Blob.fromHex("01"), b);
    }
}
