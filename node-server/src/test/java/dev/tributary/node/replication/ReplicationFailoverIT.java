package dev.tributary.node.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.StartPosition;
import dev.tributary.client.TributaryClient;
import dev.tributary.node.NodeProcess;
import dev.tributary.node.TestNodes;
import dev.tributary.node.coord.EmbeddedZooKeeper;
import dev.tributary.node.kit.DeliveryChecker;
import dev.tributary.node.kit.Security;
import dev.tributary.node.kit.History;
import dev.tributary.node.kit.UniqueWriters;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The scenario on real processes: three nodes at replication factor 3, writers and a
 * change consumer running, one node killed with SIGKILL and its data directory deleted. Its
 * instance comes back on a replica; every acknowledged write stays readable and is delivered,
 * each at one position, in order per stream.
 */
@Tag("integration")
@Timeout(300)
class ReplicationFailoverIT {
    // kept when a test fails: the nodes' logs are in it
    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void threeSeededLeaderKillsUnderLoadLoseAndRepeatNothing() throws Exception {
        long seed = Long.getLong("tributary.failover.seed", System.nanoTime());
        System.out.println("ReplicationFailoverIT seed " + seed + " (replay with -Dtributary.failover.seed=" + seed
                + "), nodes in " + dir);
        java.util.Random random = new java.util.Random(seed);
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0)) {
            List<NodeProcess> nodes = new ArrayList<>();
            try {
                for (int i = 1; i <= 3; i++) {
                    nodes.add(startNode(zk, i));
                }
                try (TributaryClient client = TributaryClient.builder()
                        .endpoints(nodes.stream().map(NodeProcess::endpoint).toList()).build()) {
                    createTable(client);
                    DeliveryChecker checker = new DeliveryChecker();
                    UniqueWriters writers = UniqueWriters.pkV();
                    try (ChangeConsumer consumer = ChangeConsumer.builder(client).table("ks.t")
                            .start(StartPosition.earliest()).handler(checker::record).build()) {
                        consumer.start();
                        writers.start(0, client);
                        writers.start(1, client);
                        writers.awaitMore(200);
                        for (int kill = 0; kill < 3; kill++) {
                            int victim = random.nextInt(3);
                            System.out.println(java.time.Instant.now() + " kill n" + (victim + 1));
                            nodes.get(victim).kill();
                            writers.awaitMore(150);
                            // back on its own data: it catches up and its instance comes home
                            System.out.println(java.time.Instant.now() + " restart n" + (victim + 1));
                            nodes.set(victim, startNode(zk, victim + 1));
                            System.out.println(java.time.Instant.now() + " n" + (victim + 1) + " ready");
                            writers.awaitMore(100);
                        }
                        writers.close();
                        TestNodes.await(() -> checker.hasAll(writers), Duration.ofSeconds(60),
                                () -> "seed " + seed + ": every acknowledged write delivered: " + checker.problems(writers));
                        checker.verify(writers);
                        writers.history.verifyRead("the table", History.keys(client, "SELECT pk FROM ks.t"), Set.of());
                        System.out.printf("seed %d, three kills: %s, %d repeats delivered%n", seed,
                                writers.history.summary(), checker.repeats());
                    }
                }
            } finally {
                for (NodeProcess n : nodes) {
                    n.close();
                }
            }
        }
    }

    /** For each acknowledged key not delivered: whether the table and the CDC log have it, and where. */
    private static String whereAre(TributaryClient client, UniqueWriters writers, DeliveryChecker checker) {
        StringBuilder b = new StringBuilder();
        java.util.Set<Integer> missing = new java.util.TreeSet<>(writers.acked);
        missing.removeAll(checker.keys());
        for (int pk : missing.stream().limit(5).toList()) {
            try {
                b.append("pk ").append(pk).append(": ").append(client.execute("SELECT pk FROM ks.t WHERE pk = ?", pk).size())
                        .append(" row(s); log ");
                for (dev.tributary.client.Row r : client.execute("SELECT \"cdc$stream_id\", \"cdc$time\", pk "
                        + "FROM ks.t_scylla_cdc_log WHERE pk = ? ALLOW FILTERING", pk)) {
                    b.append(r.toJson());
                }
                b.append("; ");
            } catch (RuntimeException e) {
                b.append("pk ").append(pk).append(": ").append(e.getMessage()).append("; ");
            }
        }
        return b.toString();
    }

    /** Node {@code i} (from 1) at replication factor 3, on its data directory (kept across restarts). */
    private NodeProcess startNode(EmbeddedZooKeeper zk, int i) throws java.io.IOException {
        return startNode(zk, i, Security.OPEN);
    }

    private NodeProcess startNode(EmbeddedZooKeeper zk, int i, Security security) throws java.io.IOException {
        return NodeProcess.start(dir.resolve("n" + i), TestNodes.concat(security.nodeOptions(dir), "--zookeeper",
                zk.connectString(), "--replication-factor", "3", "--name", "n" + i));
    }

    private static void createTable(TributaryClient client) {
        TestNodes.await(() -> {
            try {
                client.execute("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = "
                        + "{'class': 'SimpleStrategy', 'replication_factor': 3}");
                client.execute("CREATE TABLE IF NOT EXISTS ks.t (pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
                return true;
            } catch (RuntimeException e) {
                return false;
            }
        }, Duration.ofSeconds(30), "the table");
    }

    /** Issue 29 item 10: once as it always ran, once with TLS and the password authenticator on every node. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Security.class)
    void aNodeLostWithItsDiskLosesNoAcknowledgedWrite(Security security) throws Exception {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0)) {
            List<NodeProcess> nodes = new ArrayList<>();
            try {
                for (int i = 1; i <= 3; i++) {
                    nodes.add(startNode(zk, i, security));
                }
                List<String> endpoints = nodes.stream().map(NodeProcess::endpoint).toList();
                security.assertEnforcedAt(endpoints.get(0));
                try (TributaryClient client = security.client(TributaryClient.builder().endpoints(endpoints), dir).build()) {
                    createTable(client);
                    DeliveryChecker checker = new DeliveryChecker();
                    DeliveryChecker grouped = new DeliveryChecker();
                    UniqueWriters writers = UniqueWriters.pkV();
                    // both consumers are groups: retention deletes what every group on the log has
                    // passed, and a consumer outside any group holds nothing back (docs/CONSUMERS.md).
                    // With the first one plain, group g passed the LCRs of the writes in flight at
                    // the kill while the plain one was still failing over, and retention deleted them.
                    try (ChangeConsumer consumer = ChangeConsumer.builder(client).table("ks.t")
                            .start(StartPosition.earliest()).group("all").groupLease(Duration.ofSeconds(5))
                            .handler(checker::record).build();
                            ChangeConsumer member = ChangeConsumer.builder(client).table("ks.t")
                                    .start(StartPosition.earliest()).group("g").groupLease(Duration.ofSeconds(5))
                                    .handler(grouped::record).build()) {
                        consumer.start();
                        member.start();
                        writers.start(0, client);
                        writers.start(1, client);
                        writers.awaitMore(300);
                        NodeProcess lost = nodes.get(1);
                        lost.kill();
                        GroupStateMachine.deleteTree(dir.resolve("n2"));
                        writers.awaitMore(300);
                        writers.close();
                        TestNodes.await(() -> checker.hasAll(writers), Duration.ofSeconds(60),
                                () -> "every acknowledged write delivered: " + checker.problems(writers) + "; "
                                        + whereAre(client, writers, checker));
                        checker.verify(writers);
                        // a consumer group across the failover: its positions live in ZooKeeper
                        TestNodes.await(() -> grouped.hasAll(writers), Duration.ofSeconds(60),
                                () -> "the group delivered every acknowledged write: " + grouped.problems(writers));
                        grouped.verify(writers);
                        writers.history.verifyRead("the table", History.keys(client, "SELECT pk FROM ks.t"), Set.of());
                        System.out.printf("failover: %s, %d repeats delivered%n", writers.history.summary(),
                                checker.repeats());
                    }
                }
            } finally {
                for (NodeProcess n : nodes) {
                    n.close();
                }
            }
        }
    }
}
