package dev.tributary.node.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.Scns;
import dev.tributary.node.coord.ClusterCoordinator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SafeTimesTest {
    private static final long SKEW = 100;

    private static ClusterCoordinator.Member member(String id) {
        return new ClusterCoordinator.Member(id, id + ":9160", id, List.of(), true, dev.tributary.generations.NodeState.NORMAL, "");
    }

    @Test
    @DisplayName("a safe time comes with the membership view that bounds it, also when another caller with a newer view "
            + "raised the log's safe time in between")
    void safeTimeKeepsItsView() {
        AtomicLong wall = new AtomicLong(1_000);
        AtomicReference<List<ClusterCoordinator.Member>> live = new AtomicReference<>(List.of(member("a")));
        MembershipView membership = new MembershipView(live::get, wall::get);
        membership.refresh(); // the old view: read at 1000, only a
        AtomicReference<SafeTimes.SafeTime> newer = new AtomicReference<>();
        AtomicBoolean race = new AtomicBoolean(true);
        SafeTimes[] times = new SafeTimes[1];
        // The first caller has taken the old view when it reads the clock; right then node b
        // joins, the view is read again and another caller computes a safe time with it.
        times[0] = new SafeTimes(() -> {
            if (race.getAndSet(false)) {
                wall.set(5_000);
                live.set(List.of(member("a"), member("b")));
                membership.refresh();
                newer.set(times[0].of(1, 5_000L << Scns.LOGICAL_BITS));
            }
            return wall.get();
        }, SKEW, membership);

        SafeTimes.SafeTime late = times[0].of(1, 5_000L << Scns.LOGICAL_BITS);

        assertEquals((5_000 - SKEW) * 1000, newer.get().micros(), "the newer view's safe time");
        assertEquals(newer.get().micros(), late.micros(), "never decreases");
        assertTrue((late.members().readAtMillis() - SKEW) * 1000 >= late.micros(),
                "the view returned bounds the time returned: read at " + late.members().readAtMillis());
        assertEquals(List.of("a", "b"), late.members().live().stream().map(MembershipView.Member::hostId).toList(),
                "b, which can hold LCRs above the old view's bound, is among the members");

        SafeTimes.SafeTime again = times[0].of(1, 5_000L << Scns.LOGICAL_BITS);
        assertEquals(late, again, "a repeated call gets the same pair");
    }
}
