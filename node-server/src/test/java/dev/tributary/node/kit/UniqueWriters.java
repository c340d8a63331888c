package dev.tributary.node.kit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The delivery kit's workload: writer threads, each on its own connection, inserting rows whose
 * key is unique over the whole test ({@code writer * 1,000,000 + i}), into a table with a
 * partition key {@code pk int} and whatever else {@code statement} sets. Every write is recorded
 * in {@link #history} with its invocation, completion and outcome: acknowledged ({@link #acked}),
 * definitely refused ({@link #refused}: must never be visible) or unknown ({@link #unknown}: a
 * checker allows it at most once and does not require it). Use with {@link DeliveryChecker} and
 * {@link History#verifyRead}.
 */
public final class UniqueWriters implements AutoCloseable {
    /** The statement for key {@code pk} and the writer's {@code i}-th write. */
    @FunctionalInterface
    public interface Statement {
        String of(int pk, int i);
    }

    /** Every write this workload made. */
    public final History history = new History();
    /** Acknowledged keys (a live view of {@link #history}). */
    public final Set<Integer> acked = history.ok();
    /** Definitely refused keys (a live view of {@link #history}). */
    public final Set<Integer> refused = history.refused();
    private final Statement statement;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();
    private final List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
    private volatile String lastRefusal = "none";
    private volatile long intervalNanos;

    public UniqueWriters(Statement statement) {
        this.statement = statement;
    }

    /** Inserts into {@code ks.t (pk, ck, v)}: ChurnIT's table. */
    public static UniqueWriters pkCkV() {
        return new UniqueWriters((pk, i) -> "INSERT INTO ks.t (pk, ck, v) VALUES (" + pk + ", 0, " + i + ")");
    }

    /** Inserts into {@code ks.t (pk, v)}. */
    public static UniqueWriters pkV() {
        return new UniqueWriters((pk, i) -> "INSERT INTO ks.t (pk, v) VALUES (" + pk + ", " + i + ")");
    }

    /**
     * Each write inserts {@code rowsPerWrite} rows of one partition into {@code ks.t (pk, ck, v)}
     * as one BEGIN BATCH (one transaction at the partition's owner, so its idempotency key is kept
     * where a retry finds it): rows {@code (key, 0..rowsPerWrite-1)}, so a sustained rate of rows
     * needs fewer round trips; the history keeps one key per write. Read back with {@link #writesOf}.
     */
    public static UniqueWriters pkCkVBatches(int rowsPerWrite) {
        return new UniqueWriters((pk, i) -> {
            StringBuilder b = new StringBuilder("BEGIN BATCH ");
            for (int j = 0; j < rowsPerWrite; j++) {
                b.append("INSERT INTO ks.t (pk, ck, v) VALUES (").append(pk).append(", ").append(j).append(", ").append(i)
                        .append("); ");
            }
            return b.append("APPLY BATCH").toString();
        });
    }

    /**
     * The writes whose rows a read of {@code pk} returned (each write's key once), for
     * {@link History#verifyRead}; fails when a write is there in part or twice: a batch is one
     * transaction, all of its rows or none.
     */
    public static java.util.List<Integer> writesOf(java.util.List<Integer> rows, int rowsPerWrite) {
        java.util.Map<Integer, Integer> count = new java.util.TreeMap<>();
        for (int pk : rows) {
            count.merge(pk, 1, Integer::sum);
        }
        java.util.List<String> partial = new java.util.ArrayList<>();
        count.forEach((w, n) -> {
            if (n != rowsPerWrite) {
                partial.add(w + " (" + n + " rows)");
            }
        });
        if (!partial.isEmpty()) {
            throw new AssertionError(partial.size() + " writes read with other than their " + rowsPerWrite + " rows, e.g. "
                    + partial.subList(0, Math.min(10, partial.size())));
        }
        return java.util.List.copyOf(count.keySet());
    }

    /**
     * Paces every writer to {@code perSecond} writes a second (a sustained rate, as a fault test
     * asks, rather than as fast as the machine goes); a writer that falls behind goes on at once.
     */
    public UniqueWriters paced(double perSecond) {
        intervalNanos = (long) (1e9 / perSecond);
        return this;
    }

    /** Starts writer number {@code writer} against the node {@code node} gives when the thread starts. */
    public void start(int writer, Supplier<TributaryNode> node) {
        startThread(writer, () -> {
            try (TestNodes.Wire w = new TestNodes.Wire(node.get())) {
                write(writer, w::exec, StatusRuntimeException.class);
            }
        });
    }

    /** Starts writer number {@code writer} against the node serving at {@code endpoint} (HOST:PORT, e.g. a node process). */
    public void start(int writer, String endpoint) {
        startThread(writer, () -> {
            try (TestNodes.Wire w = new TestNodes.Wire(endpoint)) {
                write(writer, w::exec, StatusRuntimeException.class);
            }
        });
    }

    /**
     * Starts writer number {@code writer} through the SDK, which retries a failed request on
     * another node with the same idempotency key: what survives a node's loss.
     */
    public void start(int writer, dev.tributary.client.TributaryClient client) {
        startThread(writer, () -> write(writer, client::execute, RuntimeException.class));
    }

    private void startThread(int writer, Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                unexpected.add(e);
            }
        }, "unique-writer-" + writer);
        t.start();
        threads.add(t);
    }

    /** Keys whose write failed ambiguously or is still pending: may or may not be visible (a copy). */
    public Set<Integer> unknown() {
        return history.unknown();
    }

    /**
     * Writes fresh keys until stopped; a write that fails with {@code expected} is recorded as
     * refused or unknown as {@link History#classify} judges it, any other failure ends the writer.
     */
    private void write(int writer, java.util.function.Consumer<String> exec, Class<? extends RuntimeException> expected) {
        long due = System.nanoTime();
        for (int i = 0; !stop.get(); i++) {
            int pk = writer * 1_000_000 + i;
            if (intervalNanos > 0) {
                due += intervalNanos;
                long ahead = due - System.nanoTime();
                if (ahead > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(ahead); // the rate, not a wait for a condition
                } else if (-ahead > 1_000_000_000L) {
                    due = System.nanoTime(); // after a stall: the rate again, not a burst to catch up
                }
            }
            history.invoke(writer, pk);
            try {
                exec.accept(statement.of(pk, i));
                history.ok(pk);
            } catch (RuntimeException e) {
                if (!expected.isInstance(e)) {
                    history.failed(pk, e); // unknown: the writer ends, its last write maybe applied
                    throw e;
                }
                History.Outcome o = history.failed(pk, e);
                lastRefusal = "pk " + pk + " " + o + ": " + e; // in awaitMore's message, with where each writer is
            }
        }
    }

    /** Waits until {@code n} more writes than now are acknowledged. */
    public void awaitMore(int n) {
        int target = acked.size() + n;
        TestNodes.await(() -> acked.size() >= target, Duration.ofSeconds(60), () -> target + " acknowledged writes (now "
                + history.summary() + "; last failure " + lastRefusal + "; writers at "
                + whereWritersAre() + ")");
    }

    /** Where each writer thread is now: what a stalled write waits on. */
    private String whereWritersAre() {
        StringBuilder b = new StringBuilder();
        for (Thread t : threads) {
            b.append('\n').append(t.getName()).append(' ').append(t.getState());
            StackTraceElement[] stack = t.getStackTrace();
            for (int i = 0; i < Math.min(12, stack.length); i++) {
                b.append("\n    at ").append(stack[i]);
            }
        }
        return b.toString();
    }

    /** Stops the writers and waits for them; fails on a writer's unexpected error. */
    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join(30_000);
        }
        assertTrue(unexpected.isEmpty(), "writer failures: " + unexpected);
    }
}
