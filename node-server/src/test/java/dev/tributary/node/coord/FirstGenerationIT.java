package dev.tributary.node.coord;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.generations.Generation;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.InProcessCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A fresh cluster whose nodes all start at the same moment: the first generation is made once. */
@Timeout(180)
class FirstGenerationIT {
    private static List<Long> timestamps(TributaryNode n) {
        return n.generations().generations().stream().map(Generation::timestampMillis).toList();
    }

    @Test
    @DisplayName("CDC-GEN-11: three fresh nodes started at once on one ZooKeeper agree on one first generation — one node "
            + "makes it under the topology lock and the others read it — and on every generation after it")
    void freshNodesAgreeOnOneFirstGeneration(@TempDir Path dir) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<TributaryNode> nodes = new ArrayList<>();
        try (InProcessCluster cluster = InProcessCluster.builder(dir).ringDelay(Duration.ofMillis(300)).build()) {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<TributaryNode>> starting = new ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                String name = "n" + i;
                starting.add(pool.submit(() -> {
                    go.await();
                    return cluster.start(name);
                }));
            }
            go.countDown();
            for (Future<TributaryNode> f : starting) {
                try {
                    nodes.add(f.get(60, TimeUnit.SECONDS));
                } catch (java.util.concurrent.TimeoutException e) {
                    // a start that hangs (one did once, in a loaded run) leaves every thread's stack in the report
                    Thread.getAllStackTraces().forEach((t, st) -> {
                        StringBuilder b = new StringBuilder("THREAD " + t.getName() + "\n");
                        for (StackTraceElement el : st) {
                            b.append("   ").append(el).append('\n');
                        }
                        System.out.println(b);
                    });
                    throw e;
                }
            }
            TestNodes.await(() -> nodes.stream().map(FirstGenerationIT::timestamps).distinct().count() == 1
                    && nodes.stream().allMatch(n -> n.generations().latest().isPresent()), Duration.ofSeconds(30),
                    () -> "every node to know the same generations: " + nodes.stream().map(FirstGenerationIT::timestamps).toList());
            List<Long> ts = timestamps(nodes.get(0));
            long first = ts.get(0);
            for (TributaryNode n : nodes) {
                assertEquals(first, timestamps(n).get(0), "one first generation on " + n.endpoint());
                assertEquals(ts.size(), timestamps(n).stream().distinct().count(), "no generation twice on " + n.endpoint());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
