package dev.tributary.node.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.node.ReplicatedNode;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.TestNodes;
import dev.tributary.node.kit.ReplicaChecker;
import dev.tributary.node.kit.ReplicatedNodes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three replicated nodes in one JVM, ZooKeeper apart from them: each node's instance is
 * replicated on all three, and when a node is lost with its disk its instance runs on another
 * node with every acknowledged write.
 */
@Tag("integration")
@Timeout(300)
class ReplicatedNodeIT {
    @TempDir
    Path dir;

    private String lostId;
    private ReplicatedNodes cluster;
    private Map<String, ReplicatedNode> nodes;

    @org.junit.jupiter.api.BeforeEach
    void prepare() {
        cluster = new ReplicatedNodes(dir, "1s");
        nodes = cluster.nodes;
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private ReplicatedNode start(String name) {
        return cluster.start(name);
    }

    private List<String> endpoints() {
        return cluster.endpoints();
    }

    @Test
    void aLostNodesInstanceRunsOnAReplicaWithEveryAcknowledgedWrite() throws Exception {
        start("n1");
        start("n2");
        start("n3");
        // every group grows to three replicas as the nodes join
        TestNodes.await(() -> nodes.values().stream().allMatch(n -> n.instances().size() == 1), Duration.ofSeconds(30),
                "each node to run its own instance");
        try (TributaryClient client = TributaryClient.builder().endpoints(endpoints()).build()) {
            cluster.createTable(client, "(pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
            for (int i = 0; i < 300; i++) {
                client.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, i);
            }
            ReplicatedNode lost = nodes.remove("n2");
            lostId = lost.hostId();
            lost.close();
            dev.tributary.node.replication.GroupStateMachine.deleteTree(dir.resolve("n2"));
            String lost2 = lostId;
            TestNodes.await(() -> nodes.values().stream().anyMatch(n -> n.instances().containsKey(lost2)),
                    Duration.ofSeconds(60), "the lost node's instance to run on a replica");
            TestNodes.await(() -> {
                try {
                    return client.execute("SELECT count(*) FROM ks.t").one().getLong(0) == 301;
                } catch (RuntimeException e) {
                    return false;
                }
            }, Duration.ofSeconds(60), "every acknowledged row readable");
            for (int i = 300; i < 400; i++) {
                client.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, i);
            }
            assertEquals(401, client.execute("SELECT count(*) FROM ks.t").one().getLong(0));
        }
        ReplicaChecker.awaitAllReplicasAgree(nodes.values());

        // the lost node leaves its groups; a new node takes its place in each
        try (TributaryClient client = TributaryClient.builder().endpoints(endpoints()).build()) {
            StatusOrError refused = StatusOrError.of(() -> client.execute("CALL system.removenode(host_id => '"
                    + nodes.get("n1").hostId() + "')"));
            assertTrue(refused.message().contains("is up; stop it first"), refused.message());
            assertEquals(3, client.execute("CALL system.removenode(host_id => '" + lostId + "')").size(),
                    "it was in three groups: its own and the other two nodes'");
            start("n4");
            TestNodes.await(() -> groups().stream().allMatch(g -> members(g).size() == 3), Duration.ofSeconds(60),
                    () -> "every group back at three replicas: " + groups().stream().map(g -> g + "=" + members(g)).toList());
            client.execute("INSERT INTO ks.t (pk, v) VALUES (1000, 1000)");
        }
        ReplicaChecker.awaitAllReplicasAgree(nodes.values());
        assertTrue(nodes.get("n4").replicaGroups().containsAll(groups()), "the new node holds a replica of each group");
    }

