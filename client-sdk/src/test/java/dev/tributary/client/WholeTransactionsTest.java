package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WholeTransactionsTest {
    @Test
    void commitMicrosIsTheNodesConversion() {
        long millis = 1_796_517_502_656L;
        assertEquals(millis * 1000, WholeTransactions.commitMicros(millis << 16));
        assertEquals(millis * 1000 + 7, WholeTransactions.commitMicros((millis << 16) | 7));
        assertEquals(millis * 1000 + 999, WholeTransactions.commitMicros((millis << 16) | 5000), "the counter caps at 999 µs");
    }

    @Test
    void unknownUntilBothAreKnown() {
        assertEquals(Long.MIN_VALUE, WholeTransactions.below(Long.MIN_VALUE, 200));
        assertEquals(Long.MIN_VALUE, WholeTransactions.below(5_000_000, -1));
        assertEquals(5_000_000 - 200_000 - 1000, WholeTransactions.below(5_000_000, 200));
    }

    /**
     * The rule against the node's: a write planned at wall clock w with a timestamp within the skew
     * of w, committed at an SCN whose milliseconds are at least w, is logged at max(timestamp,
     * commit time); whenever the transaction counts as whole, that log time is below the watermark.
     * Seeded; {@code -Dwhole.seed=} replays.
     */
    @Test
    void aWholeTransactionHasNoLcrAtOrAboveTheWatermark() {
        long seed = Long.getLong("whole.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        int whole = 0;
        for (int i = 0; i < 100_000; i++) {
            long skewMillis = random.nextInt(3) == 0 ? 0 : random.nextLong(1, 120_000);
            long wallMillis = 1_700_000_000_000L + random.nextLong(1_000_000);
            long tsMicros = wallMillis * 1000 + random.nextLong(-skewMillis * 1000, skewMillis * 1000 + 1000);
            long scn = ((wallMillis + random.nextLong(3)) << 16) | random.nextLong(1 << 16);
            long logMicros = Math.max(tsMicros, WholeTransactions.commitMicros(scn));
            long watermark = WholeTransactions.commitMicros(scn) + random.nextLong(-5_000, skewMillis * 1000 + 5_000);
            if (WholeTransactions.commitMicros(scn) < WholeTransactions.below(watermark, skewMillis)) {
                whole++;
                assertTrue(logMicros < watermark, "seed " + seed + ": logged at " + logMicros + ", watermark " + watermark);
            }
        }
        assertTrue(whole > 1000, "seed " + seed + ": the case was reached " + whole + " times");
    }
}
