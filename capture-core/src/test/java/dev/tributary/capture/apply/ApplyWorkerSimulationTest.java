package dev.tributary.capture.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The apply worker against a destination that fails at random — before a commit, and after one
 * whose answer is lost — and refuses some transactions: in a seeded, single-threaded run, every
 * transaction ends up in the destination exactly once, applied or in the error queue, and the
 * transactions of one row in commit order, with 1 to 4 apply servers. The seed is printed; set {@code -Dapply.seed=N} to replay one.
 */
class ApplyWorkerSimulationTest {
    /**
     * A destination in memory: committed transactions, the error queue, the low watermark and the
     * transactions recorded above it, all or nothing; an epoch fences out an earlier owner.
     */
    private static final class FlakyDestination implements ApplyDestination {
        final List<ApplyPosition> applied = new ArrayList<>();
        final List<ApplyPosition> errors = new ArrayList<>();
        ApplyPosition lowWatermark = ApplyPosition.START;
        final java.util.TreeSet<ApplyPosition> above = new java.util.TreeSet<>();
        long epoch;
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
        public ApplyProgress open(String apply) {
            return new ApplyProgress(lowWatermark, above, ++epoch);
        }

        private void commit(long epoch, ApplyPosition to, boolean lw, List<ApplyPosition> into) {
            if (epoch != this.epoch) {
                throw new DestinationUnavailableException("fenced", null);
            }
            if (fault(faultEvery)) {
                throw new DestinationUnavailableException("lost before commit", null);
            }
            if (to.compareTo(lowWatermark) <= 0 || above.contains(to)) {
                throw new AssertionError(to + " committed twice");
            }
            into.add(to);
            if (lw) {
                lowWatermark = to;
            } else {
                above.add(to);
            }
            if (fault(faultEvery)) {
                throw new DestinationUnavailableException("lost after commit", null);
            }
        }

        @Override
        public void apply(String apply, long epoch, ApplyTransaction tx, ApplyPolicy policy, boolean lw) {
            if (tx.position().commitScn() % 17 == 0) {
                throw new ApplyErrorException(ApplyErrorException.ROW_MISSING, "no row");
            }
            commit(epoch, tx.position(), lw, applied);
        }

        @Override
        public void recordError(String apply, long epoch, ApplyTransaction tx, ApplyErrorException error, boolean lw) {
            commit(epoch, tx.position(), lw, errors);
        }

        @Override
        public void advance(String apply, long epoch, ApplyPosition to) {
            if (epoch != this.epoch) {
                throw new DestinationUnavailableException("fenced", null);
            }
            if (to.compareTo(lowWatermark) > 0) {
                lowWatermark = to;
            }
            above.headSet(lowWatermark, true).clear();
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
        int parallelism = 1 + random.nextInt(4);
        // a direct executor: the apply servers run on the coordinator's thread, in a seeded order
        worker[0] = new ApplyWorker("sim", source, dest::connect, () -> all, tx -> ApplySchedule.Keys.of(Set.of("t" + tx.position().commitScn() % 5)),
                Runnable::run, new ApplyWorker.Options(false, 1, 10, millis -> { }, parallelism, false));
        worker[0].run();

        assertNull(worker[0].failure(), "seed " + seed);
        List<ApplyPosition> everything = new ArrayList<>(dest.applied);
        everything.addAll(dest.errors);
        everything.sort(null);
        assertEquals(new ArrayList<>(queue.keySet()), everything, "each transaction exactly once, seed " + seed);
        for (int k = 0; k < 5; k++) {
            long key = k;
            List<ApplyPosition> ofKey = dest.applied.stream().filter(p -> p.commitScn() % 5 == key).toList();
            assertEquals(ofKey.stream().sorted().toList(), ofKey, "a row's transactions applied in commit order, seed " + seed);
        }
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
        ApplyWorker w = new ApplyWorker("stop", source, dest::connect, () -> all, tx -> ApplySchedule.Keys.BARRIER, Runnable::run,
                new ApplyWorker.Options(true, 1, 10, millis -> { }, 1, false));
        w.run();
        assertEquals(ApplyErrorException.ROW_MISSING, ((ApplyErrorException) w.failure()).errorNumber());
        assertEquals(List.of(new ApplyPosition(17, "tx17")), dest.errors);
        assertEquals(false, dest.applied.contains(new ApplyPosition(18, "tx18")), "nothing after the error");
    }
}