    @Test
    @org.junit.jupiter.api.DisplayName("a keyspace's replication_factor decides the copies: nodes started with no factor keep "
            + "groups of one, a keyspace of factor 3 grows every group to three, and a node lost with its disk loses nothing "
            + "of it nor of a factor-1 keyspace beside it")
    void aKeyspacesReplicationFactorGrowsTheGroups() throws Exception {
        cluster.close();
        cluster = new ReplicatedNodes(dir.resolve("floor1"), "1s", 1);
        nodes = cluster.nodes;
        start("n1");
        start("n2");
        start("n3");
        TestNodes.await(() -> nodes.values().stream().allMatch(n -> n.instances().size() == 1), Duration.ofSeconds(30),
                "each node to run its own instance");
        assertTrue(groups().stream().allMatch(g -> members(g).size() == 1), "no keyspace asked for more: groups of one");
        try (TributaryClient client = TributaryClient.builder().endpoints(endpoints()).build()) {
            TestNodes.await(() -> {
                try {
                    client.execute("CREATE KEYSPACE IF NOT EXISTS one WITH replication = "
                            + "{'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
                    client.execute("CREATE TABLE IF NOT EXISTS one.t (pk int PRIMARY KEY, v int)");
                    client.execute("INSERT INTO one.t (pk, v) VALUES (-1, -1)");
                    return true;
                } catch (RuntimeException e) {
                    return false;
                }
            }, Duration.ofSeconds(30), "the first generation and one.t");
            for (int i = 0; i < 100; i++) {
                client.execute("INSERT INTO one.t (pk, v) VALUES (?, ?)", i, i);
            }
            assertTrue(groups().stream().allMatch(g -> members(g).size() == 1), "factor 1 keeps groups of one");
            // the first write to a factor-3 keyspace waits (UNAVAILABLE, retried) while every group grows to three
            cluster.createTable(client, "(pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
            TestNodes.await(() -> groups().stream().allMatch(g -> members(g).size() == 3), Duration.ofSeconds(60),
                    () -> "every group at three replicas: " + groups().stream().map(g -> g + "=" + members(g)).toList());
            for (int i = 0; i < 300; i++) {
                client.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, i);
            }
            ReplicatedNode lost = nodes.remove("n2");
            lostId = lost.hostId();
            lost.close();
            dev.tributary.node.replication.GroupStateMachine.deleteTree(dir.resolve("floor1").resolve("n2"));
            String lost2 = lostId;
            TestNodes.await(() -> nodes.values().stream().anyMatch(n -> n.instances().containsKey(lost2)),
                    Duration.ofSeconds(60), "the lost node's instance to run on a replica");
            TestNodes.await(() -> {
                try {
                    return client.execute("SELECT count(*) FROM ks.t").one().getLong(0) == 301
                            && client.execute("SELECT count(*) FROM one.t").one().getLong(0) == 101;
                } catch (RuntimeException e) {
                    return false;
                }
            }, Duration.ofSeconds(60), "every acknowledged row of both keyspaces readable");
        }
    }

    @Test
    void withTwoOfThreeNodesDownWritesAreRefusedAndNothingAcknowledgedIsLost() throws Exception {
        start("n1");
        start("n2");
        start("n3");
        TestNodes.await(() -> groups().stream().allMatch(g -> members(g).size() == 3), Duration.ofSeconds(60),
                "every group at three replicas");
        TributaryNode n1 = nodes.get("n1").home();
        try (TestNodes.Wire w = new TestNodes.Wire(n1)) {
            TestNodes.await(() -> {
                try {
                    w.exec("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
                    w.exec("CREATE TABLE IF NOT EXISTS ks.t (pk int PRIMARY KEY, v int)");
                    return true;
                } catch (RuntimeException e) {
                    return false;
                }
            }, Duration.ofSeconds(30), "the table");
            // a key each of n1's own vnodes owns, so the write commits in n1's group
            int pk = ownedBy(n1);
            w.exec("INSERT INTO ks.t (pk, v) VALUES (" + pk + ", 1)");
            Map<String, Path> downDirs = new LinkedHashMap<>();
            for (String name : List.of("n2", "n3")) {
                nodes.remove(name).close();
                downDirs.put(name, dir.resolve(name));
            }
            io.grpc.StatusRuntimeException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    io.grpc.StatusRuntimeException.class, () -> w.exec("INSERT INTO ks.t (pk, v) VALUES (" + pk + ", 2)"));
            assertEquals(io.grpc.Status.Code.UNAVAILABLE, refused.getStatus().getCode(), refused.getStatus().toString());
        }
        start("n2");
        start("n3");
        try (TributaryClient client = TributaryClient.builder().endpoints(endpoints()).build()) {
            TestNodes.await(() -> {
                try {
                    return client.execute("SELECT v FROM ks.t WHERE pk = " + ownedBy(nodes.get("n1").home())).size() == 1;
                } catch (RuntimeException e) {
                    return false;
                }
            }, Duration.ofSeconds(60), "the acknowledged write back once a majority is");
        }
        ReplicaChecker.awaitAllReplicasAgree(nodes.values());
    }

    /** A partition key whose token n1's ring gives to {@code node}. */
    private static int ownedBy(TributaryNode node) {
        for (int pk = 0; ; pk++) {
            long token = dev.tributary.generations.Murmur3Partitioner.token(java.nio.ByteBuffer.allocate(4).putInt(0, pk));
            if (node.ringOwner(token).equals(node.hostId().toString())) {
                return pk;
            }
        }
    }

    private java.util.Set<String> groups() {
        java.util.Set<String> out = new java.util.TreeSet<>();
        nodes.values().forEach(n -> out.addAll(n.replicaGroups()));
        return out;
    }

    private java.util.Set<String> members(String group) {
        return nodes.values().stream().filter(n -> n.replicaGroups().contains(group)).findFirst()
                .map(n -> n.members(group)).orElse(java.util.Set.of());
    }


    /** The message of a call's failure. */
    private record StatusOrError(String message) {
        static StatusOrError of(Runnable call) {
            try {
                call.run();
                return new StatusOrError("no error");
            } catch (RuntimeException e) {
                return new StatusOrError(String.valueOf(e.getMessage()));
            }
        }
    }
}
