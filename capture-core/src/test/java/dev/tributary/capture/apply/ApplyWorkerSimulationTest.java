package dev.tributary.capture.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The apply worker against a destination that fails at random — before a commit, and after one
 * whose answer is lost — and refuses some transactions: in a seeded, single-threaded run, every
 * transaction ends up in the destination exactly once, applied or in the error queue, in commit
 * order. The seed is printed; set {@code -Dapply.seed=N} to replay one.
 */
class ApplyWorkerSimulationTest {
    /** A destination in memory: committed transactions, the error queue and the progress, all or nothing. */
    private static final class FlakyDestination implements ApplyDestination {
        final List<ApplyPosition> applied = new ArrayList<>();
        final List<ApplyPosition> errors = new ArrayList<>();
        ApplyPosition progress = ApplyPosition.START;
        final Random random;
        /** The chance of each fault, one in this many; 0 for none. */
        final int faultEvery;

        FlakyDestination(Random random, int faultEvery) {
            this.random = random;
            this.faultEvery = faultEvery;
        }

        private boolean fault(int every) {
            return faultEvery > 0 && random.nextInt(every) == 0;
        }

        ApplyDestination connect() {
            if (fault(10)) {
                throw new DestinationUnavailableException("refused", null);
            }
            return this;
        }

        @Override
        public ApplyPosition progress(String apply) {
            return progress;
        }

        private void commit(ApplyPosition previous, ApplyPosition to, List<ApplyPosition> into) {
            if (!progress.equals(previous)) {
                throw new DestinationUnavailableException("progress moved", null);
            }
            if (fault(faultEvery)) {
                throw new DestinationUnavailableException("lost before commit", null);
            }
            into.add(to);
            progress = to;
            if (fault(faultEvery)) {
                throw new DestinationUnavailableException("lost after commit", null);
            }
        }

        @Override
        public void apply(String apply, ApplyPosition previous, ApplyTransaction tx, ApplyPolicy policy) {
            if (tx.position().commitScn() % 17 == 0) {
                throw new ApplyErrorException(ApplyErrorException.ROW_MISSING, "no row");
            }
            commit(previous, tx.position(), applied);
        }

        @Override
        public void recordError(String apply, ApplyPosition previous, ApplyTransaction tx, ApplyErrorException error) {
            commit(previous, tx.position(), errors);
        }

        @Override
        public void close() {
        }
    }

    @Test
    void everyTransactionOnceThroughLostCommitsAndReconnects() {
        long seed = Long.getLong("apply.seed", System.nanoTime());
        System.out.println("ApplyWorkerSimulationTest seed " + seed);
        Random random = new Random(seed);
        TreeMap<ApplyPosition, ApplyTransaction> queue = new TreeMap<>();
        long scn = 0;
        for (int i = 0; i < 500; i++) {
            scn += 1 + random.nextInt(3);
            ApplyTransaction tx = ApplyFixtures.transaction(scn, 1 + random.nextInt(20));
            queue.put(tx.position(), tx);
        }
        FlakyDestination dest = new FlakyDestination(random, 8);
        ApplyWorker[] worker = new ApplyWorker[1];
        ApplySource source = new ApplySource() {
            @Override
            public List<ApplyTransaction> readAfter(ApplyPosition after, int limit) {
                return queue.tailMap(after, false).values().stream().limit(1 + random.nextInt(limit)).toList();
            }

            @Override
            public void awaitNewer(ApplyPosition after, long millis) {
                worker[0].stop(); // the queue is drained: the run ends
            }
        };
        ApplyPolicy all = new ApplyPolicy(new Instantiations(Map.of(), Map.of(Instantiations.schemaKey("SRC", "ks"), 0L)),
                Map.of());
        worker[0] = new ApplyWorker("sim", source, dest::connect, () -> all,
                new ApplyWorker.Options(false, 1, 10, millis -> { }));
        worker[0].run();

        assertNull(worker[0].failure(), "seed " + seed);
        List<ApplyPosition> everything = new ArrayList<>(dest.applied);
        everything.addAll(dest.errors);
        everything.sort(null);
        assertEquals(new ArrayList<>(queue.keySet()), everything, "each transaction exactly once, seed " + seed);
        assertEquals(dest.applied.stream().sorted().toList(), dest.applied, "applied in commit order, seed " + seed);
        assertEquals(queue.keySet().stream().filter(p -> p.commitScn() % 17 == 0).toList(), dest.errors,
                "the refused ones are in the error queue, seed " + seed);
    }

    @Test
    void disableOnErrorStopsAfterQueueingTheError() {
        TreeMap<ApplyPosition, ApplyTransaction> queue = new TreeMap<>();
        for (long scn : new long[] {16, 17, 18}) {
            ApplyTransaction tx = ApplyFixtures.transaction(scn, 1);
            queue.put(tx.position(), tx);
        }
        FlakyDestination dest = new FlakyDestination(new Random(1), 0);
        ApplySource source = new ApplySource() {
            @Override
            public List<ApplyTransaction> readAfter(ApplyPosition after, int limit) {
                return queue.tailMap(after, false).values().stream().limit(limit).toList();
            }

            @Override
            public void awaitNewer(ApplyPosition after, long millis) {
                throw new AssertionError("the apply should have stopped at the error");
            }
        };
        ApplyPolicy all = new ApplyPolicy(new Instantiations(Map.of(), Map.of(Instantiations.schemaKey("SRC", "ks"), 0L)),
                Map.of());
        ApplyWorker w = new ApplyWorker("stop", source, dest::connect, () -> all,
                new ApplyWorker.Options(true, 1, 10, millis -> { }));
        w.run();
        assertEquals(ApplyErrorException.ROW_MISSING, ((ApplyErrorException) w.failure()).errorNumber());
        assertEquals(List.of(new ApplyPosition(17, "tx17")), dest.errors);
        assertEquals(false, dest.applied.contains(new ApplyPosition(18, "tx18")), "nothing after the error");
    }
}
