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
 *   safe = min(wall clock, time of the caught-up SCN, membership view time)
 * </pre>
 *
 * <ul>
 *   <li>The caught-up SCN (a capture's {@code caughtUpScn}) is one at or below which every
 *       durable redo entry has been captured; any entry not yet captured has a larger SCN and so a
 *       time at least as late.</li>
 *   <li>Every record a commit adds lies at or above its SCN's time: a write's timestamp in the
 *       past is logged at its commit ({@link dev.tributary.capture.CdcLogFormatter#logMicros}), so
 *       no window for client timestamps is subtracted and a change is released as soon as the
 *       capture has it.</li>
 *   <li>The membership view time covers nodes that join later: see {@link MembershipView}.</li>
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
        long micros = Math.min(Math.min(wallMillis.getAsLong(), view.readAtMillis()) * 1000, Scns.micros(caughtUpScn));
        SafeTime mine = new SafeTime(micros, view);
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

    /** How far a USING TIMESTAMP may be from the node's clock (--max-write-skew); it no longer delays a safe time. */
    public long maxSkewMillis() {
        return maxSkewMillis;
    }
}
