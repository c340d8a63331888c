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
                membership.changed(); // the members' watch fires
                membership.refresh();
                newer.set(times[0].of(1, 5_000L << Scns.LOGICAL_BITS));
            }
            return wall.get();
        }, SKEW, membership);

        SafeTimes.SafeTime late = times[0].of(1, 5_000L << Scns.LOGICAL_BITS);

        assertEquals(5_000 * 1000, newer.get().micros(), "the newer view's safe time");
        assertEquals(newer.get().micros(), late.micros(), "never decreases");
        assertTrue(late.members().readAtMillis() * 1000 >= late.micros(),
                "the view returned bounds the time returned: read at " + late.members().readAtMillis());
        assertEquals(List.of("a", "b"), late.members().live().stream().map(MembershipView.Member::hostId).toList(),
                "b, which can hold LCRs above the old view's bound, is among the members");

        SafeTimes.SafeTime again = times[0].of(1, 5_000L << Scns.LOGICAL_BITS);
        assertEquals(late, again, "a repeated call gets the same pair");
    }

    @Test
    @DisplayName("no write-skew window: a safe time is the caught-up SCN's time while the membership view follows its "
            + "watch; a membership change holds it at the view's read until the view is read again")
    void safeTimeFollowsTheCaughtUpScn() {
        AtomicLong wall = new AtomicLong(10_000);
        AtomicReference<List<ClusterCoordinator.Member>> live = new AtomicReference<>(List.of(member("a")));
        MembershipView membership = new MembershipView(live::get, wall::get);
        SafeTimes times = new SafeTimes(wall::get, SKEW, membership);
        assertEquals(10_000 * 1000, times.of(1, 20_000L << Scns.LOGICAL_BITS).micros(),
                "before the first read the view holds only to its creation");
        membership.refresh();
        wall.set(12_000);
        long caughtUp = (11_999L << Scns.LOGICAL_BITS) | 7;
        assertEquals(Scns.micros(caughtUp), times.of(1, caughtUp).micros(),
                "following its watch, the view holds now: the caught-up SCN's time, to the microsecond");

        membership.changed(); // a node joins: until the view is read again it holds only to its read (10 000)
        wall.set(13_000);
        assertEquals(Scns.micros(caughtUp), times.of(1, 12_500L << Scns.LOGICAL_BITS).micros(),
                "held at the highest time already handed out, not raised past the view");
        live.set(List.of(member("a"), member("b")));
        membership.refresh();
        assertEquals(12_500 * 1000, times.of(1, 12_500L << Scns.LOGICAL_BITS).micros(), "read again: follows again");
        assertEquals(List.of("a", "b"), membership.current().live().stream().map(MembershipView.Member::hostId).toList());
    }
}
