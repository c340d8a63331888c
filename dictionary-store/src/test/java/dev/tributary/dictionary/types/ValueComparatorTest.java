package dev.tributary.dictionary.types;

import static dev.tributary.dictionary.types.TestTypes.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ValueComparatorTest {

    /** Sorting a shuffled copy with the type's order must give {@code ascending}. */
    private static void assertOrder(CqlType type, Object... ascending) {
        Comparator<Object> c = ValueComparator.of(type);
        for (int i = 0; i < ascending.length; i++) {
            for (int j = 0; j < ascending.length; j++) {
                int expected = Integer.compare(i, j);
                assertEquals(expected, Integer.signum(c.compare(ascending[i], ascending[j])),
                        type.cql() + ": " + ascending[i] + " vs " + ascending[j]);
            }
        }
    }

    @Test
    void numbersAreSigned() {
        assertOrder(TINYINT, (byte) -128, (byte) -1, (byte) 0, (byte) 127);
        assertOrder(SMALLINT, Short.MIN_VALUE, (short) -1, (short) 1);
        assertOrder(INT, Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE);
        assertOrder(BIGINT, Long.MIN_VALUE, -1L, 0L, Long.MAX_VALUE);
        assertOrder(VARINT, new BigInteger("-100000000000000000000"), BigInteger.valueOf(-1), BigInteger.ZERO,
                new BigInteger("100000000000000000000"));
        assertOrder(DECIMAL, new BigDecimal("-1.5"), new BigDecimal("0.001"), new BigDecimal("1"),
                new BigDecimal("1e10"));
        assertOrder(DOUBLE, Double.NEGATIVE_INFINITY, -1.0, -0.0, 0.0, 1.0, Double.POSITIVE_INFINITY, Double.NaN);
        assertOrder(FLOAT, -1f, 0f, 2.5f);
    }

    @Test
    void decimalsCompareByValueNotScale() {
        assertEquals(0, ValueComparator.of(DECIMAL).compare(new BigDecimal("1.0"), new BigDecimal("1.00")));
    }

    @Test
    void textOrdersByUtf8BytesNotUtf16Units() {
        // U+FFFF is EF BF BF, U+1F600 is F0 9F 98 80: by UTF-8 bytes U+FFFF comes first,
        // although String.compareTo puts the surrogate pair (D83D) first
        assertTrue("\uFFFF".compareTo("😀") > 0);
        assertOrder(TEXT, "", "A", "B", "a", "ab", "é", "\uFFFF", "😀");
        assertOrder(ASCII, "A", "Z", "a", "z");
    }

    @Test
    void textOrderEqualsUnsignedOrderOfTheEncodedBytes() {
        Random r = new Random(7);
        System.out.println("seed 7");
        char[] alphabet = {'a', 'b', 'é', '\u07FF', '\u0800', '\uE000', '\uFFFF'};
        Comparator<Object> c = ValueComparator.of(TEXT);
        for (int n = 0; n < 2000; n++) {
            String a = randomText(r, alphabet);
            String b = randomText(r, alphabet);
            int expected = Integer.signum(Arrays.compareUnsigned(ValueCodec.encode(TEXT, a), ValueCodec.encode(TEXT, b)));
            assertEquals(expected, Integer.signum(c.compare(a, b)), a + " vs " + b);
        }
    }

    private static String randomText(Random r, char[] alphabet) {
        StringBuilder sb = new StringBuilder();
        int len = r.nextInt(4);
        for (int i = 0; i < len; i++) {
            if (r.nextInt(5) == 0) {
                sb.appendCodePoint(0x10000 + r.nextInt(0x10FFFF - 0x10000));
            } else {
                sb.append(alphabet[r.nextInt(alphabet.length)]);
            }
        }
        return sb.toString();
    }

    @Test
    void blobsAndInetsAreUnsignedBytes() throws Exception {
        assertOrder(BLOB, Blob.fromHex(""), Blob.fromHex("00"), Blob.fromHex("0000"), Blob.fromHex("7f"),
                Blob.fromHex("80"), Blob.fromHex("ff"));
        // by address bytes, whatever the family: ::1 is 00..01, before 10.0.0.1 (0a000001)
        assertOrder(INET, InetAddress.getByName("::1"), InetAddress.getByName("10.0.0.1"),
                InetAddress.getByName("10.0.0.12"), InetAddress.getByName("192.168.0.1"),
                InetAddress.getByName("fe80::1"));
    }

    @Test
    void booleansAndTimesAreInTheirNaturalOrder() {
        assertOrder(BOOLEAN, false, true);
        assertOrder(TIMESTAMP, Instant.parse("1969-12-31T23:59:59.999Z"), Instant.EPOCH, Instant.parse("2020-03-25T12:44:43.006Z"));
        assertOrder(DATE, LocalDate.of(-1, 1, 1), LocalDate.of(1969, 12, 31), LocalDate.of(1970, 1, 1));
        assertOrder(TIME, LocalTime.MIDNIGHT, LocalTime.NOON, LocalTime.MAX);
        // a timestamp is stored on the millisecond
        assertEquals(0, ValueComparator.of(TIMESTAMP).compare(Instant.ofEpochSecond(0, 100), Instant.EPOCH));
    }

    @Test
    void uuidOrdersByVersionThenTimeForVersionOneThenUnsignedBytes() {
        java.util.UUID v1Early = timeUuid(1, 0);
        java.util.UUID v1Late = timeUuid(0x0FFF_0000_0000_0000L, 0); // greater timestamp, time_hi only
        java.util.UUID v1LateRawSmaller = timeUuid(0x0000_0001_0000_0000L, 0);
        // raw msb order disagrees with time order here: time_low of v1Late is 0
        assertTrue(Long.compareUnsigned(v1Late.getMostSignificantBits(), v1Early.getMostSignificantBits()) < 0);
        java.util.UUID v4Small = java.util.UUID.fromString("00000000-0000-4000-8000-000000000000");
        java.util.UUID v4Big = java.util.UUID.fromString("ffffffff-0000-4000-8000-000000000000");
        java.util.UUID v4BigLsbHigh = java.util.UUID.fromString("ffffffff-0000-4000-ff00-000000000000");
        assertOrder(UUID, v1Early, v1LateRawSmaller, v1Late, v4Small, v4Big, v4BigLsbHigh);
    }

    @Test
    void timeuuidOrdersByTimeThenSignedLowBytesLikeTimeUuidType() {
        java.util.UUID early = timeUuid(100, 0x7F00_0000_0000_0000L);
        java.util.UUID lateNegative = timeUuid(200, 0x8000_0000_0000_0000L); // 0x80 is -128 as a signed byte
        java.util.UUID latePositive = timeUuid(200, 0x0000_0000_0000_0000L);
        java.util.UUID lateByteSeven = timeUuid(200, 0x0000_0000_0000_0080L); // byte 15 = 0x80 (signed -128)
        assertOrder(TIMEUUID, early, lateNegative, lateByteSeven, latePositive);
        // UUIDType orders the same low bits unsigned (the CASSANDRA-8730 discrepancy)
        assertTrue(ValueComparator.of(UUID).compare(lateNegative, latePositive) > 0);
    }

    @Test
    void frozenCollectionsAreLexicographic() {
        assertOrder(frozen(list(INT)), List.of(), List.of(1), List.of(1, 2), List.of(1, 2, 0), List.of(1, 3), List.of(2));
        assertOrder(frozen(set(TEXT)), Set.of(), Set.of("a"), Set.of("a", "b"), Set.of("b"));
        assertOrder(frozen(map(INT, TEXT)), Map.of(), Map.of(1, "a"), Map.of(1, "b"), Map.of(1, "b", 2, "a"),
                Map.of(2, "a"));
    }

    @Test
    void userTypesCompareFieldByFieldWithNullFirst() {
        Map<String, Object> nullStreet = new HashMap<>();
        nullStreet.put("zip", 9);
        assertOrder(ADDRESS, nullStreet, Map.of("street", "a"), Map.of("street", "a", "zip", 1),
                Map.of("street", "a", "zip", 2), Map.of("street", "b"));
    }

    @Test
    void durationsHaveNoOrderButHaveEquality() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValueComparator.of(DURATION));
        assertTrue(e.getMessage().contains("duration") && e.getMessage().contains("clustering"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ValueComparator.of(frozen(list(DURATION))));
        assertFalse(ValueComparator.isOrderable(map(TEXT, DURATION)));
        assertTrue(ValueComparator.isOrderable(map(TEXT, INT)));

        assertTrue(ValueComparator.equal(DURATION, new CqlDuration(1, 2, 3), new CqlDuration(1, 2, 3)));
        assertFalse(ValueComparator.equal(DURATION, new CqlDuration(1, 2, 3), new CqlDuration(1, 2, 4)));
        assertTrue(ValueComparator.equal(list(DURATION), List.of(new CqlDuration(0, 1, 0)),
                new ArrayList<>(List.of(new CqlDuration(0, 1, 0)))));
        assertFalse(ValueComparator.equal(list(DURATION), List.of(new CqlDuration(0, 1, 0)), List.of()));
        assertTrue(ValueComparator.equal(map(TEXT, DURATION), Map.of("a", new CqlDuration(1, 0, 0), "b",
                new CqlDuration(2, 0, 0)), Map.of("b", new CqlDuration(2, 0, 0), "a", new CqlDuration(1, 0, 0))));
        assertFalse(ValueComparator.equal(map(TEXT, DURATION), Map.of("a", new CqlDuration(1, 0, 0)),
                Map.of("a", new CqlDuration(2, 0, 0))));
        CqlType.UserType withDuration = new CqlType.UserType("ks", "d",
                List.of(new CqlType.Field("d", DURATION)), true);
        assertTrue(ValueComparator.equal(withDuration, Map.of("d", new CqlDuration(0, 0, 5)),
                Map.of("d", new CqlDuration(0, 0, 5))));
        assertTrue(ValueComparator.equal(DURATION, null, null));
        assertFalse(ValueComparator.equal(INT, null, 1));
        assertTrue(ValueComparator.equal(DECIMAL, new BigDecimal("2.0"), new BigDecimal("2")));
    }
}
