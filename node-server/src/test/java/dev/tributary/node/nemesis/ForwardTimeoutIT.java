package dev.tributary.node.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.internal.Murmur3;
import dev.tributary.client.internal.TokenRing;
import dev.tributary.node.NodeProcess;
import dev.tributary.node.TestNodes;
import dev.tributary.node.coord.EmbeddedZooKeeper;
import dev.tributary.node.kit.History;
import dev.tributary.node.net.ErrorMapping;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.SessionState;
import dev.tributary.protocol.v1.Value;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32 (RELIABILITY C7, a paused peer): a node forwarding a write or a read to the node owning
 * its partition, which is stopped with SIGSTOP, answers within the forward's deadline — its
 * {@code --forward-timeout}, or less when the client's own deadline ends sooner — with TIMEOUT
 * naming that node, the write marked outcome unknown; after the owner continues, each such write
 * turned out applied once or not at all (table and CDC log read back as key lists against the
 * {@link History}). Two node processes on 127.0.0.1 at replication factor 1, so the owner is the
 * only node holding the partition; no root needed.
 */
@Tag("integration")
@Timeout(180)
class ForwardTimeoutIT {
    /** The forwarding node's --forward-timeout: short, so the three forwards end well inside the owner's 15 s session. */
    private static final Duration FORWARD_TIMEOUT = Duration.ofSeconds(3);
    /** How late an answer may come beyond its deadline on two loaded cores (the answer's way back, a GC). */
    private static final long SLACK_MILLIS = 1_500;
    private static final int MARKER = -1;

    // kept when a test fails: the nodes' logs are in it
    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
    Path dir;

    private final SessionState session = SessionState.newBuilder().setUsername("test").setSessionId(1).build();

