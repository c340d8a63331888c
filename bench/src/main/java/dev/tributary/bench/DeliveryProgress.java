package dev.tributary.bench;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the consumers have received so far, shared by every consumer thread and read by the
 * progress sampler. Thread-safe (atomics).
 */
public final class DeliveryProgress {
    private final AtomicLong measured = new AtomicLong();
    private final AtomicLong preload = new AtomicLong();
    private final AtomicLong other = new AtomicLong();
    private final AtomicLong newestCommitMillis = new AtomicLong();
    private volatile long lastMeasuredNanos;
    private volatile boolean measuring;

    /** From now on LCRs of the measured command count as measured; before, every row LCR is preload or warm-up. */
    void startMeasuring() {
        measuring = true;
    }

    boolean measuring() {
        return measuring;
    }

    void measured(long commitMillis, long nowNanos) {
        measured.incrementAndGet();
        newestCommitMillis.accumulateAndGet(commitMillis, Math::max);
        lastMeasuredNanos = nowNanos;
    }

    void preload(long commitMillis) {
        preload.incrementAndGet();
        newestCommitMillis.accumulateAndGet(commitMillis, Math::max);
    }

    void countOther() {
        other.incrementAndGet();
    }

    /** LCRs of the measured phase received. */
    public long measured() {
        return measured.get();
    }

    /** Row LCRs received before the measured phase (preload, warm-up). */
    public long preload() {
        return preload.get();
    }

    /** Row LCRs of neither kind (there should be none). */
    public long others() {
        return other.get();
    }

    /** The commit time (ms) of the newest LCR received, 0 before the first. */
    public long newestCommitMillis() {
        return newestCommitMillis.get();
    }

    /** {@code System.nanoTime()} when the last measured LCR arrived, 0 before the first. */
    public long lastMeasuredNanos() {
        return lastMeasuredNanos;
    }
}
