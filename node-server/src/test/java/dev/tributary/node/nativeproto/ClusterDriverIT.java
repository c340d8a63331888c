package dev.tributary.node.nativeproto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.Node;
import dev.tributary.generations.Murmur3Partitioner;
import dev.tributary.generations.TokenRing;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.InProcessCluster;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java driver 4 against a cluster: it learns every node and its native port from
 * system.peers, routes prepared statements by token to the owner (no node forwards a write),
 * reads every node's rows through any node, and follows the cluster by the events it registered
 * for: a table created through another node, a node joining.
 */
@Timeout(300)
class ClusterDriverIT {
    private static final Duration RING_DELAY = Duration.ofMillis(1500);

    @TempDir
    Path dir;

    private static long forwarded(TributaryNode n) {
        try (TestNodes.Wire w = new TestNodes.Wire(n)) {
            return (Long) w.scalar("SELECT forwarded_writes FROM system_views.request_routing");
        }
    }

    private static long token(int pk) {
        return Murmur3Partitioner.token(ByteBuffer.allocate(4).putInt(pk).array());
    }

    @Test
    @DisplayName("prepared statements routed by token on 3 nodes; gathered reads; schema and topology events")
    void routesByTokenAndFollowsEvents() throws Exception {
        try (InProcessCluster cluster = InProcessCluster.builder(dir).ringDelay(RING_DELAY).build()) {
            TributaryNode n1 = cluster.start("n1");
            TributaryNode n2 = cluster.start("n2");
            try (CqlSession session = JavaDriverIT.connect(n1.nativeEndpoint())) {
                List<TributaryNode> nodes = new java.util.ArrayList<>(List.of(n1, n2));
                TestNodes.await(() -> session.getMetadata().getNodes().size() == 2, Duration.ofSeconds(20),
                        "the driver to know both nodes from system.peers");
                for (Node d : session.getMetadata().getNodes().values()) {
                    TributaryNode n = d.getHostId().equals(n1.hostId()) ? n1 : n2;
                    assertEquals(n.nativeEndpoint(), "127.0.0.1:" + ((java.net.InetSocketAddress) d.getEndPoint().resolve()).getPort(),
                            "the driver reaches each node at its native port");
                }

                // a table made through node 2's gRPC API: the driver on node 1 hears of it by a SCHEMA_CHANGE event
                try (TestNodes.Wire w2 = new TestNodes.Wire(n2)) {
                    w2.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
                    w2.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
                }
                TestNodes.await(() -> session.getMetadata().getKeyspace("ks").flatMap(k -> k.getTable("t")).isPresent(),
                        Duration.ofSeconds(20), "the driver's schema to show ks.t after the event");

                // a third node joins: the driver learns it from a TOPOLOGY_CHANGE event
                TributaryNode n3 = cluster.start("n3");
                nodes.add(n3);
                TestNodes.await(() -> session.getMetadata().getNodes().size() == 3
                        && session.getMetadata().getNodes().values().stream().allMatch(d -> d.getState()
                                == com.datastax.oss.driver.api.core.metadata.NodeState.UP),
                        Duration.ofSeconds(30), "the driver to know the joining node and connect to it");
                TestNodes.await(() -> session.getMetadata().getTokenMap().map(m -> m.getTokenRanges().size() == 3 * 8)
                        .orElse(false), Duration.ofSeconds(30), "the driver's token map over the three nodes' vnodes");
                // writes wait for the generation made by the join to be in force
                long joined = n3.generations().latest().orElseThrow().timestampMillis();
                TestNodes.await(() -> System.currentTimeMillis() > joined, Duration.ofSeconds(20),
                        "the join's generation to be in force");

                long before = nodes.stream().mapToLong(ClusterDriverIT::forwarded).sum();
                PreparedStatement insert = session.prepare("INSERT INTO ks.t (pk, v) VALUES (?, ?)");
                int rows = 300;
                for (int pk = 0; pk < rows; pk++) {
                    session.execute(insert.bind(pk, "v" + pk));
                }
                assertEquals(before, nodes.stream().mapToLong(ClusterDriverIT::forwarded).sum(),
                        "the driver sent every prepared write to its owner: no node forwarded one");
                TokenRing ring = TokenRing.empty();
                Map<String, TributaryNode> byId = new HashMap<>();
                for (TributaryNode n : nodes) {
                    ring = ring.with(n.hostId().toString(), n.tokens());
                    byId.put(n.hostId().toString(), n);
                }
                for (int pk = 0; pk < rows; pk += 37) {
                    TributaryNode owner = byId.get(ring.owner(token(pk)));
                    assertEquals(1, TestNodes.localOnly(owner, "SELECT v FROM ks.t WHERE pk = " + pk).getRowsCount(),
                            "row " + pk + " is on the owner of its token");
                }
                // a read through any node gathers every node's rows
                assertEquals(rows, session.execute("SELECT count(*) FROM ks.t").one().getLong(0));
                Row agg = session.execute("SELECT min(pk), max(pk), count(*) FROM ks.t").one();
                assertEquals(0, agg.getInt(0), "min over every node's rows");
                assertEquals(rows - 1, agg.getInt(1), "max over every node's rows");
                assertEquals(rows, agg.getLong(2));
                int seen = 0;
                for (Row r : session.execute("SELECT pk FROM ks.t")) {
                    seen++;
                }
                assertEquals(rows, seen);
                UUID n3Id = n3.hostId();
                assertTrue(session.getMetadata().getNodes().values().stream().anyMatch(d -> n3Id.equals(d.getHostId())));
            }
        }
    }
}
