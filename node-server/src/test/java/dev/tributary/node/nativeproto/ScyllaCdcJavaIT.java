package dev.tributary.node.nativeproto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.scylladb.cdc.lib.CDCConsumer;
import com.scylladb.cdc.model.TableName;
import com.scylladb.cdc.model.worker.RawChange;
import com.scylladb.cdc.model.worker.RawChangeConsumer;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.InProcessCluster;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * scylla-cdc-java, the library ScyllaDB users read CDC logs with, unchanged against Tributary:
 * a consumer built with its {@code CDCConsumer} builder follows a table (across a node join and a
 * tablet split) and receives every write exactly once. Its confidence window is shrunk to a
 * second: the log is read behind the nodes' safe time anyway. (Its driver reaches the other nodes
 * at its contact point's port, so with every node on 127.0.0.1 it reads through the contact node,
 * which gathers every node's log.)
 */
@Timeout(300)
class ScyllaCdcJavaIT {
    @TempDir
    Path dir;

    /** Every delta a consumer received, counted per primary key value. */
    static final class Received implements RawChangeConsumer {
        final Map<Integer, AtomicInteger> byKey = new ConcurrentHashMap<>();
        /** The streams the changes came from (hex). */
        final java.util.Set<String> streams = ConcurrentHashMap.newKeySet();

        @Override
        public CompletableFuture<Void> consume(RawChange change) {
            if (change.getOperationType() == RawChange.OperationType.ROW_INSERT) {
                byte[] id = new byte[16];
                change.getId().getStreamId().getValue().duplicate().get(id);
                streams.add(dev.tributary.generations.StreamId.fromBytes(id).toHex());
                byKey.computeIfAbsent(change.getCell("pk").getInt(), k -> new AtomicInteger()).incrementAndGet();
            }
            return CompletableFuture.completedFuture(null);
        }
    }

    static CDCConsumer consumer(TributaryNode contact, String ks, String table, Received received) {
        String ep = contact.nativeEndpoint();
        return CDCConsumer.builder()
                .addContactPoint(new InetSocketAddress("127.0.0.1", Integer.parseInt(ep.substring(ep.lastIndexOf(':') + 1))))
                .addTable(new TableName(ks, table))
                .withConsumer(received)
                .withWorkersCount(1)
                // Tributary's safe time: a window is read once no write can land in it any more
                .withConfidenceWindowSizeMs(1000)
                .withQueryTimeWindowSizeMs(2000)
                .withSleepBeforeFirstGenerationMs(200)
                .withSleepBeforeGenerationDoneMs(200)
                .withSleepAfterExceptionMs(200)
                .build();
    }

    @Test
    @DisplayName("a CDCConsumer receives every write to a table once")
    void consumesEveryWriteOnce() throws Exception {
        try (TributaryNode n1 = TestNodes.startOperating(dir.resolve("n1")); TestNodes.Wire w = new TestNodes.Wire(n1)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
            Received received = new Received();
            try (CDCConsumer c = consumer(n1, "ks", "t", received)) {
                c.start();
                for (int i = 0; i < 200; i++) {
                    w.exec("INSERT INTO ks.t (pk, v) VALUES (" + i + ", 'v" + i + "')");
                }
                TestNodes.await(() -> received.byKey.size() == 200, Duration.ofSeconds(60),
                        () -> "200 keys, got " + received.byKey.size());
            }
            received.byKey.forEach((k, n) -> assertEquals(1, n.get(), "key " + k + " once"));
        }
    }

    /** Writes keys {@code from} (inclusive) to {@code to} (exclusive) through the gRPC API. */
    private static void write(TestNodes.Wire w, String table, int from, int to) {
        for (int i = from; i < to; i++) {
            w.exec("INSERT INTO " + table + " (pk, v) VALUES (" + i + ", 'v" + i + "')");
        }
    }

    private static void assertReadFrom(Received received, List<dev.tributary.generations.StreamId> set, String which) {
        assertTrue(set.stream().anyMatch(id -> received.streams.contains(id.toHex())), "changes read from " + which + " "
                + set + "; read from " + received.streams);
    }

