package dev.tributary.node.coord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.StartPosition;
import dev.tributary.client.TributaryClient;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.DeliveryChecker;
import dev.tributary.node.kit.History;
import dev.tributary.node.kit.InProcessCluster;
import dev.tributary.node.kit.UniqueWriters;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.util.ServiceUtils;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Two nodes on a real three-server ZooKeeper ensemble that loses its quorum for a while. */
@Timeout(240)
class QuorumLossIT {
    @Test
    @DisplayName("RELIABILITY C3: two of three ZooKeeper servers down for 30 s under writes: no acknowledged write is "
            + "lost from the table or the log, no generation is made, and afterwards the nodes take writes again")
    void twoOfThreeZooKeeperServersDown(@TempDir Path dir) throws Exception {
        long outageMillis = Long.getLong("tributary.c3.outage.millis", 30_000);
        // A ZooKeeper peer exits the JVM when it cannot bind again; here that must fail the test, not the fork.
        ServiceUtils.setSystemExitProcedure(ServiceUtils.LOG_ONLY);
        List<InstanceSpec> specs = new ArrayList<>();
        for (int id = 1; id <= 3; id++) {
            specs.add(new InstanceSpec(java.nio.file.Files.createDirectories(dir.resolve("zk" + id)).toFile(), TestNodes.freePort(), TestNodes.freePort(),
                    TestNodes.freePort(), true, id));
        }
        try (TestingCluster zk = new TestingCluster(specs)) {
            zk.start();
            try (InProcessCluster nodes = InProcessCluster.builder(dir).zookeeper(zk.getConnectString()).options("--cluster", "quorum")
                    .build()) {
                TributaryNode a = nodes.startOperating("a");
                TributaryNode b = nodes.startOperating("b");
                try (TributaryClient client = TributaryClient.builder().endpoints(a.endpoint(), b.endpoint()).build()) {
                    client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
                    client.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
                    TestNodes.awaitGenerationInForce(a);
                    TestNodes.awaitGenerationInForce(b);
                    int generations = a.generations().size();
                    DeliveryChecker delivered = new DeliveryChecker();
                    UniqueWriters writers = UniqueWriters.pkV();
                    try (ChangeConsumer consumer = ChangeConsumer.builder(client).table("ks.t").start(StartPosition.earliest())
                            .handler(delivered::record).build()) {
                        consumer.start();
                        try {
                            writers.start(1, client);
                            writers.start(2, client);
                            writers.awaitMore(200);
                            List<InstanceSpec> down = new ArrayList<>(zk.getInstances()).subList(0, 2);
                            for (InstanceSpec s : down) {
                                assertTrue(zk.killServer(s), "server " + s + " stopped");
                            }
                            Thread.sleep(outageMillis); // the outage is the scenario, not a wait for a condition
                            for (InstanceSpec s : down) {
                                assertTrue(zk.restartServer(s), "server " + s + " restarted");
                            }
                            writers.awaitMore(300); // both nodes take writes again (the writers go through either)
                        } finally {
                            writers.close();
                        }
                        // a consumer that stopped fails here with its reason, not after the whole wait
                        TestNodes.await(() -> delivered.hasAll(writers) || !consumer.isRunning(), Duration.ofSeconds(60),
                                () -> "every acknowledged write delivered: " + delivered.problems(writers) + "\nthe consumer: "
                                        + dev.tributary.client.ConsumerTestHooks.state(consumer) + "\nnode a: "
                                        + a.safeTimeBounds() + "\nnode b: " + b.safeTimeBounds());
                        assertTrue(consumer.isRunning(), () -> "the consumer stopped: " + consumer.failure());
                        delivered.verify(writers);
                    }
                    assertEquals(generations, a.generations().size(), "no generation made over the outage");
                    assertEquals(generations, b.generations().size());
                    writers.history.verifyRead("the table", History.keys(client, "SELECT pk FROM ks.t"), java.util.Set.of());
                    // Both nodes lose their sessions and refuse writes as UNAVAILABLE (which the SDK
                    // cannot tell from a failure after applying) until the quorum is back; the SDK gives
                    // a write up only after its whole failover window, so a writer has at most one
                    // unknown per window of the outage, plus the one in flight when it began.
                    long window = TributaryClient.DEFAULT_FAILOVER_WINDOW.toMillis();
                    writers.history.verifyUnknownAtMost((int) (2 * (outageMillis / window + 1)));
                    System.out.printf("quorum loss of %d ms: %s%n", outageMillis, writers.history.summary());
                }
            }
        }
    }
}
