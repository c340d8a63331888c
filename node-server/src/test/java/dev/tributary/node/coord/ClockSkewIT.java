package dev.tributary.node.coord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.node.NodeProcess;
import dev.tributary.node.TestNodes;
import dev.tributary.node.kit.ClockShift;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Node processes whose wall clock is off, against a ZooKeeper on this JVM's clock (RELIABILITY C6). */
@Timeout(240)
class ClockSkewIT {
    private static final String RING_DELAY = "2s";

    private static NodeProcess start(Path dir, String name, TestingServer zk, Duration offset) throws IOException {
        return NodeProcess.start(dir.resolve(name), 0, List.of(), ClockShift.environment(dir, offset, System.out::println),
                List.of(), "--zookeeper", zk.getConnectString(), "--cluster", "skew", "--ring-delay", RING_DELAY);
    }

    @Test
    @DisplayName("RELIABILITY C6: a node whose clock is more than the ring delay ahead of or behind ZooKeeper's does not "
            + "start, and says why; one within half the ring delay starts and takes writes")
    void beyondTheRingDelayIsAClearError(@TempDir Path dir) throws Exception {
        try (TestingServer zk = new TestingServer(TestNodes.freePort(), dir.resolve("zk").toFile())) {
            for (Duration off : List.of(Duration.ofSeconds(5), Duration.ofSeconds(-5))) {
                IOException e = assertThrows(IOException.class, () -> start(dir, "off" + off.toSeconds(), zk, off).close());
                String side = off.isNegative() ? "behind" : "ahead of";
                assertTrue(e.getMessage().contains(side + " ZooKeeper's clock") && e.getMessage().contains("more than the ring "
                        + "delay (2000 ms)"), () -> "the start names the offset and the ring delay: " + e.getMessage());
            }
            try (NodeProcess near = start(dir, "near", zk, Duration.ofMillis(400));
                    TributaryClient client = TributaryClient.builder().endpoints(near.endpoint()).build()) {
                client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
                client.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v int)");
                client.execute("INSERT INTO ks.t (pk, v) VALUES (1, 1)");
                assertEquals(1, client.execute("SELECT pk FROM ks.t").all().size());
            }
        }
    }
}
