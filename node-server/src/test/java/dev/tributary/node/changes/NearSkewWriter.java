package dev.tributary.node.changes;

import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;

/**
 * Writes rows on a thread, every second one USING TIMESTAMP just inside the max write skew in the
 * past: the LCRs that land nearest below a node's safe time. {@link #done} is set once it stopped.
 */
final class NearSkewWriter extends Thread {
    final AtomicBoolean done = new AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
    private final TributaryNode node;
    private final int writes;
    private final long skewMillis;
    private final IntFunction<String> insert;

    private final dev.tributary.node.kit.History history;
    private final java.util.function.IntUnaryOperator key;

    /** @param insert the i-th INSERT statement, without a USING clause */
    NearSkewWriter(TributaryNode node, int writes, long skewMillis, IntFunction<String> insert) {
        this(node, writes, skewMillis, insert, null, null);
    }

    /**
     * As above, recording each write in {@code history} as process 0 under {@code key.applyAsInt(i)}:
     * acknowledged, refused (a timestamp that fell past the skew before the commit) or unknown.
     */
    NearSkewWriter(TributaryNode node, int writes, long skewMillis, IntFunction<String> insert,
            dev.tributary.node.kit.History history, java.util.function.IntUnaryOperator key) {
        this.node = node;
        this.writes = writes;
        this.skewMillis = skewMillis;
        this.insert = insert;
        this.history = history;
        this.key = key;
    }

    @Override
    public void run() {
        try (TestNodes.Wire w = new TestNodes.Wire(node)) {
            // a write timed before the first generation has no stream to go to (as in Scylla): start
            // once the generation is older than the past the writes are timed in
            long generation = node.generations().latest().orElseThrow().timestampMillis();
            TestNodes.await(() -> System.currentTimeMillis() - skewMillis > generation, java.time.Duration.ofSeconds(10),
                    "the first generation to be older than the write skew");
            for (int i = 0; i < writes; i++) {
                String using = i % 2 == 0 ? "" : " USING TIMESTAMP " + (System.currentTimeMillis() - skewMillis + 60) * 1000;
                if (history != null) {
                    history.invoke(0, key.applyAsInt(i));
                }
                try {
                    w.exec(insert.apply(i) + using);
                    if (history != null) {
                        history.ok(key.applyAsInt(i));
                    }
                } catch (StatusRuntimeException e) {
                    if (history != null) {
                        history.failed(key.applyAsInt(i), e);
                    }
                    // a write that waited past the skew is refused at commit; that is the rule at work
                    if (e.getStatus().getDescription() == null || !e.getStatus().getDescription().contains("max-write-skew")) {
                        failure.compareAndSet(null, e);
                    }
                }
            }
        } catch (RuntimeException | Error e) {
            failure.compareAndSet(null, e);
        } finally {
            done.set(true);
        }
    }

    /** Waits for the writer and fails with what went wrong on its thread, if anything did. */
    void joinAndCheck() throws InterruptedException {
        join();
        Throwable f = failure.get();
        if (f != null) {
            throw new AssertionError("the near-skew writer failed: " + f, f);
        }
    }
}
