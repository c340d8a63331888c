package dev.tributary.node.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.generations.Murmur3Partitioner;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.InProcessCluster;
import dev.tributary.protocol.v1.BatchRequest;
import dev.tributary.protocol.v1.BatchStatement;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.SessionState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14: a write whose first answer was lost is sent again with the same idempotency key — to
 * the same node, to another one (which forwards it to the owner), or after the owner was killed
 * and restarted — and changes the row once and logs one LCR.
 */
@Timeout(180)
class IdempotentWriteIT {
    private static final SessionState SESSION = SessionState.newBuilder().setUsername("writer").setSessionId(7).build();

    private static ExecuteResponse insert(CqlServiceGrpc.CqlServiceBlockingStub stub, String stmt, String key) {
        ExecuteRequest.Builder r = ExecuteRequest.newBuilder().setStatement(stmt).setSession(SESSION);
        if (key != null) {
            r.setIdempotencyKey(key);
        }
        return stub.withDeadlineAfter(30, TimeUnit.SECONDS).execute(r.build());
    }

    private static long count(TestNodes.Wire w, String query) {
        return w.exec(query).getRows(0).getValues(0).getInteger();
    }

    private static void awaitLogged(TestNodes.Wire w, long n) {
        TestNodes.await(() -> count(w, "SELECT count(*) FROM ks.t_scylla_cdc_log") >= n, Duration.ofSeconds(20), n + " LCRs");
    }

    private static void schema(TestNodes.Wire w) {
        w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
        w.exec("CREATE TABLE ks.t (pk int, v int, PRIMARY KEY (pk)) WITH cdc = {'enabled': true}");
    }

    /** Node 2 joining node 1's cluster, once the two-node generation is in force on both. */
    private static TributaryNode joiningNode(InProcessCluster cluster, TributaryNode n1) {
        TributaryNode n2 = cluster.start("n2");
        long gen2 = n2.generations().latest().orElseThrow().timestampMillis();
        TestNodes.await(() -> System.currentTimeMillis() >= gen2 && n1.generations().latest().orElseThrow()
                .timestampMillis() == gen2, Duration.ofSeconds(10), "the two-node generation");
        return n2;
    }

    /** What a test does with two nodes of one cluster, the schema made on the first before the second joined. */
    private interface TwoNodes {
        void run(TributaryNode n1, TestNodes.Wire w1, TributaryNode n2, TestNodes.Wire w2) throws Exception;
    }

    private static void withTwoNodes(Path dir, TwoNodes test) throws Exception {
        try (InProcessCluster cluster = InProcessCluster.builder(dir).build()) {
            TributaryNode n1 = cluster.startOperating("n1");
            schema(cluster.wire("n1"));
            TributaryNode n2 = joiningNode(cluster, n1);
            test.run(n1, cluster.wire("n1"), n2, cluster.wire("n2"));
        }
    }

