package dev.tributary.node.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.Scns;
import dev.tributary.node.coord.ClusterCoordinator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SafeTimesTest {
    private static ClusterCoordinator.Member member(String id) {
        return new ClusterCoordinator.Member(id, "127.0.0.1:" + (9000 + id.length()), id, List.of(), true, "NORMAL");
    }

    /**
     * Two calls of one log race: the first reads the membership view, then (before it stores its
     * value) the view is refreshed with a node that just joined and the second call raises the
     * log's safe time with it. The first call must not return that higher time with its old view:
     * a consumer would take it as "no node but these holds LCRs below it" and skip the new node's.
     */
    @Test
    void aSafeTimeRaisedByANewerViewComesWithThatView() {
        AtomicReference<List<ClusterCoordinator.Member>> live = new AtomicReference<>(List.of(member("n1")));
        AtomicLong zkClock = new AtomicLong(10_000);
        MembershipView view = new MembershipView(live::get, zkClock::get);
        view.refresh(); // read at 10 000: n1 only
        AtomicBoolean race = new AtomicBoolean(true);
        AtomicReference<SafeTimes> times = new AtomicReference<>();
        AtomicReference<SafeTimes.SafeTime> second = new AtomicReference<>();
        long scn = 1_000_000L << Scns.LOGICAL_BITS; // caught up through 1 000 000 ms
        // the wall clock is read between taking the view and storing the value: the other call runs there
        SafeTimes t = new SafeTimes(() -> {
            if (race.getAndSet(false)) {
                live.set(List.of(member("n1"), member("n2")));
                zkClock.set(20_000);
                view.refresh(); // read at 20 000: n2 registered in between
                second.set(times.get().of(1, scn));
            }
            return 1_000_000;
        }, 300, view);
        times.set(t);
        SafeTimes.SafeTime first = t.of(1, scn);
        assertEquals((20_000 - 300) * 1000L, second.get().micros());
        assertEquals((20_000 - 300) * 1000L, first.micros(), "the log's safe time never goes back");
        assertTrue(first.members().live().stream().anyMatch(m -> m.hostId().equals("n2")),
                "a safe time past n2's registration lists n2: " + first.members());
        assertTrue(first.micros() <= (first.members().readAtMillis() - 300) * 1000,
                "the safe time is bounded by the read time of the view it comes with");
    }
}
