package dev.tributary.bench;

import java.util.Arrays;

/**
 * When the writers' acknowledgements happened: the running total of acknowledged rows and the
 * {@code System.nanoTime()} it was reached, one entry per batch. It turns a count into a time,
 * which is how the capture lag is reported: a consumer that has received D LCRs is as far behind
 * as the moment the D-th row was acknowledged. Thread-safe (synchronized; one entry per batch).
 */
final class AckTimeline {
    private long[] totals = new long[1024];
    private long[] nanos = new long[1024];
    private int size;
    private long total;

    /** Adds {@code rows} acknowledged at {@code nowNanos}; returns the new total. */
    synchronized long acknowledged(long rows, long nowNanos) {
        if (size == totals.length) {
            totals = Arrays.copyOf(totals, size * 2);
            nanos = Arrays.copyOf(nanos, size * 2);
        }
        total += rows;
        totals[size] = total;
        nanos[size] = nowNanos;
        size++;
        return total;
    }

    synchronized long total() {
        return total;
    }

    /** The time the total first reached {@code count}, or -1 if it has not (count 0 or less: -1). */
    synchronized long timeReached(long count) {
        if (count <= 0) {
            return -1;
        }
        int i = Arrays.binarySearch(totals, 0, size, count);
        if (i < 0) {
            i = -i - 1;
        }
        return i < size ? nanos[i] : -1;
    }

    /**
     * How far behind the writers a reader that has {@code delivered} of them is, at
     * {@code nowNanos}: now minus the acknowledgement time of the first row it lacks; 0 when
     * it lacks none.
     */
    long lagMillis(long delivered, long nowNanos) {
        long t = timeReached(delivered + 1);
        return t < 0 ? 0 : Math.max(0, (nowNanos - t) / 1_000_000);
    }
}
