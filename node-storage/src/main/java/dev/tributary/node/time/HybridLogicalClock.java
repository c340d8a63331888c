package dev.tributary.node.time;

import java.util.function.LongSupplier;

/**
 * The node's SCN source: a hybrid logical clock. An SCN is {@code physicalMillis << 16 | logical},
 * so SCNs are strictly monotonic on the node (even if the wall clock steps back), stay within a
 * few milliseconds of wall time, and {@link #millisOf(long)} places any SCN in time — which is
 * what picks the CDC generation of a change.
 *
 * <p>Thread-safe and lock-free.
 */
public final class HybridLogicalClock {
    public static final int LOGICAL_BITS = dev.tributary.capture.Scns.LOGICAL_BITS;
    private static final long LOGICAL_MASK = (1L << LOGICAL_BITS) - 1;

    private final LongSupplier wallMillis;
    private final java.util.concurrent.atomic.AtomicLong last = new java.util.concurrent.atomic.AtomicLong();

    public HybridLogicalClock(LongSupplier wallMillis) {
        this.wallMillis = wallMillis;
    }

    public static HybridLogicalClock system() {
        return new HybridLogicalClock(System::currentTimeMillis);
    }

    /** The next SCN: greater than every SCN this clock returned or observed before. */
    public long next() {
        long wall = wallMillis.getAsLong() << LOGICAL_BITS;
        while (true) {
            long prev = last.get();
            long next = wall > prev ? wall : prev + 1;
            if (last.compareAndSet(prev, next)) {
                return next;
            }
        }
    }

    /** Moves the clock past an SCN seen elsewhere (another node, or the redo log at restart). */
    public void observe(long scn) {
        last.accumulateAndGet(scn, Math::max);
    }

    /** The current SCN without advancing the clock (at least the last one handed out). */
    public long current() {
        return Math.max(last.get(), wallMillis.getAsLong() << LOGICAL_BITS);
    }

    public long wallMillis() {
        return wallMillis.getAsLong();
    }

    public static long millisOf(long scn) {
        return dev.tributary.capture.Scns.millis(scn);
    }

    public static int logicalOf(long scn) {
        return (int) (scn & LOGICAL_MASK);
    }

    /** The smallest SCN at a wall-clock millisecond. */
    public static long scnAt(long millis) {
        return millis << LOGICAL_BITS;
    }

    /**
     * The write time in microseconds that an SCN stands for: its millisecond plus the logical
     * counter (capped below 1000) so writes within one millisecond keep their order.
     */
    public static long microsOf(long scn) {
        return dev.tributary.capture.Scns.micros(scn);
    }
}
