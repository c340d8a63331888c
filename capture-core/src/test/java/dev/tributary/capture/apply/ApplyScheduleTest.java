package dev.tributary.capture.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The apply schedule in a seeded simulation: transactions over a few keys, some barriers, apply
 * servers that finish in a random order and some that fail beside others and run again alone.
 * No two running transactions share a key, a barrier runs alone, and the low watermark is always
 * the last position at or below which everything finished. The seed is printed; set
 * {@code -Dapply.seed=N} to replay one.
 */
class ApplyScheduleTest {
    @Test
    void dependentTransactionsNeverRunTogetherAndTheLowWatermarkIsExact() {
        long seed = Long.getLong("apply.seed", System.nanoTime());
        System.out.println("ApplyScheduleTest seed " + seed);
        Random r = new Random(seed);
        List<ApplyTransaction> txs = new ArrayList<>();
        Map<ApplyPosition, ApplySchedule.Keys> keys = new HashMap<>();
        for (int i = 1; i <= 400; i++) {
            ApplyTransaction tx = ApplyFixtures.transaction(i * 10L, 1);
            txs.add(tx);
            Set<String> k = new HashSet<>();
            for (int j = r.nextInt(3); j >= 0; j--) {
                k.add("k" + r.nextInt(12));
            }
            keys.put(tx.position(), r.nextInt(25) == 0 ? ApplySchedule.Keys.BARRIER : ApplySchedule.Keys.of(k));
        }
        ApplySchedule s = new ApplySchedule(ApplyPosition.START, Set.of());
        List<ApplyTransaction> running = new ArrayList<>();
        TreeSet<ApplyPosition> finished = new TreeSet<>();
        int next = 0;
        while (finished.size() < txs.size()) {
            while (next < txs.size() && s.unfinished() < 16) {
                ApplyTransaction tx = txs.get(next++);
                s.add(tx, keys.get(tx.position()));
            }
            running.addAll(s.startable(4 - running.size()));
            assertTrue(!running.isEmpty(), "something runs, seed " + seed);
            Set<String> inUse = new HashSet<>();
            for (ApplyTransaction tx : running) {
                ApplySchedule.Keys k = keys.get(tx.position());
                assertTrue(!k.barrier() || running.size() == 1, "a barrier runs alone, seed " + seed);
                for (String key : k.keys()) {
                    assertTrue(inUse.add(key), "two running transactions share " + key + ", seed " + seed);
                }
            }
            ApplyTransaction done = running.remove(r.nextInt(running.size()));
            boolean alone = s.firstUnfinished(done.position());
            if (!alone && r.nextInt(10) == 0) {
                s.retryAlone(done.position());
                keys.put(done.position(), ApplySchedule.Keys.BARRIER);
                continue;
            }
            s.finish(done.position());
            finished.add(done.position());
            ApplyPosition expected = ApplyPosition.START;
            for (ApplyTransaction tx : txs) {
                if (!finished.contains(tx.position())) {
                    break;
                }
                expected = tx.position();
            }
            assertEquals(expected, s.lowWatermark(), "seed " + seed);
        }
        assertEquals(txs.get(txs.size() - 1).position(), s.lowWatermark());
        assertEquals(0, s.running());
    }

    @Test
    void aRestartSkipsWhatTheDestinationHoldsAboveItsLowWatermark() {
        ApplyTransaction t1 = ApplyFixtures.transaction(10, 1);
        ApplyTransaction t2 = ApplyFixtures.transaction(20, 1);
        ApplyTransaction t3 = ApplyFixtures.transaction(30, 1);
        ApplySchedule s = new ApplySchedule(t1.position(), Set.of(t3.position()));
        assertTrue(s.finished(t1.position()));
        assertFalse(s.finished(t2.position()));
        assertTrue(s.finished(t3.position()));
        s.add(t2, ApplySchedule.Keys.of(Set.of("a")));
        assertEquals(List.of(t2), s.startable(4));
        s.skip(t3.position());
        assertEquals(t1.position(), s.lowWatermark(), "t2 runs still");
        s.finish(t2.position());
        assertEquals(t3.position(), s.lowWatermark());
    }

    @Test
    void aBarrierWaitsForAllBeforeItAndHoldsAllAfterIt() {
        ApplyTransaction t1 = ApplyFixtures.transaction(10, 1);
        ApplyTransaction ddl = ApplyFixtures.transaction(20, 1);
        ApplyTransaction t3 = ApplyFixtures.transaction(30, 1);
        ApplySchedule s = new ApplySchedule(ApplyPosition.START, Set.of());
        s.add(t1, ApplySchedule.Keys.of(Set.of("a")));
        s.add(ddl, ApplySchedule.Keys.BARRIER);
        s.add(t3, ApplySchedule.Keys.of(Set.of("b")));
        assertEquals(List.of(t1), s.startable(4));
        s.finish(t1.position());
        assertEquals(List.of(ddl), s.startable(4));
        assertEquals(List.of(), s.startable(4));
        s.finish(ddl.position());
        assertEquals(List.of(t3), s.startable(4));
    }
}
