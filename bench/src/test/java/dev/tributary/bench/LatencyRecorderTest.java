package dev.tributary.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LatencyRecorderTest {
    @Test
    void percentilesInMillisecondsWithinHdrPrecision() {
        LatencyRecorder r = new LatencyRecorder();
        for (int ms = 1; ms <= 1000; ms++) {
            r.recordMicros(ms * 1000L);
        }
        assertEquals(1000, r.count());
        assertEquals(500, r.percentileMillis(50), 0.5);
        assertEquals(990, r.percentileMillis(99), 1);
        assertEquals(999, r.percentileMillis(99.9), 1);
        assertEquals(1000, r.maxMillis(), 1);
        assertEquals(500.5, r.meanMillis(), 0.5);
    }

    @Test
    void anLcrsLatencyRunsFromTheCommitWallTimeOfItsScn() {
        LatencyRecorder r = new LatencyRecorder();
        long commitMillis = 1_800_000_000_000L;
        long scn = commitMillis << 16 | 7; // the logical counter is not time
        r.recordLcr(scn, (commitMillis + 250) * 1000 + 400);
        assertEquals(250.4, r.percentileMillis(50), 0.2);
    }

    @Test
    void clockSkewBelowZeroCountsAsZeroAndEmptyIsZero() {
        LatencyRecorder empty = new LatencyRecorder();
        assertEquals(0, empty.percentileMillis(99));
        LatencyRecorder r = new LatencyRecorder();
        r.recordLcr(5_000L << 16, 4_000_000L);
        assertEquals(0, r.maxMillis());
        assertEquals(1, r.count());
    }

    @Test
    void recordersMerge() {
        LatencyRecorder a = new LatencyRecorder();
        LatencyRecorder b = new LatencyRecorder();
        a.recordMicros(1_000);
        b.recordMicros(9_000);
        b.recordMicros(9_000);
        a.add(b);
        assertEquals(3, a.count());
        assertEquals(9, a.percentileMillis(99), 0.01);
        assertEquals(1, a.percentileMillis(10), 0.01);
    }
}
