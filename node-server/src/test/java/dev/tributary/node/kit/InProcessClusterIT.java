package dev.tributary.node.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The in-process cluster fixture's own hooks, each observed from the other node or the node itself. */
@Timeout(180)
class InProcessClusterIT {
    private static long sessionId(TributaryNode n) {
        try {
            return dev.tributary.node.coord.KillSession.sessionId(n.coordinator());
        } catch (Exception e) {
            throw new IllegalStateException("no ZooKeeper client on " + n.hostId(), e);
        }
    }

    /** The state of member {@code id} as {@code w}'s node lists it (system.peers leaves out a DOWN one). */
    private static String state(TestNodes.Wire w, UUID id) {
        return w.exec("SELECT host_id, state FROM system_views.nodes").getRowsList().stream()
                .filter(r -> r.getValues(0).getUuid().equals(id.toString())).map(r -> r.getValues(1).getText())
                .findFirst().orElse("not a member");
    }

    private static long rows(TestNodes.Wire w) {
        return w.exec("SELECT count(*) FROM ks.t").getRows(0).getValues(0).getInteger();
    }

    @Test
    @DisplayName("a second node joins; its session expired, it registers again; killed, its peer lists it DOWN; restarted, "
            + "it is the same node with its rows; killed and wiped, it starts as a new node")
    void hooks(@TempDir Path dir) {
        try (InProcessCluster cluster = InProcessCluster.builder(dir).build()) {
            cluster.startOperating("n1");
            TributaryNode n2 = cluster.startOperating("n2");
            assertEquals(java.util.List.of("n1", "n2"), cluster.names());
            TestNodes.Wire w1 = cluster.wire("n1");
            w1.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            w1.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v int)");
            w1.execInBatches(100, i -> "INSERT INTO ks.t (pk, v) VALUES (" + i + ", " + i + ")");
            assertEquals(100, rows(cluster.wire("n2")), "both nodes' rows through node 2");

            UUID id = n2.hostId();
            long session = sessionId(n2);
            cluster.expireSession("n2");
            TestNodes.await(() -> sessionId(n2) != session && !n2.zookeeperSessionLost(), Duration.ofSeconds(30),
                    "node 2 in a new session");
            TestNodes.await(() -> "NORMAL".equals(state(w1, id)), Duration.ofSeconds(30), "node 2 a live member again");

            cluster.kill("n2");
            assertThrows(IllegalStateException.class, () -> cluster.node("n2"));
            TestNodes.await(() -> "DOWN".equals(state(w1, id)), Duration.ofSeconds(30), () -> "node 2 DOWN: " + state(w1, id));
            assertThrows(IllegalStateException.class, () -> cluster.wipe("n1"), "a running node is not wiped");

            TributaryNode again = cluster.restart("n2");
            assertEquals(id, again.hostId(), "the restart kept its data directory");
            TestNodes.await(() -> "NORMAL".equals(state(w1, id)), Duration.ofSeconds(30), "node 2 back");
            assertEquals(100, rows(cluster.wire("n2")), "its rows are still there");

            cluster.kill("n2");
            cluster.wipe("n2");
            assertFalse(Files.exists(cluster.dataDir("n2")), "the data directory is gone");
            assertNotEquals(id, cluster.restart("n2").hostId(), "a wiped node starts as a new one");
        }
    }

    @Test
    @DisplayName("a seed draws each node's host id and tokens: the same in two clusters from one seed, apart within one")
    void seeded(@TempDir Path dir) {
        UUID first;
        java.util.List<Long> tokens;
        try (InProcessCluster a = InProcessCluster.builder(dir.resolve("a")).seed(42).build()) {
            first = a.start("n1").hostId();
            tokens = a.node("n1").tokens();
            assertNotEquals(first, a.start("n2").hostId(), "two nodes of one seed differ");
        }
        try (InProcessCluster b = InProcessCluster.builder(dir.resolve("b")).seed(42).build()) {
            TributaryNode n1 = b.start("n1");
            assertEquals(first, n1.hostId());
            assertEquals(tokens, n1.tokens());
            assertTrue(b.zkConnect().startsWith("127.0.0.1:"), b.zkConnect());
        }
    }
}
