package dev.tributary.bench;

import java.util.concurrent.locks.LockSupport;

/**
 * Holds work to a rate: unit {@code n} is not let through before {@code start + n / rate}, so a
 * late unit is followed by a catch-up burst and the long-run rate stays exact. Thread-safe (it
 * keeps no state after construction).
 */
final class Pacer {
    private final long start;
    private final double nanosPerUnit;

    Pacer(long startNanos, double unitsPerSecond) {
        this.start = startNanos;
        this.nanosPerUnit = 1e9 / unitsPerSecond;
    }

    /** Parks until unit {@code n} (counted from 0 at the start) is due. */
    void awaitUnit(long n) {
        long due = start + (long) (n * nanosPerUnit);
        for (long wait; (wait = due - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(wait);
        }
    }
}
