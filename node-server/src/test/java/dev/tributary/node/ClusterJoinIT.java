package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.generations.Generation;
import dev.tributary.generations.StreamId;
import dev.tributary.generations.TokenRing;
import dev.tributary.generations.Vnode;
import dev.tributary.node.kit.InProcessCluster;
import dev.tributary.protocol.v1.ExecuteResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real nodes in one JVM (separate RocksDB, ports and data dirs, one ZooKeeper): a join makes a
 * new generation, and a DDL statement on either node reaches both through the schema log.
 */
@Timeout(180)
class ClusterJoinIT {
    private static final Duration RING_DELAY = Duration.ofMillis(1500);

    private static List<Long> generationTimes(TestNodes.Wire w) {
        return w.exec("SELECT time FROM system_distributed.cdc_generation_timestamps WHERE key = 'timestamps'")
                .getRowsList().stream().map(r -> r.getValues(0).getTimestampMillis()).toList();
    }

    /** The DDL LCRs of a command type in one node's part of ks.t's CDC log. */
    private static long ddlLcrs(TestNodes.Wire w, String commandType) {
        long n = 0;
        var it = w.changes.readChanges(dev.tributary.protocol.v1.ReadChangesRequest.newBuilder().setTable("ks.t").build());
        while (it.hasNext()) {
            var l = it.next();
            if (l.getLcr().equals("DDL") && l.getCommandType().equals(commandType)) {
                n++;
            }
        }
        return n;
    }

    /** The streams the log holds changes of a partition in. */
    private static java.util.Set<StreamId> streamsOf(TestNodes.Wire w, int pk) {
        ExecuteResponse log = w.exec("SELECT \"cdc$stream_id\", pk FROM ks.t_scylla_cdc_log");
        java.util.Set<StreamId> out = new java.util.LinkedHashSet<>();
        for (var r : log.getRowsList()) {
            if (r.getValues(1).getInteger() == pk) {
                out.add(StreamId.fromBytes(r.getValues(0).getBlob().toByteArray()));
            }
        }
        return out;
    }

