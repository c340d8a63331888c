package dev.tributary.generations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ClockOffsetTest {
    private static final Duration RING = Duration.ofSeconds(2);

    @Test
    void measuredFromTheMidpointOfTheRoundTrip() {
        ClockOffset ahead = ClockOffset.measure(10_000, 5_010, 10_020);
        assertEquals(5_000, ahead.offsetMillis());
        assertEquals(10, ahead.uncertaintyMillis());
        ClockOffset behind = ClockOffset.measure(1_000, 4_002, 1_004);
        assertEquals(-3_000, behind.offsetMillis());
        assertEquals(2, behind.uncertaintyMillis());
    }

    @Test
    void aClockSteppedBackDuringTheRoundTripWidensTheBound() {
        ClockOffset o = ClockOffset.measure(1_100, 1_000, 1_000);
        assertEquals(50, o.offsetMillis());
        assertEquals(50, o.uncertaintyMillis());
    }

    @Test
    @DisplayName("RELIABILITY C6: up to half the ring delay agrees; certainly beyond the whole ring delay is refused; "
            + "certainly beyond half, a warning; a round trip too long to tell decides nothing")
    void judgedAgainstTheRingDelay() {
        assertEquals(ClockOffset.Verdict.AGREES, new ClockOffset(900, 50).judge(RING));
        assertEquals(ClockOffset.Verdict.AGREES, new ClockOffset(-900, 50).judge(RING));
        assertEquals(ClockOffset.Verdict.AGREES, new ClockOffset(1_040, 50).judge(RING));
        assertEquals(ClockOffset.Verdict.DRIFTING, new ClockOffset(1_100, 50).judge(RING));
        assertEquals(ClockOffset.Verdict.DRIFTING, new ClockOffset(-1_500, 0).judge(RING));
        // beyond the ring delay only where even the near end of the uncertainty is
        assertEquals(ClockOffset.Verdict.DRIFTING, new ClockOffset(2_100, 200).judge(RING));
        assertEquals(ClockOffset.Verdict.BEYOND_RING_DELAY, new ClockOffset(2_100, 50).judge(RING));
        assertEquals(ClockOffset.Verdict.BEYOND_RING_DELAY, new ClockOffset(-5_000, 3).judge(RING));
        // a round trip of seconds (ZooKeeper without a quorum) tells nothing, unless the offset is larger still
        assertEquals(ClockOffset.Verdict.UNKNOWN, new ClockOffset(-12_444, 12_466).judge(RING));
        assertEquals(ClockOffset.Verdict.UNKNOWN, new ClockOffset(0, 1_500).judge(RING));
        assertEquals(ClockOffset.Verdict.BEYOND_RING_DELAY, new ClockOffset(5_000, 1_500).judge(RING));
    }

    @Test
    void describesTheSideAndTheBound() {
        assertEquals("5012 ms ahead of ZooKeeper's clock (± 3 ms)", new ClockOffset(5_012, 3).describe("ZooKeeper's"));
        assertEquals("40 ms behind ZooKeeper's clock (± 1 ms)", new ClockOffset(-40, 1).describe("ZooKeeper's"));
    }

    @Test
    void aNegativeUncertaintyIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ClockOffset(0, -1));
    }
}
