package dev.tributary.node.changes;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
    private final TributaryNode node;
    private final int writes;
    private final long skewMillis;
    private final IntFunction<String> insert;

    /** @param insert the i-th INSERT statement, without a USING clause */
    NearSkewWriter(TributaryNode node, int writes, long skewMillis, IntFunction<String> insert) {
        this.node = node;
        this.writes = writes;
        this.skewMillis = skewMillis;
        this.insert = insert;
    }

    @Override
    public void run() {
        try (TestNodes.Wire w = new TestNodes.Wire(node)) {
            for (int i = 0; i < writes; i++) {
                String using = i % 2 == 0 ? "" : " USING TIMESTAMP " + (System.currentTimeMillis() - skewMillis + 60) * 1000;
                try {
                    w.exec(insert.apply(i) + using);
                } catch (StatusRuntimeException e) {
                    // a write that waited past the skew is refused at commit; that is the rule at work
                    assertTrue(e.getStatus().getDescription().contains("max-write-skew"), e.toString());
                }
            }
        } finally {
            done.set(true);
        }
    }
}
