package dev.tributary.node.changes;

import dev.tributary.capture.Scns;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Safe times: for one log on this node, a time in microseconds below which no further LCR can
 * appear in any of its streams here. The rule:
 *
 * <pre>
 *   safe = (min(wall clock, physical millis of the caught-up SCN, membership read time) - max write skew) * 1000
 * </pre>
 *
 * <ul>
 *   <li>The caught-up SCN (a capture's {@code caughtUpScn}) is one at or below which every
 *       committed redo entry has been captured; any entry not yet captured, committed or not,
 *       has a larger SCN and so a physical time at least as late.</li>
 *   <li>A write's timestamp is at most the max write skew behind its commit SCN's physical time
 *       (the commit checks it), and a DDL's or default timestamp is the SCN's own time, so the LCR
 *       of such an entry lies at or above the safe time.</li>
 *   <li>The membership read time covers nodes that join later: see {@link MembershipView}.</li>
 *   <li>The wall clock only matters if the caught-up SCN ran ahead of it.</li>
 * </ul>
 *
 * A log's safe time never decreases while the node runs (the max of what was computed). Thread-safe.
 */
public final class SafeTimes {
    /** A safe time and the membership view that bounds it. */
    public record SafeTime(long micros, MembershipView.View members) {
    }

    private final LongSupplier wallMillis;
    private final long maxSkewMillis;
    private final MembershipView membership;
    /** Per log the highest safe time handed out, with the view it was computed from. */
    private final ConcurrentHashMap<Long, AtomicReference<SafeTime>> highest = new ConcurrentHashMap<>();

    public SafeTimes(LongSupplier wallMillis, long maxSkewMillis, MembershipView membership) {
        this.wallMillis = wallMillis;
        this.maxSkewMillis = maxSkewMillis;
        this.membership = membership;
    }

    /**
     * The safe time of a log, given the caught-up SCN of the captures writing into it.
     * The membership view is taken first: a later refresh only raises the bound. When another
     * caller already got a higher time (from a newer view) that pair is returned whole: its time
     * paired with this caller's older view would let a consumer release LCRs past it before
     * adding a node only the newer view has.
     */
    public SafeTime of(long logId, long caughtUpScn) {
        MembershipView.View view = membership.current();
        long millis = Math.min(Math.min(wallMillis.getAsLong(), Scns.millis(caughtUpScn)), view.readAtMillis());
        SafeTime mine = new SafeTime((millis - maxSkewMillis) * 1000, view);
        AtomicReference<SafeTime> ref = highest.computeIfAbsent(logId, k -> new AtomicReference<>());
        while (true) {
            SafeTime top = ref.get();
            if (top != null && top.micros() >= mine.micros()) {
                return top;
            }
            if (ref.compareAndSet(top, mine)) {
                return mine;
            }
        }
    }

    public long maxSkewMillis() {
        return maxSkewMillis;
    }
}
