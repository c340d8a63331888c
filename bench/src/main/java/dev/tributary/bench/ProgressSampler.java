package dev.tributary.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Samples the measured phase once a second: acknowledged rows, LCRs the capture enqueued (when
 * known), LCRs the consumers received, and the lag of both behind the writers (kept for the
 * report); the JVM's heap use (its peak is the in-process node's heap figure); and prints a
 * progress line to stderr every {@code printEvery} samples. Runs on its own daemon thread between
 * {@link #start()} and {@link #stop()}; the getters are for after {@code stop}.
 */
final class ProgressSampler {
    private final AckTimeline acks;
    private final DeliveryProgress progress;
    private final LongSupplier captured;
    private final long rows;
    private final PrintStream err;
    private final int printEvery;
    private final List<LagSample> samples = new ArrayList<>();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private volatile boolean running = true;
    private volatile long heapPeakBytes;
    private Thread thread;

    /**
     * @param captured the capture's enqueued count, or null when it cannot be read (a connected node)
     */
    ProgressSampler(AckTimeline acks, DeliveryProgress progress, LongSupplier captured, long rows, PrintStream err,
            int printEvery) {
        this.acks = acks;
        this.progress = progress;
        this.captured = captured;
        this.rows = rows;
        this.err = err;
        this.printEvery = printEvery;
    }

    void start() {
        long origin = System.nanoTime();
        long baseDelivered = progress.measured();
        long baseCaptured = captured == null ? 0 : captured.getAsLong();
        thread = new Thread(() -> loop(origin, baseDelivered, baseCaptured), "bench-progress");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop(long origin, long baseDelivered, long baseCaptured) {
        long next = origin;
        int n = 0;
        long lastAcked = 0;
        long lastDelivered = 0;
        while (running) {
            next += 1_000_000_000L;
            long wait;
            while (running && (wait = next - System.nanoTime()) > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
            }
            if (!running) {
                break;
            }
            heapPeakBytes = Math.max(heapPeakBytes, memory.getHeapMemoryUsage().getUsed());
            long now = System.nanoTime();
            long acked = acks.total();
            long delivered = progress.measured() - baseDelivered;
            Long cap = captured == null ? null : captured.getAsLong() - baseCaptured;
            LagSample s = new LagSample((now - origin) / 1e9, acked, cap, delivered, acks.lagMillis(delivered, now),
                    cap == null ? null : acks.lagMillis(cap, now));
            synchronized (samples) {
                samples.add(s);
            }
            if (++n % printEvery == 0) {
                // the writers' ETA at their rate so far: when the measured phase's writes should be in
                java.util.OptionalLong eta = new dev.tributary.node.progress.Progress(Math.min(acked, rows), rows, origin, now)
                        .etaSeconds();
                err.printf(Locale.ROOT, "bench: %5.0fs acked %,d/%,d (%,d/s%s)%s delivered %,d (%,d/s) backlog %,d lag %,d ms%n",
                        s.seconds(), acked, rows, (acked - lastAcked) / printEvery,
                        eta.isPresent() ? ", ETA " + eta.getAsLong() + " s" : "",
                        cap == null ? "" : String.format(Locale.ROOT, " captured %,d (lag %,d ms)", cap, s.captureLagMillis()),
                        delivered, (delivered - lastDelivered) / printEvery, s.backlog(), s.lagMillis());
                lastAcked = acked;
                lastDelivered = delivered;
            }
        }
    }

    void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        heapPeakBytes = Math.max(heapPeakBytes, memory.getHeapMemoryUsage().getUsed());
    }

    List<LagSample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    long heapPeakBytes() {
        return heapPeakBytes;
    }
}