    private static void awaitEveryKeyOnce(Received received, int keys) {
        TestNodes.await(() -> received.byKey.size() == keys, Duration.ofSeconds(90),
                () -> keys + " keys, got " + received.byKey.size());
        received.byKey.forEach((k, n) -> assertEquals(1, n.get(), "key " + k + " once"));
    }

    @Test
    @DisplayName("CDC-GEN-2: the consumer follows the table across a node join (a new generation) and receives every write once")
    void followsANodeJoin() throws Exception {
        try (InProcessCluster cluster = InProcessCluster.builder(dir).ringDelay(Duration.ofMillis(1500)).build()) {
            TributaryNode n1 = cluster.start("n1");
            TestNodes.Wire w = cluster.wire("n1");
            long first = n1.generations().latest().orElseThrow().timestampMillis();
            TestNodes.await(() -> System.currentTimeMillis() > first, Duration.ofSeconds(10), "the first generation");
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
            Received received = new Received();
            try (CDCConsumer c = consumer(n1, "ks", "t", received)) {
                c.start();
                write(w, "ks.t", 0, 100);
                TributaryNode n2 = cluster.start("n2");
                long second = n2.generations().latest().orElseThrow().timestampMillis();
                assertTrue(second > first, "the join made a new generation");
                TestNodes.await(() -> System.currentTimeMillis() > second, Duration.ofSeconds(10), "the new generation");
                write(w, "ks.t", 100, 200); // routed to both nodes, logged in the new generation's streams
                awaitEveryKeyOnce(received, 200);
                List<dev.tributary.generations.Generation> gens = n1.generations().newestFirst();
                assertReadFrom(received, gens.get(gens.size() - 1).streams(), "the first generation");
                assertReadFrom(received, gens.get(0).streams(), "the join's generation");
            }
        }
    }

    @Test
    @DisplayName("CDC-TAB-2: the consumer follows a tablet table across a tablet split and receives every write once")
    void followsATabletSplit() throws Exception {
        try (TributaryNode n1 = TestNodes.startOperating(dir.resolve("n1")); TestNodes.Wire w = new TestNodes.Wire(n1)) {
            w.exec("CREATE KEYSPACE tk WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1} "
                    + "AND tablets = {'enabled': true}");
            w.exec("CREATE TABLE tk.t (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true} "
                    + "AND tablets = {'min_tablet_count': 2}");
            Received received = new Received();
            try (CDCConsumer c = consumer(n1, "tk", "t", received)) {
                c.start();
                write(w, "tk.t", 0, 100);
                w.exec("ALTER TABLE tk.t WITH tablets = {'min_tablet_count': 4}");
                TestNodes.await(() -> w.exec("SELECT * FROM system.cdc_timestamps").getRowsCount() == 2, Duration.ofSeconds(20),
                        "the split's stream set");
                long split = w.exec("SELECT timestamp FROM system.cdc_timestamps").getRowsList().stream()
                        .mapToLong(r -> r.getValues(0).getTimestampMillis()).max().orElseThrow();
                TestNodes.await(() -> System.currentTimeMillis() > split, Duration.ofSeconds(10), "the split's streams in force");
                write(w, "tk.t", 100, 200);
                awaitEveryKeyOnce(received, 200);
                java.util.Map<Long, List<dev.tributary.generations.StreamId>> sets = new java.util.TreeMap<>();
                for (dev.tributary.protocol.v1.Row r : w.exec("SELECT timestamp, stream_state, stream_id FROM system.cdc_streams")
                        .getRowsList()) {
                    if (r.getValues(1).getInteger() == 0) { // the set's current streams
                        sets.computeIfAbsent(r.getValues(0).getTimestampMillis(), k -> new java.util.ArrayList<>())
                                .add(dev.tributary.generations.StreamId.fromBytes(r.getValues(2).getBlob().toByteArray()));
                    }
                }
                assertEquals(2, sets.size());
                List<List<dev.tributary.generations.StreamId>> inOrder = List.copyOf(sets.values());
                assertReadFrom(received, inOrder.get(0), "the 2 tablets' streams before the split");
                assertReadFrom(received, inOrder.get(1), "the 4 tablets' streams after it");
            }
        }
    }
}
