package dev.tributary.capture.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.generations.StreamId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(30)
class TimeUuidsTest {
    private static final long GREGORIAN_OFFSET = 0x01B21DD213814000L;

    @ParameterizedTest
    @ValueSource(longs = {0L, 1L, 999L, 1_645_557_742_123_456L, 4_102_444_800_000_000L, -1L, -12_219_292_800_000_000L})
    @DisplayName("a timeuuid is version 1, IETF variant, and gives back its microseconds")
    void microsRoundTrip(long micros) {
        UUID u = TimeUuids.of(micros, 0x1234_5678_9ABC_DEF0L);
        assertEquals(1, u.version());
        assertEquals(2, u.variant());
        assertEquals(micros, TimeUuids.micros(u));
        assertEquals(Math.floorDiv(micros, 1000), TimeUuids.millis(u));
        assertEquals(micros * 10 + GREGORIAN_OFFSET, u.timestamp(), "java.util.UUID reads the same 60-bit time");
    }

    @Test
    @DisplayName("the layout is RFC 4122's: RFC 9562's version-1 example is reproduced")
    void rfcExample() {
        long micros = Instant.parse("2022-02-22T19:22:22Z").toEpochMilli() * 1000;
        UUID u = TimeUuids.of(micros, 0xB3C8_9F6B_DECE_D846L);
        assertEquals(UUID.fromString("c232ab00-9414-11ec-b3c8-9f6bdeced846"), u);
    }

    @Test
    void lsbKeepsItsLowBitsAndGetsTheVariant() {
        UUID u = TimeUuids.of(5, -1L);
        assertEquals(0xBFFF_FFFF_FFFF_FFFFL, u.getLeastSignificantBits());
        UUID z = TimeUuids.of(5, 0);
        assertEquals(0x8000_0000_0000_0000L, z.getLeastSignificantBits());
        assertEquals(2, z.variant());
    }

    @Test
    void notATimeuuid() {
        UUID v4 = UUID.fromString("123e4567-e89b-42d3-a456-556642440000");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TimeUuids.micros(v4));
        assertTrue(e.getMessage().contains(v4.toString()));
    }

    @Test
    @DisplayName("sub-microsecond ticks of a foreign timeuuid round down")
    void ticks() {
        UUID at = TimeUuids.of(-3, 0);
        UUID plus7 = new UUID(timeMsb(at.timestamp() + 7), at.getLeastSignificantBits());
        assertEquals(-3 * 10 + 7, TimeUuids.ticks(plus7));
        assertEquals(-3, TimeUuids.micros(plus7), "-2.3 us rounds down to -3");
    }

    private static long timeMsb(long ts) {
        return (ts << 32) | ((ts >>> 16) & 0xFFFF0000L) | 0x1000L | ((ts >>> 48) & 0x0FFFL);
    }

    @Test
    @DisplayName("positions order by stream, then time, then the low half (unsigned), then batch sequence number")
    void positionOrder() {
        StreamId s1 = new StreamId(Long.MIN_VALUE, 5);
        StreamId s2 = new StreamId(-1, 0);
        StreamId s3 = new StreamId(0, 0);
        StreamId s4 = new StreamId(0, -1); // low half compares unsigned: after (0, 0)
        // times chosen so that the first 32 bits of the UUID (time_low) do not follow the time
        // the last microsecond before time_low wraps, and the next one
        long wrap = ((GREGORIAN_OFFSET >>> 32) + 1000) << 32;
        long early = Math.floorDiv(wrap - GREGORIAN_OFFSET - 1, 10);
        long late = early + 1;
        List<LogPosition> expected = new ArrayList<>();
        for (StreamId s : List.of(s1, s2, s3, s4)) {
            for (long micros : new long[] {-5, early, late}) {
                for (long lsb : new long[] {0, 1, 0x3FFF_FFFF_FFFF_FFFFL}) {
                    for (int seq : new int[] {0, 1, 17}) {
                        expected.add(new LogPosition(s, TimeUuids.of(micros, lsb), seq));
                    }
                }
            }
        }
        assertTrue(Long.compareUnsigned(TimeUuids.of(early, 0).getMostSignificantBits(),
                TimeUuids.of(late, 0).getMostSignificantBits()) > 0, "the fixture must defeat a naive msb order");
        List<LogPosition> shuffled = new ArrayList<>(expected);
        Collections.shuffle(shuffled, new Random(42));
        Collections.sort(shuffled);
        assertEquals(expected, shuffled);
    }

    @Test
    @DisplayName("compareTo is consistent with equals, down to the 100-ns tick")
    void compareConsistentWithEquals() {
        StreamId s = new StreamId(1, 1);
        UUID t = TimeUuids.of(1000, 9);
        UUID tPlusTick = new UUID(timeMsb(t.timestamp() + 1), t.getLeastSignificantBits());
        LogPosition a = new LogPosition(s, t, 0);
        LogPosition b = new LogPosition(s, tPlusTick, 0);
        assertNotEquals(a, b);
        assertTrue(a.compareTo(b) < 0);
        assertTrue(b.compareTo(a) > 0);
        assertEquals(0, a.compareTo(new LogPosition(s, TimeUuids.of(1000, 9), 0)));
    }
}