    @Test
    @DisplayName("CDC-GEN-2 CDC-GEN-7 CDC-GEN-6: a node joining creates a second generation a ring delay ahead; the same key is then logged in a stream of the new generation, still in the vnode of its token")
    void joinMakesANewGeneration(@TempDir Path dir) throws Exception {
        try (InProcessCluster cluster = InProcessCluster.builder(dir).ringDelay(RING_DELAY).build()) {
            TributaryNode first = cluster.startOperating("n1");
            TestNodes.Wire w1 = cluster.wire("n1");
            w1.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            w1.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            w1.exec("INSERT INTO ks.t (pk, ck, v) VALUES (0, 0, 0)");
            TestNodes.await(() -> streamsOf(w1, 0).size() == 1, Duration.ofSeconds(20), "the first LCR");
            StreamId before = streamsOf(w1, 0).iterator().next();
            for (int pk = 1000; pk < 1100; pk++) {
                w1.exec("INSERT INTO ks.t (pk, ck, v) VALUES (" + pk + ", 0, " + pk + ")");
            }
            // every insert logged before the join, so a change in the count after it can only be the join's
            TestNodes.await(() -> w1.exec("SELECT count(*) FROM ks.t_scylla_cdc_log").getRows(0).getValues(0).getInteger() == 101,
                    Duration.ofSeconds(20), "the 101 inserts logged");
            long logBefore = 101;

            long joinedAt = System.currentTimeMillis();
            String[] secondId = new String[1];
            long[] onNode1 = {-1};
            long[] onNode2 = {-1};
            TributaryNode second = cluster.start("n2");
            TestNodes.Wire w2 = cluster.wire("n2");
            secondId[0] = second.hostId().toString();
            TestNodes.await(() -> generationTimes(w1).size() == 2, Duration.ofSeconds(10), "node 1 to see the new generation");
            List<Long> times = generationTimes(w2);
            assertEquals(2, times.size(), "node 2 sees both generations");
            assertEquals(generationTimes(w1), times);
            assertTrue(times.get(0) > times.get(1), "newest first");
            assertTrue(times.get(0) >= joinedAt + RING_DELAY.toMillis(), "the new generation starts a ring delay ahead");

            assertEquals(logBefore, w1.exec("SELECT count(*) FROM ks.t_scylla_cdc_log").getRows(0).getValues(0).getInteger(),
                    "moving rows at the join is not a change: no LCR");

            // the schema reached the joining node through the schema log, and DDL runs on either node
            assertEquals(101, w2.exec("SELECT * FROM ks.t").getRowsCount(), "node 2 knows ks.t and reads every row");
            ExecuteResponse peer = w1.exec("SELECT host_id, grpc_port, state FROM system.peers");
            assertEquals(1, peer.getRowsCount());
            assertEquals(second.hostId().toString(), peer.getRows(0).getValues(0).getUuid());
            assertEquals(Long.parseLong(second.endpoint().substring(second.endpoint().lastIndexOf(':') + 1)),
                    peer.getRows(0).getValues(1).getInteger());
            TestNodes.await(() -> "NORMAL".equals(w1.exec("SELECT state FROM system.peers").getRows(0).getValues(0).getText()),
                    Duration.ofSeconds(10), "node 2 NORMAL once it took over its ranges");
            assertEquals("NORMAL", w2.exec("SELECT state FROM system.local").getRows(0).getValues(0).getText());
            // two nodes without replication keep one copy of their data: a keyspace asking for two is refused its writes
            w2.exec("CREATE KEYSPACE rf2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}");
            w2.exec("CREATE TABLE rf2.t (pk int PRIMARY KEY, v int)");
            io.grpc.StatusRuntimeException rf2 = org.junit.jupiter.api.Assertions.assertThrows(
                    io.grpc.StatusRuntimeException.class, () -> w2.exec("INSERT INTO rf2.t (pk, v) VALUES (1, 1)"));
            assertEquals(io.grpc.Status.Code.UNAVAILABLE, rf2.getStatus().getCode());
            assertEquals("Cannot achieve replication_factor 2 for keyspace rf2: node " + second.hostId() + " runs without "
                    + "replication and keeps 1 copy of its data; start the nodes with --replication raft (local-cluster "
                    + "does) and a ZooKeeper of their own", rf2.getStatus().getDescription());
            w2.exec("ALTER TABLE ks.t ADD w text");
            TestNodes.await(() -> w1.exec("SELECT * FROM system_schema.columns WHERE keyspace_name = 'ks' AND table_name = 't'")
                    .getRowsList().stream().anyMatch(r -> r.toString().contains("\"w\"")), Duration.ofSeconds(10),
                    "node 1 to apply node 2's ALTER");
            // the CDC log is one log for the cluster: the ALTER's DDL LCR is in it once, from the node that ran it
            TestNodes.await(() -> ddlLcrs(w1, "ALTER TABLE") + ddlLcrs(w2, "ALTER TABLE") >= 1, Duration.ofSeconds(10),
                    "the ALTER's DDL LCR");
            assertEquals(0, ddlLcrs(w1, "ALTER TABLE"), "node 1 applied the ALTER from the schema log and does not log it");
            assertEquals(1, ddlLcrs(w2, "ALTER TABLE"), "node 2 ran it and logs it once");

            long gen2 = times.get(0);
            TestNodes.await(() -> System.currentTimeMillis() >= gen2, Duration.ofSeconds(10), "the second generation");
            w1.exec("INSERT INTO ks.t (pk, ck, v, w) VALUES (0, 1, 1, 'after')");
            TestNodes.await(() -> streamsOf(w1, 0).size() == 2, Duration.ofSeconds(20), "the LCR in the new stream");
            StreamId after = streamsOf(w1, 0).stream().filter(x -> !x.equals(before)).findFirst().orElseThrow();
            assertNotEquals(before, after, "the same key in two streams, one per generation");
            Generation g2 = first.generations().latest().orElseThrow();
            assertEquals(gen2, g2.timestampMillis());
            long token = w1.exec("SELECT token(pk) FROM ks.t WHERE pk = 0").getRows(0).getValues(0).getInteger();
            assertEquals(after, g2.streamFor(token));
            TokenRing ring = TokenRing.empty().with("n", g2.vnodes().stream().map(v -> v.rangeEnd()).toList());
            Vnode vnode = ring.vnodeOf(token);
            assertTrue(vnode.contains(after.token()), "the new stream's token is in the vnode of token(pk)");
            assertEquals(16, g2.vnodes().size(), "the new generation covers both nodes' vnodes");

            // range streaming moved the rows of node 2's new ranges there, and made no LCR
            TokenRing joined = TokenRing.empty().with(first.hostId().toString(), first.tokens())
                    .with(second.hostId().toString(), second.tokens());
            long onSecond = TestNodes.localOnly(second, "SELECT pk FROM ks.t").getRowsCount();
            assertTrue(onSecond > 0, "node 2 took over rows of its ranges");
            for (TributaryNode n : List.of(first, second)) {
                for (var r : TestNodes.localOnly(n, "SELECT pk, token(pk) FROM ks.t").getRowsList()) {
                    assertEquals(n.hostId().toString(), joined.owner(r.getValues(1).getInteger()),
                            "row " + r.getValues(0).getInteger() + " sits on the owner of its token after the join");
                }
            }
            w2.exec("UPDATE ks.t SET v = -1 WHERE pk = 1001 AND ck = 0");
            assertEquals(List.of(-1L), w1.exec("SELECT v FROM ks.t WHERE pk = 1001 AND ck = 0").getRowsList().stream()
                    .map(r -> r.getValues(0).getInteger()).toList(), "one copy of the row, updated where it lives");

            // writes go to the owner of their token, whichever node receives them; reads gather every node
            for (int pk = 100; pk < 140; pk++) {
                (pk % 2 == 0 ? w1 : w2).exec("INSERT INTO ks.t (pk, ck, v) VALUES (" + pk + ", 0, " + pk + ")");
            }
            TokenRing owners = TokenRing.empty().with(first.hostId().toString(), first.tokens())
                    .with(second.hostId().toString(), second.tokens());
            for (TributaryNode n : List.of(first, second)) {
                for (var r : TestNodes.localOnly(n, "SELECT pk, token(pk) FROM ks.t").getRowsList()) {
                    long pk = r.getValues(0).getInteger();
                    if (pk >= 100) {
                        assertEquals(n.hostId().toString(), owners.owner(r.getValues(1).getInteger()),
                                "row " + pk + " is stored on the owner of its token");
                        (n == first ? onNode1 : onNode2)[0] = pk;
                    }
                }
            }
            // a point read goes to its partition's owner alone, whichever node receives it; a scan gathers
            long readsForwarded = forwardedReads(w1) + forwardedReads(w2);
            for (long pk : new long[] {onNode1[0], onNode2[0]}) {
                for (TestNodes.Wire w : List.of(w1, w2)) {
                    assertEquals(List.of(pk), w.exec("SELECT v FROM ks.t WHERE pk = " + pk + " AND ck = 0").getRowsList().stream()
                            .map(r -> r.getValues(0).getInteger()).toList());
                    assertEquals(1, w.exec("SELECT v FROM ks.t WHERE pk IN (" + pk + ") AND ck IN (0, 1)").getRowsCount());
                }
            }
            assertEquals(readsForwarded + 4, forwardedReads(w1) + forwardedReads(w2),
                    "each node sent the reads of the other's partition there, and answered its own");
            assertEquals(1, w1.exec("SELECT v FROM ks.t WHERE pk IN (" + onNode1[0] + ", " + onNode2[0] + ") AND ck = 0 AND v = "
                    + onNode2[0] + " ALLOW FILTERING").getRowsCount(), "partitions of two nodes are gathered");
            assertEquals(readsForwarded + 4, forwardedReads(w1) + forwardedReads(w2));
            assertEquals(142L, w2.exec("SELECT count(*) FROM ks.t").getRows(0).getValues(0).getInteger(),
                    "count(*) adds up every node's rows");
            assertEquals(5, w1.exec("SELECT * FROM ks.t LIMIT 5").getRowsCount());
            cluster.kill("n2");
            // node 2 is down and its keyspace has one copy: a read of the table would be short, so it is refused
            java.util.concurrent.atomic.AtomicReference<io.grpc.StatusRuntimeException> shortRead = new java.util.concurrent.atomic.AtomicReference<>();
            TestNodes.await(() -> {
                try {
                    w1.exec("SELECT count(*) FROM ks.t");
                    return false; // node 2's registration is not gone yet
                } catch (io.grpc.StatusRuntimeException e) {
                    shortRead.set(e);
                    return true;
                }
            }, Duration.ofSeconds(30), "a read of ks.t refused while node 2 is down");
            assertEquals(io.grpc.Status.Code.UNAVAILABLE, shortRead.get().getStatus().getCode());
            assertTrue(shortRead.get().getStatus().getDescription().contains("node " + secondId[0] + " is down"),
                    shortRead.get().getStatus().getDescription());
            // its ranges went to node 1, which holds none of the rows written before: a point read is refused too
            io.grpc.StatusRuntimeException pointRead = org.junit.jupiter.api.Assertions.assertThrows(
                    io.grpc.StatusRuntimeException.class, () -> w1.exec("SELECT v FROM ks.t WHERE pk = " + onNode2[0] + " AND ck = 0"));
            assertEquals(io.grpc.Status.Code.UNAVAILABLE, pointRead.getStatus().getCode());
            assertTrue(pointRead.getStatus().getDescription().contains("node " + secondId[0] + " is down"),
                    pointRead.getStatus().getDescription());
            // a restart of a member with its old tokens makes no generation
            assertEquals(2, generationTimes(w1).size());
        }
    }

    private static long forwardedReads(TestNodes.Wire w) {
        return w.exec("SELECT forwarded_reads FROM system_views.request_routing").getRows(0).getValues(0).getInteger();
    }
}