    @Test
    @DisplayName("a repeated write (and batch) with one key applies once and answers with the first commit; "
            + "another key, or none, applies again; a key too long is refused by name")
    void aRepeatAppliesOnce(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            schema(w);
            String incr = "UPDATE ks.t SET v = 1 WHERE pk = 1";
            ExecuteResponse first = insert(w.cql, incr, "k-1");
            ExecuteResponse again = insert(w.cql, incr, "k-1");
            assertEquals(first.getCommitScn(), again.getCommitScn(), "the first commit's SCN");
            assertEquals(first.getTransactionId(), again.getTransactionId());
            awaitLogged(w, 1);
            ExecuteResponse other = insert(w.cql, incr, "k-2");
            assertNotEquals(first.getCommitScn(), other.getCommitScn(), "another key is another write");
            awaitLogged(w, 2);
            assertEquals(2, count(w, "SELECT count(*) FROM ks.t_scylla_cdc_log"), "the repeat logged nothing");

            BatchRequest batch = BatchRequest.newBuilder().setSession(SESSION).setIdempotencyKey("b-1")
                    .addStatements(BatchStatement.newBuilder().setStatement("INSERT INTO ks.t (pk, v) VALUES (10, 10)"))
                    .addStatements(BatchStatement.newBuilder().setStatement("INSERT INTO ks.t (pk, v) VALUES (11, 11)")).build();
            ExecuteResponse b1 = w.cql.executeBatch(batch);
            ExecuteResponse b2 = w.cql.executeBatch(batch);
            assertEquals(b1.getTransactionId(), b2.getTransactionId());
            awaitLogged(w, 4);
            w.exec("DELETE FROM ks.t WHERE pk = 10"); // a later write; the repeat must not bring the row back
            assertEquals(b1.getCommitScn(), w.cql.executeBatch(batch).getCommitScn());
            assertEquals(0, w.exec("SELECT * FROM ks.t WHERE pk = 10").getRowsCount(), "the repeated batch did not apply");
            awaitLogged(w, 5);
            assertEquals(5, count(w, "SELECT count(*) FROM ks.t_scylla_cdc_log"));

            StatusRuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
                    () -> insert(w.cql, incr, "x".repeat(IdempotencyKeys.MAX_KEY_BYTES + 1)));
            assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
            assertTrue(e.getStatus().getDescription().contains("idempotency_key"), e.getStatus().getDescription());
        }
    }

    @Test
    @DisplayName("a batch over partitions of both nodes, retried through the other node, applies once: both run it at "
            + "one of them, where its key is kept")
    void aBatchOverTwoNodesRetriedThroughTheOtherAppliesOnce(@TempDir Path dir) throws Exception {
        withTwoNodes(dir, (n1, w1, n2, w2) -> {
            int onN1 = ownedBy(n1, n1.hostId().toString());
            int onN2 = ownedBy(n1, n2.hostId().toString());
            BatchRequest batch = BatchRequest.newBuilder().setSession(SESSION).setIdempotencyKey("two-nodes-1")
                    .addStatements(BatchStatement.newBuilder().setStatement("INSERT INTO ks.t (pk, v) VALUES (" + onN1 + ", 1)"))
                    .addStatements(BatchStatement.newBuilder().setStatement("INSERT INTO ks.t (pk, v) VALUES (" + onN2 + ", 2)"))
                    .build();
            ExecuteResponse a = w1.cql.executeBatch(batch);
            ExecuteResponse b = w2.cql.executeBatch(batch);
            assertEquals(a.getTransactionId(), b.getTransactionId(), "the retry answers with the first commit");
            assertEquals(a.getCommitScn(), b.getCommitScn());
            awaitLogged(w1, 2);
            assertEquals(2, count(w1, "SELECT count(*) FROM ks.t_scylla_cdc_log"), "one LCR per row, once");
        });
    }

    /** The first pk from 0 whose token {@code node} routes to {@code owner}. */
    private static int ownedBy(TributaryNode node, String owner) {
        for (int pk = 0; pk < 10_000; pk++) {
            if (node.ringOwner(Murmur3Partitioner.token(java.nio.ByteBuffer.allocate(4).putInt(pk).array())).equals(owner)) {
                return pk;
            }
        }
        throw new AssertionError("no pk below 10,000 is owned by " + owner);
    }

    @Test
    @DisplayName("the retry reaches another node: it forwards the key with the write to the owner, which applies it once")
    void aRetryThroughAnotherNodeAppliesOnce(@TempDir Path dir) throws Exception {
        withTwoNodes(dir, (n1, w1, n2, w2) -> {
            // 20 keys: whichever node owns each, one of the two attempts is forwarded
            for (int pk = 0; pk < 20; pk++) {
                String stmt = "INSERT INTO ks.t (pk, v) VALUES (" + pk + ", " + pk + ")";
                ExecuteResponse a = insert(w1.cql, stmt, "r-" + pk);
                ExecuteResponse b = insert(w2.cql, stmt, "r-" + pk);
                assertEquals(a.getTransactionId(), b.getTransactionId(), "pk " + pk);
            }
            awaitLogged(w1, 20);
            assertEquals(20, count(w1, "SELECT count(*) FROM ks.t_scylla_cdc_log"), "one LCR per write");
        });
    }

    @Test
    @DisplayName("the retry reaches the partition's new owner after its range moved, in a join or a decommission: "
            + "the keys moved with the rows, and it applies nothing")
    void aRetryReachingTheNewOwnerAfterARangeMovedAppliesOnce(@TempDir Path dir) throws Exception {
        try (InProcessCluster cluster = InProcessCluster.builder(dir).build()) {
            TributaryNode n1 = cluster.startOperating("n1");
            TestNodes.Wire w1 = cluster.wire("n1");
            schema(w1);
            java.util.Map<Integer, String> first = new java.util.HashMap<>();
            for (int pk = 0; pk < 40; pk++) {
                first.put(pk, insert(w1.cql, "INSERT INTO ks.t (pk, v) VALUES (" + pk + ", 0)", "j-" + pk).getTransactionId());
            }
            TributaryNode n2 = joiningNode(cluster, n1);
            TestNodes.Wire w2 = cluster.wire("n2");
            long moved = TestNodes.localOnly(n2, "SELECT pk FROM ks.t").getRowsCount();
            assertTrue(moved > 0 && moved < 40, "the join moved some of the rows to node 2: " + moved);
            // the first answers were lost: the client retries through the node that joined
            for (int pk = 0; pk < 40; pk++) {
                assertEquals(first.get(pk), insert(w2.cql, "INSERT INTO ks.t (pk, v) VALUES (" + pk + ", 0)", "j-" + pk)
                        .getTransactionId(), "pk " + pk + " answered with its first commit");
            }
            // writes that node 2 applies, then node 2 leaves: their retries reach node 1
            for (int pk = 100; pk < 140; pk++) {
                first.put(pk, insert(w2.cql, "INSERT INTO ks.t (pk, v) VALUES (" + pk + ", 0)", "d-" + pk).getTransactionId());
            }
            w2.exec("CALL system.decommission()");
            cluster.kill("n2");
            for (int pk = 100; pk < 140; pk++) {
                assertEquals(first.get(pk), insert(w1.cql, "INSERT INTO ks.t (pk, v) VALUES (" + pk + ", 0)", "d-" + pk)
                        .getTransactionId(), "pk " + pk + " answered with its first commit");
            }
            insert(w1.cql, "INSERT INTO ks.t (pk, v) VALUES (1000, 0)", "marker");
            awaitLogged(w1, 81);
            assertEquals(81, count(w1, "SELECT count(*) FROM ks.t_scylla_cdc_log"), "one LCR per write: no retry applied");
        }
    }

    @Test
    @DisplayName("the owner is killed (SIGKILL) after the commit and restarted: the retry applies nothing and gets the first answer")
    void aRetryAfterTheOwnerWasKilledAppliesOnce(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("node");
        ExecuteResponse first;
        try (dev.tributary.node.NodeProcess node = dev.tributary.node.NodeProcess.start(data)) {
            ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
            CqlServiceGrpc.CqlServiceBlockingStub stub = CqlServiceGrpc.newBlockingStub(ch);
            insert(stub, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}", null);
            insert(stub, "CREATE TABLE ks.t (pk int, v int, PRIMARY KEY (pk)) WITH cdc = {'enabled': true}", null);
            long gen = insert(stub, "SELECT time FROM system_distributed.cdc_generation_timestamps", null).getRows(0).getValues(0)
                    .getTimestampMillis();
            TestNodes.await(() -> System.currentTimeMillis() >= gen, Duration.ofSeconds(10), "the first generation");
            first = insert(stub, "INSERT INTO ks.t (pk, v) VALUES (1, 1)", "kill-1");
            node.kill(); // as if the answer was lost with the node
            ch.shutdownNow();
        }
        try (dev.tributary.node.NodeProcess node = dev.tributary.node.NodeProcess.start(data)) {
            ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
            CqlServiceGrpc.CqlServiceBlockingStub stub = CqlServiceGrpc.newBlockingStub(ch);
            ExecuteResponse retry = insert(stub, "INSERT INTO ks.t (pk, v) VALUES (1, 1)", "kill-1");
            assertEquals(first.getCommitScn(), retry.getCommitScn());
            assertEquals(first.getTransactionId(), retry.getTransactionId());
            TestNodes.await(() -> insert(stub, "SELECT count(*) FROM ks.t_scylla_cdc_log", null).getRows(0).getValues(0)
                    .getInteger() >= 1, Duration.ofSeconds(20), "the LCR");
            insert(stub, "INSERT INTO ks.t (pk, v) VALUES (2, 2)", "after");
            TestNodes.await(() -> insert(stub, "SELECT count(*) FROM ks.t_scylla_cdc_log", null).getRows(0).getValues(0)
                    .getInteger() >= 2, Duration.ofSeconds(20), "the later write's LCR");
            assertEquals(2, insert(stub, "SELECT count(*) FROM ks.t_scylla_cdc_log", null).getRows(0).getValues(0).getInteger(),
                    "one LCR for the write and its retry, one for the later write");
            ch.shutdownNow();
        }
    }

    @Test
    @DisplayName("RELIABILITY P6: a write answered DEADLINE_EXCEEDED by a real node (paused with SIGSTOP while it was on "
            + "its way), its retry sent while the first attempt is still unanswered, and a later retry: applied once, "
            + "every answer that commits names one SCN")
    void aWriteThatTimedOutAndItsRetriesApplyOnce(@TempDir Path dir) throws Exception {
        try (dev.tributary.node.NodeProcess node = dev.tributary.node.NodeProcess.start(dir.resolve("node"))) {
            ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
            try {
                CqlServiceGrpc.CqlServiceBlockingStub stub = CqlServiceGrpc.newBlockingStub(ch);
                insert(stub, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}", null);
                insert(stub, "CREATE TABLE ks.t (pk int, v int, PRIMARY KEY (pk)) WITH cdc = {'enabled': true}", null);
                long gen = insert(stub, "SELECT time FROM system_distributed.cdc_generation_timestamps", null).getRows(0)
                        .getValues(0).getTimestampMillis();
                TestNodes.await(() -> System.currentTimeMillis() >= gen, Duration.ofSeconds(10), "the first generation");
                ExecuteRequest write = ExecuteRequest.newBuilder().setStatement("INSERT INTO ks.t (pk, v) VALUES (1, 1)")
                        .setSession(SESSION).setIdempotencyKey("p6-1").build();
                CqlServiceGrpc.CqlServiceFutureStub async = CqlServiceGrpc.newFutureStub(ch);
                com.google.common.util.concurrent.ListenableFuture<ExecuteResponse> retry;
                node.pause();
                try {
                    StatusRuntimeException timedOut = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
                            () -> stub.withDeadlineAfter(1, TimeUnit.SECONDS).execute(write));
                    assertEquals(Status.Code.DEADLINE_EXCEEDED, timedOut.getStatus().getCode());
                    // the first attempt's bytes wait in the node's socket beside this one's: both arrive together
                    retry = async.withDeadlineAfter(60, TimeUnit.SECONDS).execute(write);
                } finally {
                    node.resume();
                }
                ExecuteResponse second = retry.get(60, TimeUnit.SECONDS);
                ExecuteResponse third = insert(stub, "INSERT INTO ks.t (pk, v) VALUES (1, 1)", "p6-1");
                assertEquals(second.getCommitScn(), third.getCommitScn(), "the later retry answers with the first commit");
                assertEquals(second.getTransactionId(), third.getTransactionId());
                insert(stub, "INSERT INTO ks.t (pk, v) VALUES (2, 2)", "p6-after");
                TestNodes.await(() -> insert(stub, "SELECT count(*) FROM ks.t_scylla_cdc_log", null).getRows(0).getValues(0)
                        .getInteger() >= 2, Duration.ofSeconds(20), "the later write's LCR");
                assertEquals(1, insert(stub, "SELECT count(*) FROM ks.t_scylla_cdc_log WHERE pk = 1 ALLOW FILTERING", null)
                        .getRows(0).getValues(0).getInteger(), "one LCR for the write, its timed-out attempt and two retries");
            } finally {
                ch.shutdownNow();
            }
        }
    }
}
