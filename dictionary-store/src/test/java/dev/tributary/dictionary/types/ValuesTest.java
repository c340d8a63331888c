package dev.tributary.dictionary.types;

import static dev.tributary.dictionary.types.TestTypes.*;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ValuesTest {

    private static InvalidValueException invalid(CqlType type, Object value) {
        return assertThrows(InvalidValueException.class, () -> Values.check(type, value, "col"));
    }

    @Test
    void checkAcceptsTheValueModel() {
        assertDoesNotThrow(() -> {
            Values.check(INT, 1, "c");
            Values.check(INT, null, "c");
            Values.check(TEXT, "x", "c");
            Values.check(COUNTER, 1L, "c");
            Values.check(VARINT, BigInteger.ONE, "c");
            Values.check(TIMESTAMP, Instant.now(), "c");
            Values.check(INET, InetAddress.getLoopbackAddress(), "c");
            Values.check(list(INT), List.of(1, 2), "c");
            Values.check(set(TEXT), new HashSet<>(List.of("a")), "c");
            Values.check(map(TEXT, list(INT)), Map.of("a", List.of()), "c");
            Values.check(ADDRESS, Map.of("zip", 1), "c");
        });
    }

    @Test
    void checkNamesTheColumnAndTheType() {
        InvalidValueException e = invalid(INT, 1L);
        assertEquals("col", e.column());
        assertEquals(INT, e.type());
        assertTrue(e.getMessage().startsWith("invalid value for column 'col' of type int: "), e.getMessage());
        assertTrue(e.getMessage().contains("java.lang.Integer") && e.getMessage().contains("java.lang.Long"),
                e.getMessage());
    }

    @Test
    void checkRefusesWhatTheModelForbids() {
        assertTrue(invalid(list(INT), Arrays.asList(1, null)).getMessage().contains("element 1 is null"));
        assertTrue(invalid(list(INT), List.of(1, "2")).getMessage().contains("element 1"));
        assertTrue(invalid(list(INT), Set.of(1)).getMessage().contains("java.util.List"));
        Set<Object> withNull = new HashSet<>();
        withNull.add(null);
        invalid(set(INT), withNull);
        Map<Object, Object> nullKey = new HashMap<>();
        nullKey.put(null, 1);
        assertTrue(invalid(map(INT, INT), nullKey).getMessage().contains("key cannot be null"));
        Map<Object, Object> nullValue = new HashMap<>();
        nullValue.put(1, null);
        invalid(map(INT, INT), nullValue);
        invalid(ASCII, "é");
        invalid(TEXT, "bad \uD800 surrogate");
        invalid(TIMEUUID, java.util.UUID.randomUUID());
        invalid(DATE, LocalDate.MAX);
        invalid(TIMESTAMP, Instant.MAX);
        assertTrue(invalid(ADDRESS, Map.of("city", "x")).getMessage().contains("'city' is not a field"));
        assertTrue(invalid(ADDRESS, Map.of("zip", "x")).getMessage().contains("field 'zip'"));
        assertTrue(invalid(map(TEXT, list(INT)), Map.of("k", List.of("x"))).getMessage()
                .contains("value for key k: element 0"));
        invalid(set(DURATION), Set.of(new CqlDuration(1, 1, 1)));
    }

    @Test
    void normalizedSetsAndMapsIterateInCqlOrderWithoutDuplicates() {
        Set<?> s = (Set<?>) Values.normalize(set(INT), new HashSet<>(List.of(30, -1, 2000, 4)));
        assertEquals(List.of(-1, 4, 30, 2000), new ArrayList<>(s));
        Set<?> decimals = (Set<?>) Values.normalize(set(DECIMAL),
                new LinkedHashSetOf(new BigDecimal("1.0"), new BigDecimal("1.00"), new BigDecimal("0.5")));
        assertEquals(List.of(new BigDecimal("0.5"), new BigDecimal("1.0")), new ArrayList<>(decimals));
        Map<Object, Object> m = new HashMap<>();
        m.put("b", 2);
        m.put("a", 1);
        m.put("😀", 4);
        m.put("\uFFFF", 3);
        Map<?, ?> n = (Map<?, ?>) Values.normalize(map(TEXT, INT), m);
        assertEquals(List.of("a", "b", "\uFFFF", "😀"), new ArrayList<>(n.keySet()));
        assertEquals(List.of(1, 2, 3, 4), new ArrayList<>(n.values()));
        assertEquals(m, n);
        assertEquals(n, m);
        assertEquals(m.hashCode(), n.hashCode());
        assertEquals(3, n.get("\uFFFF"));
        assertNull(n.get(42)); // another type is simply absent
        assertFalse(s.contains("x"));
        assertTrue(s.contains(30));
        assertEquals(Set.of(-1, 4, 30, 2000), s);
        assertEquals(s, Set.of(-1, 4, 30, 2000));
    }

    /** A set iterating in insertion order, to feed duplicates-by-comparator in a known order. */
    private static final class LinkedHashSetOf extends java.util.LinkedHashSet<Object> {
        private static final long serialVersionUID = 1L;

        LinkedHashSetOf(Object... elements) {
            super(Arrays.asList(elements));
        }
    }

    @Test
    void normalizedValuesAreImmutable() {
        List<Object> source = new ArrayList<>(List.of(1, 2));
        List<?> l = (List<?>) Values.normalize(list(INT), source);
        source.add(3);
        assertEquals(List.of(1, 2), l);
        assertThrows(UnsupportedOperationException.class, () -> l.remove(0));
        Set<?> s = (Set<?>) Values.normalize(set(INT), Set.of(1));
        assertThrows(UnsupportedOperationException.class, s::clear);
        assertThrows(UnsupportedOperationException.class, () -> s.iterator().remove());
        @SuppressWarnings("unchecked")
        Map<Object, Object> m = (Map<Object, Object>) Values.normalize(map(INT, INT), Map.of(1, 1));
        assertThrows(UnsupportedOperationException.class, () -> m.remove(1));
        assertThrows(UnsupportedOperationException.class, () -> m.entrySet().iterator().next().setValue(2));
        Map<?, ?> u = (Map<?, ?>) Values.normalize(ADDRESS, Map.of("zip", 1));
        assertThrows(UnsupportedOperationException.class, u::clear);
    }

    @Test
    void normalizeIsIdempotentAndKeepsNormalizedValues() {
        Object once = Values.normalize(frozen(set(frozen(list(TEXT)))), Set.of(List.of("b"), List.of("a", "z")));
        assertSame(once, Values.normalize(frozen(set(frozen(list(TEXT)))), once));
        Object list = Values.normalize(list(INT), List.of(1, 2));
        assertSame(list, Values.normalize(list(INT), list));
        Object decoded = ValueCodec.decode(list(INT), ValueCodec.encode(list(INT), list));
        assertSame(decoded, Values.normalize(list(INT), decoded));
        // a list normalized for another element type is checked again
        assertThrows(InvalidValueException.class, () -> Values.normalize(list(TEXT), list));
        assertEquals(List.of(List.of("a", "z"), List.of("b")), new ArrayList<>((Set<?>) once));
    }

    @Test
    void normalizeTruncatesTimestampsAndFillsUserTypeFields() {
        assertEquals(Instant.parse("2020-03-25T12:44:43.006Z"),
                Values.normalize(TIMESTAMP, Instant.parse("2020-03-25T12:44:43.006999Z")));
        assertEquals(Instant.parse("1969-12-31T23:59:59.999Z"),
                Values.normalize(TIMESTAMP, Instant.parse("1969-12-31T23:59:59.999500Z")));
        Map<?, ?> u = (Map<?, ?>) Values.normalize(ADDRESS, Map.of("zip", 1, "street", "s"));
        assertEquals(List.of("street", "zip", "tags"), new ArrayList<>(u.keySet()));
        assertTrue(u.containsKey("tags"));
        assertNull(u.get("tags"));
    }

    @Test
    void normalizeRefusesInvalidValues() {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> Values.normalize(INT, "1"));
        assertNull(e.column());
        assertTrue(e.getMessage().startsWith("invalid value of type int"), e.getMessage());
    }

    @Test
    void cqlLiterals() throws Exception {
        assertEquals("'it''s'", Values.toCqlLiteral(TEXT, "it's"));
        assertEquals("null", Values.toCqlLiteral(TEXT, null));
        assertEquals("-5", Values.toCqlLiteral(INT, -5));
        assertEquals("123456789012345678901234567890", Values.toCqlLiteral(VARINT, new BigInteger("123456789012345678901234567890")));
        assertEquals("1.50", Values.toCqlLiteral(DECIMAL, new BigDecimal("1.50")));
        assertEquals("1.5", Values.toCqlLiteral(DOUBLE, 1.5));
        assertEquals("NaN", Values.toCqlLiteral(FLOAT, Float.NaN));
        assertEquals("-Infinity", Values.toCqlLiteral(DOUBLE, Double.NEGATIVE_INFINITY));
        assertEquals("true", Values.toCqlLiteral(BOOLEAN, true));
        assertEquals("0x00ff", Values.toCqlLiteral(BLOB, Blob.fromHex("00ff")));
        assertEquals("'2020-03-25T12:44:43.006Z'", Values.toCqlLiteral(TIMESTAMP, Instant.parse("2020-03-25T12:44:43.006Z")));
        assertEquals("'2020-03-25T12:44:43.000Z'", Values.toCqlLiteral(TIMESTAMP, Instant.parse("2020-03-25T12:44:43Z")));
        assertEquals("'2020-03-25'", Values.toCqlLiteral(DATE, LocalDate.of(2020, 3, 25)));
        assertEquals("'12:44:43.006000000'", Values.toCqlLiteral(TIME, LocalTime.parse("12:44:43.006")));
        assertEquals("1y2mo3d4h5m6s7ms8us9ns", Values.toCqlLiteral(DURATION,
                new CqlDuration(14, 3, 4 * 3_600_000_000_000L + 5 * 60_000_000_000L + 6_000_000_000L + 7_000_000L + 8_000L + 9L)));
        assertEquals("-1d", Values.toCqlLiteral(DURATION, new CqlDuration(0, -1, 0)));
        assertEquals("0s", Values.toCqlLiteral(DURATION, new CqlDuration(0, 0, 0)));
        assertEquals("-2562047h47m16s854ms775us808ns", Values.toCqlLiteral(DURATION, new CqlDuration(0, 0, Long.MIN_VALUE)));
        java.util.UUID u = java.util.UUID.fromString("01234567-89ab-4def-8123-456789abcdef");
        assertEquals("01234567-89ab-4def-8123-456789abcdef", Values.toCqlLiteral(UUID, u));
        assertEquals("'127.0.0.1'", Values.toCqlLiteral(INET, InetAddress.getByName("127.0.0.1")));
        assertEquals("[3, 1, 3]", Values.toCqlLiteral(list(INT), List.of(3, 1, 3)));
        assertEquals("{'a', 'b'}", Values.toCqlLiteral(set(TEXT), new HashSet<>(List.of("b", "a"))));
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(2, "two");
        m.put(1, "one");
        assertEquals("{1: 'one', 2: 'two'}", Values.toCqlLiteral(map(INT, TEXT), m));
        assertEquals("{street: 'x', zip: null, tags: {'t'}}",
                Values.toCqlLiteral(ADDRESS, Map.of("street", "x", "tags", Set.of("t"))));
        CqlType.UserType quoted = new CqlType.UserType("ks", "q", List.of(new CqlType.Field("Weird\"Name", INT)), true);
        assertEquals("{\"Weird\"\"Name\": 1}", Values.toCqlLiteral(quoted, Map.of("Weird\"Name", 1)));
    }

    @Test
    void sizeInBytesIsTheEncodedSize() {
        Object v = Map.of("k", List.of(new BigDecimal("12345678901234567890.5")));
        CqlType t = map(TEXT, frozen(list(DECIMAL)));
        assertEquals(ValueCodec.encode(t, v).length, Values.sizeInBytes(t, v));
        assertEquals(4 + (4 + 3) + (4 + 0), Values.sizeInBytes(list(TEXT), List.of("abc", "")));
    }
}