    @Test
    @DisplayName("RELIABILITY C7 (issue 32): a write forwarded to a paused owner ends TIMEOUT naming it, outcome unknown, "
            + "within --forward-timeout or the client's shorter deadline; a forwarded read too; after SIGCONT each such "
            + "write is in the table and the log once or not at all")
    void aForwardToAPausedOwnerTimesOutWithinTheDeadline() throws Exception {
        long seed = Long.getLong("tributary.forward.seed", System.nanoTime());
        System.out.println("ForwardTimeoutIT seed " + seed + " (replay with -Dtributary.forward.seed=" + seed + "), nodes in "
                + dir);
        Random random = new Random(seed);
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0);
                NodeProcess a = node(zk, "a", "--forward-timeout", FORWARD_TIMEOUT.toMillis() + "ms");
                NodeProcess b = node(zk, "b");
                TestNodes.Wire toA = new TestNodes.Wire(a.endpoint())) {
            createTable(toA);
            // a marker row outside the history: the first CDC generation is in force (a ring delay after the start)
            TestNodes.await(() -> {
                try {
                    toA.exec("INSERT INTO ks.t (pk, v) VALUES (" + MARKER + ", 0)");
                    return true;
                } catch (StatusRuntimeException e) {
                    return false;
                }
            }, Duration.ofSeconds(30), "the first CDC generation in force");
            String bHostId = hostId(b);
            TokenRing<String> ring = ring(List.of(a, b));
            List<Integer> ownedByB = new ArrayList<>();
            List<Integer> ownedByA = new ArrayList<>();
            for (int k = random.nextInt(1_000_000); ownedByB.size() < 4 || ownedByA.size() < 3; k++) {
                (ring.owner(Murmur3.token(ByteBuffer.allocate(4).putInt(k).array())).equals(bHostId) ? ownedByB : ownedByA)
                        .add(k);
            }
            History h = new History();
            write(toA, h, ownedByB.get(0), Duration.ofSeconds(30)); // forwarding works, the channel to b is open
            assertEquals(Set.of(ownedByB.get(0)), h.ok(), h.summary() + ": " + h.whyFailed(ownedByB.get(0)));

            b.pause();
            System.out.println(java.time.Instant.now() + " SIGSTOP b (" + bHostId + ")");
            // the option bounds a client that would wait 30 s
            StatusRuntimeException byOption = timedOut(toA, h, ownedByB.get(1), Duration.ofSeconds(30), FORWARD_TIMEOUT);
            assertWriteTimeoutNames(byOption, bHostId, b.endpoint());
            // the client's own 2 s bounds the forward below the option's 3 s, and the node answers first
            StatusRuntimeException byClient = timedOut(toA, h, ownedByB.get(2), Duration.ofSeconds(2), Duration.ofSeconds(2));
            assertWriteTimeoutNames(byClient, bHostId, b.endpoint());
            // a forwarded point read: TIMEOUT naming b, nothing to be unsure of
            long began = System.nanoTime();
            StatusRuntimeException read = assertThrows(StatusRuntimeException.class, () -> toA.cql
                    .withDeadlineAfter(30, TimeUnit.SECONDS).execute(request("SELECT pk FROM ks.t WHERE pk = "
                            + ownedByB.get(0), "")));
            long readMillis = (System.nanoTime() - began) / 1_000_000;
            assertEquals("TIMEOUT", read.getTrailers().get(ErrorMapping.ERROR_CODE), read.toString());
            assertNull(read.getTrailers().get(ErrorMapping.OUTCOME_UNKNOWN), "a read changes nothing");
            assertTrue(read.getStatus().getDescription().contains("read to node " + bHostId), read.toString());
            assertTrue(readMillis <= FORWARD_TIMEOUT.toMillis() + SLACK_MILLIS, "the read answered after " + readMillis + " ms");
            // a's own partitions are served meanwhile
            for (int k : ownedByA) {
                write(toA, h, k, Duration.ofSeconds(30));
            }
            assertTrue(h.ok().containsAll(ownedByA), h.summary());

            b.resume();
            System.out.println(java.time.Instant.now() + " SIGCONT b");
            // b continues within its ZooKeeper session: it still owns its partitions and takes their writes
            assertTrue(write(toA, h, ownedByB.get(3), Duration.ofSeconds(30)), h.whyFailed(ownedByB.get(3)));
            // each timed-out write is now applied once or not at all: in the table at most once, in the log at most once
            List<Integer> table = History.keys(toA, "SELECT pk FROM ks.t");
            List<Integer> log = History.keys(toA, "SELECT pk FROM ks.t_scylla_cdc_log");
            h.verifyRead("the table", table, Set.of(MARKER));
            h.verifyRead("the CDC log", log, Set.of(MARKER));
            h.verifyUnknownAtMost(2);
            System.out.printf("ForwardTimeoutIT seed %d: %s; forward timeouts after the option %s and the client's 2 s; "
                    + "timed-out writes applied: %s%n", seed, h.summary(), FORWARD_TIMEOUT,
                    h.unknown().stream().filter(table::contains).toList());
        }
    }

    private NodeProcess node(EmbeddedZooKeeper zk, String name, String... extra) throws java.io.IOException {
        return NodeProcess.start(dir.resolve(name), TestNodes.concat(new String[] {"--zookeeper", zk.connectString(),
                "--name", name, "--ring-delay", "2s"}, extra));
    }

    private static void createTable(TestNodes.Wire w) {
        w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        w.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
    }

    private static String hostId(NodeProcess n) {
        try (TestNodes.Wire w = new TestNodes.Wire(n.endpoint())) {
            return w.exec("SELECT host_id FROM system.local").getRows(0).getValues(0).getUuid();
        }
    }

    /** Token → host id, from each node's own system.local. */
    private static TokenRing<String> ring(List<NodeProcess> nodes) {
        Map<Long, String> owners = new HashMap<>();
        for (NodeProcess n : nodes) {
            try (TestNodes.Wire w = new TestNodes.Wire(n.endpoint())) {
                var row = w.exec("SELECT host_id, tokens FROM system.local").getRows(0);
                for (Value t : row.getValues(1).getCollection().getElementsList()) {
                    owners.put(Long.parseLong(t.getText()), row.getValues(0).getUuid());
                }
            }
        }
        return TokenRing.of(owners);
    }

    private ExecuteRequest request(String statement, String idempotencyKey) {
        return ExecuteRequest.newBuilder().setStatement(statement).setSession(session).setIdempotencyKey(idempotencyKey)
                .build();
    }

    /** Writes key {@code k} with a client deadline of {@code deadline}, recorded in {@code h}; whether it was acknowledged. */
    private boolean write(TestNodes.Wire w, History h, int k, Duration deadline) {
        h.invoke(0, k);
        try {
            w.cql.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                    .execute(request("INSERT INTO ks.t (pk, v) VALUES (" + k + ", 1)", "k" + k));
            h.ok(k);
            return true;
        } catch (StatusRuntimeException e) {
            h.failed(k, e);
            return false;
        }
    }

    /** Writes {@code k}, which must end TIMEOUT from the node (not the client's own deadline) within {@code bound}. */
    private StatusRuntimeException timedOut(TestNodes.Wire w, History h, int k, Duration clientDeadline, Duration bound) {
        long began = System.nanoTime();
        h.invoke(0, k);
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> w.cql
                .withDeadlineAfter(clientDeadline.toMillis(), TimeUnit.MILLISECONDS)
                .execute(request("INSERT INTO ks.t (pk, v) VALUES (" + k + ", 1)", "k" + k)));
        long millis = (System.nanoTime() - began) / 1_000_000;
        assertEquals(History.Outcome.INFO, h.failed(k, e), "a forward's timeout is an unknown outcome: " + e);
        assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode(), e.toString());
        assertEquals("TIMEOUT", e.getTrailers() == null ? null : e.getTrailers().get(ErrorMapping.ERROR_CODE),
                "the node answered, not the client's own deadline (after " + millis + " ms): " + e);
        assertTrue(millis <= bound.toMillis() + SLACK_MILLIS, "answered after " + millis + " ms, bound " + bound);
        System.out.println("write of " + k + " (client deadline " + clientDeadline + "): " + millis + " ms, " + e.getStatus());
        return e;
    }

    private static void assertWriteTimeoutNames(StatusRuntimeException e, String hostId, String endpoint) {
        assertEquals("true", e.getTrailers().get(ErrorMapping.OUTCOME_UNKNOWN), "marked outcome unknown: " + e);
        assertNull(e.getTrailers().get(ErrorMapping.NOT_APPLIED), "never marked not applied: " + e);
        String m = e.getStatus().getDescription();
        assertTrue(m.startsWith("the forward to node " + hostId + " (" + endpoint + ")") && m.contains("outcome is unknown"),
                m);
    }
}
