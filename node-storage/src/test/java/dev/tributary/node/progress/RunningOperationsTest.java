package dev.tributary.node.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class RunningOperationsTest {
    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong nanos = new AtomicLong(5 * SECOND);
    private final RunningOperations ops = new RunningOperations(nanos::get, () -> Instant.parse("2026-12-06T03:00:00Z"),
            RunningOperations.DEFAULT_LOG_EVERY_NANOS);

    @Test
    void rateAndEtaFollowTheWorkDoneSoFar() {
        try (RunningOperations.Operation op = ops.start("instantiate_table", "shop.orders", "rows", 50_000)) {
            nanos.addAndGet(4 * SECOND);
            op.advance(12_000);
            Progress p = op.progress();
            assertEquals(3_000, p.ratePerSecond(), 1e-9);
            assertEquals(13, p.etaSeconds().getAsLong()); // 38,000 left at 3,000/s, rounded up
            assertEquals("12,000 of 50,000 rows (24%), 3,000 rows/s, ETA 13 s", p.describe("rows"));
        }
    }

    @Test
    void aListedOperationAgesWhileNothingAdvancesIt() {
        try (RunningOperations.Operation op = ops.start("decommission", "hand-over", "entries", 1_000)) {
            nanos.addAndGet(2 * SECOND);
            op.advance(500);
            nanos.addAndGet(3 * SECOND);
            List<RunningOperations.View> views = ops.list();
            assertEquals(1, views.size());
            RunningOperations.View v = views.get(0);
            assertEquals("decommission", v.kind());
            assertEquals(Instant.parse("2026-12-06T03:00:00Z"), v.started());
            assertEquals(5.0, v.progress().elapsedSeconds(), 1e-9);
            assertEquals(100, v.progress().ratePerSecond(), 1e-9); // stalled: the rate falls, the ETA grows
            assertEquals(5, v.progress().etaSeconds().getAsLong());
        }
        assertEquals(RunningOperations.State.FAILED, ops.list().get(0).state(), "closed without succeeding: it failed");
    }

    @Test
    void anUnknownTotalHasNoEtaUntilItIsKnown() {
        try (RunningOperations.Operation op = ops.start("instantiate_table", "ks.t", "rows", Progress.UNKNOWN)) {
            nanos.addAndGet(SECOND);
            op.advance(10);
            assertFalse(op.progress().etaSeconds().isPresent());
            assertFalse(op.progress().fraction().isPresent());
            assertEquals("10 rows, 10 rows/s", op.progress().describe("rows"));
            op.total(30);
            assertEquals(2, op.progress().etaSeconds().getAsLong());
        }
    }

    @Test
    void anEstimatedTotalTheWorkOutgrewEndsAtZeroNotBelow() {
        Progress p = Progress.start(100, 0).advance(150, SECOND);
        assertEquals(0, p.etaSeconds().getAsLong());
        assertEquals(1.0, p.fraction().getAsDouble(), 1e-9);
        assertEquals("150 of 100 rows (100%), 150 rows/s, ETA 0 s", p.describe("rows"));
    }

    @Test
    void operationsAreListedOldestFirstAndTheFinishedStayAWhile() {
        try (RunningOperations.Operation a = ops.start("a", "x", "rows", 1);
                RunningOperations.Operation b = ops.start("b", "y", "rows", 1)) {
            assertEquals(List.of("a", "b"), ops.list().stream().map(RunningOperations.View::kind).toList());
            a.advance(1);
            nanos.addAndGet(SECOND);
            a.succeeded();
            a.close();
            List<RunningOperations.View> views = ops.list();
            assertEquals(List.of(RunningOperations.State.DONE, RunningOperations.State.RUNNING),
                    views.stream().map(RunningOperations.View::state).toList());
            nanos.addAndGet(SECOND);
            assertEquals(1.0, ops.list().get(0).progress().elapsedSeconds(), 1e-9, "a finished operation's time stops at its end");
        }
        for (int i = 0; i < RunningOperations.KEPT_FINISHED + 3; i++) {
            ops.start("c", "z", "rows", 0).close();
        }
        assertEquals(RunningOperations.KEPT_FINISHED, ops.list().size(), "only the last finished ones are kept");
        assertTrue(ops.list().stream().allMatch(v -> v.kind().equals("c")));
    }
}
