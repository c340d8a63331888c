package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.StartPosition;
import dev.tributary.client.TributaryClient;
import dev.tributary.node.kit.DeliveryChecker;
import dev.tributary.node.kit.UniqueWriters;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY.md D2: the clean-stop counterpart of {@link KillRestartIT}. A node stopped with
 * SIGTERM while writers and a change consumer run, then restarted on its data directory, loses
 * nothing acknowledged and — unlike after kill -9 — makes nobody see anything twice: the log holds
 * each write once, and a consumer that does not dedupe by position is handed each write once, in
 * order per stream. A round takes 10 to 20 s on 2 cores: the timeout leaves room for about a dozen.
 */
@Tag("integration")
@Timeout(300)
class SigtermRestartIT {
    /** How many SIGTERM/restart rounds; EXT runs more. */
    private static final int RESTARTS = Integer.getInteger("tributary.d2.restarts", 3);
    /** Acknowledged writes before the first stop and after each restart: each stop lands in a stream of writes. */
    private static final int WRITES_BETWEEN = 300;

    // kept when the test fails: the node's log (node.stderr.log) is in it
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path tmp;

    @Test
    @DisplayName("RELIABILITY D2: SIGTERM under write load and restart on the same data dir, 3 times (tributary.d2.restarts): "
            + "every acknowledged write in the table and the log exactly once, handed to a consumer exactly once with no raw "
            + "repeat, in order per stream")
    void sigtermRestartsUnderLoadLoseAndRepeatNothing() throws Exception {
        Path dir = tmp.resolve("node");
        NodeProcess node = NodeProcess.start(dir);
        // the same port after each restart: the client and the consumer know the node by its endpoint only
        int port = Integer.parseInt(node.endpoint().substring(node.endpoint().lastIndexOf(':') + 1));
        try (TributaryClient client = TributaryClient.builder().endpoints(node.endpoint()).build()) {
            client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            client.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
            // before the first generation is in force a CDC table refuses writes (no stream for them)
            Instant firstGeneration = client.execute("SELECT time FROM system_distributed.cdc_generation_timestamps").one()
                    .getInstant(0);
            TestNodes.await(() -> Instant.now().isAfter(firstGeneration), Duration.ofSeconds(10), "the first generation");

            DeliveryChecker checker = new DeliveryChecker();
            UniqueWriters writers = UniqueWriters.pkV();
            try (ChangeConsumer consumer = ChangeConsumer.builder(client).table("ks.t").start(StartPosition.earliest())
                    .handler(checker::record).build(); writers) {
                consumer.start();
                // through the SDK: a write refused while the node is down is retried with its idempotency key
                for (int w = 0; w < 4; w++) {
                    writers.start(w, client);
                }
                writers.awaitMore(WRITES_BETWEEN);
                awaitReading(node, checker, writers);
                for (int round = 1; round <= RESTARTS; round++) {
                    long t0 = System.nanoTime();
                    assertTrue(node.stopCleanly(), "round " + round + ": SIGTERM shuts the node down cleanly");
                    long t1 = System.nanoTime();
                    node = NodeProcess.start(dir, port);
                    System.out.printf("SigtermRestartIT round %d: stopped in %d ms, ready again in %d ms; %s, "
                            + "%d delivered so far%n", round, (t1 - t0) / 1_000_000,
                            (System.nanoTime() - t1) / 1_000_000, writers.history.summary(), consumer.delivered());
                    writers.awaitMore(WRITES_BETWEEN);
                    awaitReading(node, checker, writers);
                }
                writers.close();

                NodeProcess last = node;
                TestNodes.awaitOrShowLog(last, () -> checker.hasAll(writers) || consumer.failure().isPresent(),
                        Duration.ofSeconds(60), "the consumer to be handed every acknowledged write");
                assertEquals(Optional.empty(), consumer.failure(), "the consumer failed");
                checker.verify(writers);
                // a clean stop leaves nothing to hand over again: not even at a position already handed
                assertEquals(0, checker.repeats(), "LCRs handed to the consumer again at a position it already had");

                try (TestNodes.Wire w = new TestNodes.Wire(last.endpoint())) {
                    Set<Integer> inTable = TestNodes.assertTableLoggedOnce(last, w, "ks.t", "pk", writers.acked);
                    writers.history.verifyRead("the table", inTable, Set.of());
                    assertEquals(1, w.exec("SELECT time FROM system_distributed.cdc_generation_timestamps").getRowsCount(),
                            "a restarted node keeps its generation");
                }
                // a clean stop answers what it took: only a write sent as the port closed is in doubt
                writers.history.verifyUnknownAtMost(4 * RESTARTS);
                System.out.printf("SigtermRestartIT: %d restarts, %s, %d delivered, %d repeats%n",
                        RESTARTS, writers.history.summary(), consumer.delivered(), checker.repeats());
            }
            assertTrue(node.stopCleanly(), "SIGTERM shuts the node down cleanly");
        } finally {
            node.close();
        }
    }

    /**
     * Waits until the consumer has been handed every write acknowledged so far: it is then reading
     * from the node, so the next stop cuts an open change stream, not a consumer still backing off
     * from the last one.
     */
    private static void awaitReading(NodeProcess node, DeliveryChecker checker, UniqueWriters writers) {
        Set<Integer> acked = Set.copyOf(writers.acked);
        TestNodes.awaitOrShowLog(node, () -> checker.keys().containsAll(acked), Duration.ofSeconds(60),
                "the consumer to catch up with " + acked.size() + " acknowledged writes");
    }
}
