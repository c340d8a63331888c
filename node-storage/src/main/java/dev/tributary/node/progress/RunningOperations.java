package dev.tributary.node.progress;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long operations an instance runs — an instantiation's copy, a decommission's hand-over —
 * with their progress, for {@code system_views.operations} and the log. As Oracle's
 * V$SESSION_LONGOPS, an operation is listed {@code RUNNING} from {@link #start} until its
 * {@link Operation#close}, then {@code DONE} (when {@link Operation#succeeded} was called) or
 * {@code FAILED} among the last {@link #KEPT_FINISHED} finished ones, so a short operation can be
 * seen after it ended. It logs its progress at most once per {@code logEveryNanos}, and once when
 * it ends. Thread-safe: the thread doing the work advances its operation while any thread lists.
 */
public final class RunningOperations {
    private static final Logger LOG = LoggerFactory.getLogger(RunningOperations.class);
    /** Often enough to see an operation move, rarely enough not to flood the log. */
    public static final long DEFAULT_LOG_EVERY_NANOS = 10_000_000_000L;

    private final LongSupplier nanoTime;
    private final Supplier<Instant> wallClock;
    private final long logEveryNanos;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, Operation> running = new ConcurrentHashMap<>();
    /** Finished operations, oldest first; guarded by itself. */
    private final java.util.ArrayDeque<View> finished = new java.util.ArrayDeque<>();
    /** How many finished operations stay listed. */
    public static final int KEPT_FINISHED = 16;

    /**
     * @param nanoTime a monotonic clock (rates and ETAs), {@code System::nanoTime} outside tests
     * @param wallClock when an operation started, as the view shows it
     */
    public RunningOperations(LongSupplier nanoTime, Supplier<Instant> wallClock, long logEveryNanos) {
        this.nanoTime = nanoTime;
        this.wallClock = wallClock;
        this.logEveryNanos = logEveryNanos;
    }

    public static RunningOperations system() {
        return new RunningOperations(System::nanoTime, Instant::now, DEFAULT_LOG_EVERY_NANOS);
    }

    /**
     * Lists a new operation; the caller closes it when the work ends, however it ends.
     *
     * @param kind what runs, e.g. {@code instantiate_table}
     * @param target what it runs on, e.g. the table
     * @param unit what {@code done} and {@code total} count, plural ("rows")
     * @param total the units to do, or {@link Progress#UNKNOWN}
     */
    public Operation start(String kind, String target, String unit, long total) {
        long now = nanoTime.getAsLong();
        Operation op = new Operation(ids.incrementAndGet(), kind, target, unit, wallClock.get(), Progress.start(total, now));
        running.put(op.id, op);
        LOG.info("{} {}: started{}", kind, target, total == Progress.UNKNOWN ? "" : String.format(java.util.Locale.ROOT,
                ", %,d %s to do", total, unit));
        return op;
    }

    /** The running operations, each with its progress as of this call, and the last finished ones; oldest first. */
    public List<View> list() {
        long now = nanoTime.getAsLong();
        List<View> out = new ArrayList<>();
        synchronized (finished) {
            out.addAll(finished);
        }
        for (Operation op : running.values()) {
            Progress p = op.progress.get();
            out.add(new View(op.id, op.kind, op.target, op.unit, op.started, State.RUNNING, p.advance(0, now)));
        }
        out.sort(Comparator.comparingLong(View::id));
        return out;
    }

    public enum State {
        RUNNING, DONE, FAILED
    }

    /** One operation as {@link #list} shows it; a finished one's progress is as of its end. */
    public record View(long id, String kind, String target, String unit, Instant started, State state, Progress progress) {
    }

    /** The handle of one running operation: the thread doing its work advances it, then closes it. */
    public final class Operation implements AutoCloseable {
        private final long id;
        private final String kind;
        private final String target;
        private final String unit;
        private final Instant started;
        private final AtomicReference<Progress> progress;
        private final AtomicLong lastLogNanos;
        private volatile boolean succeeded;

        private Operation(long id, String kind, String target, String unit, Instant started, Progress initial) {
            this.id = id;
            this.kind = kind;
            this.target = target;
            this.unit = unit;
            this.started = started;
            this.progress = new AtomicReference<>(initial);
            this.lastLogNanos = new AtomicLong(initial.startedNanos());
        }

        /** {@code n} more units done. */
        public void advance(long n) {
            long now = nanoTime.getAsLong();
            Progress p = progress.updateAndGet(q -> q.advance(n, now));
            long last = lastLogNanos.get();
            if (now - last >= logEveryNanos && lastLogNanos.compareAndSet(last, now)) {
                LOG.info("{} {}: {}", kind, target, p.describe(unit));
            }
        }

        /** The total, once it is known (or better estimated). */
        public void total(long total) {
            progress.updateAndGet(p -> p.withTotal(total));
        }

        public Progress progress() {
            return progress.get();
        }

        /** The work is complete: {@link #close} lists it DONE rather than FAILED. */
        public void succeeded() {
            succeeded = true;
        }

        /** Moves the operation to the finished ones and logs where it ended. */
        @Override
        public void close() {
            if (running.remove(id) != null) {
                Progress p = progress.updateAndGet(q -> q.advance(0, nanoTime.getAsLong()));
                State state = succeeded ? State.DONE : State.FAILED;
                synchronized (finished) {
                    finished.addLast(new View(id, kind, target, unit, started, state, p));
                    while (finished.size() > KEPT_FINISHED) {
                        finished.removeFirst();
                    }
                }
                LOG.info("{} {}: {} after {} s: {}", kind, target, state == State.DONE ? "done" : "failed",
                        String.format(java.util.Locale.ROOT, "%.1f", p.elapsedSeconds()),
                        p.withTotal(Progress.UNKNOWN).describe(unit));
            }
        }
    }
}
