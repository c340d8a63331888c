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
 * partition key {@code pk int} and whatever else {@code statement} sets. A write that was
 * acknowledged is in {@link #acked}; one that failed is in {@link #failed} — it may or may not have
 * been applied, so a checker allows it at most once and does not require it. Use with
 * {@link DeliveryChecker}.
 */
public final class UniqueWriters implements AutoCloseable {
    /** The statement for key {@code pk} and the writer's {@code i}-th write. */
    @FunctionalInterface
    public interface Statement {
        String of(int pk, int i);
    }

    public final Set<Integer> acked = ConcurrentHashMap.newKeySet();
    public final Set<Integer> failed = ConcurrentHashMap.newKeySet();
    private final Statement statement;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();
    private final List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
    private volatile String lastRefusal = "none";

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

    /** Writes fresh keys until stopped; a write refused with {@code refused} counts as failed. */
    private void write(int writer, java.util.function.Consumer<String> exec, Class<? extends RuntimeException> refused) {
        for (int i = 0; !stop.get(); i++) {
            int pk = writer * 1_000_000 + i;
            try {
                exec.accept(statement.of(pk, i));
                acked.add(pk);
            } catch (RuntimeException e) {
                if (!refused.isInstance(e)) {
                    throw e;
                }
                failed.add(pk); // may or may not have been applied: at most once in the log
                lastRefusal = "pk " + pk + ": " + e; // in awaitMore's message, with where each writer is
            }
        }
    }

    /** Waits until {@code n} more writes than now are acknowledged. */
    public void awaitMore(int n) {
        int target = acked.size() + n;
        TestNodes.await(() -> acked.size() >= target, Duration.ofSeconds(60), () -> target + " acknowledged writes (now "
                + acked.size() + " acknowledged, " + failed.size() + " failed; last refusal " + lastRefusal + "; writers at "
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
