package dev.tributary.node.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.ChangeRecord;
import dev.tributary.client.LcrPosition;
import dev.tributary.client.StartPosition;
import dev.tributary.client.TributaryClient;
import dev.tributary.generations.StreamId;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.InProcessCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SDK's ChangeConsumer against real nodes while the stream sets change under continuous
 * writes: every LCR exactly once, per-stream order, per-key order across the switch, and the
 * switch soon after the new set's timestamp (no fixed window).
 */
@Timeout(180)
class ChangeConsumerIT {
    private static final Duration RING_DELAY = Duration.ofMillis(1500);
    private static final String SKEW = "300ms";
    private static final int HOT_KEYS = 5;
    private static final int HOT_BASE = 1_000_000;

    /** What the handler saw: every record, by stream in delivery order, with the wall time it came. */
    private static final class Seen {
        final Map<StreamId, List<ChangeRecord>> byStream = new ConcurrentHashMap<>();
        final Map<StreamId, Long> firstAt = new ConcurrentHashMap<>();
        final AtomicInteger count = new AtomicInteger();
        final Map<Integer, List<Integer>> hot = new ConcurrentHashMap<>();

        final List<ChangeRecord> ddl = java.util.Collections.synchronizedList(new ArrayList<>());

        void add(ChangeRecord r) {
            if (r.isDdl()) {
                ddl.add(r); // the schema stream: CREATE / ALTER TABLE
                return;
            }
            StreamId s = StreamId.fromBytes(r.position().streamIdBytes());
            byStream.computeIfAbsent(s, k -> java.util.Collections.synchronizedList(new ArrayList<>())).add(r);
            firstAt.putIfAbsent(s, System.currentTimeMillis());
            int pk = (Integer) r.newValues().get("pk");
            if (pk >= HOT_BASE) {
                // a key's changes may come on different workers across the switch: the list is shared
                synchronized (hot) {
                    hot.computeIfAbsent(pk, k -> new ArrayList<>()).add((Integer) r.newValues().get("v"));
                }
            }
            count.incrementAndGet();
        }
    }

    /** Writes a fresh key and updates a hot key per step until stopped; counts what was accepted. */
    private static final class Writer extends Thread {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger accepted = new AtomicInteger();
        final Set<Integer> fresh = ConcurrentHashMap.newKeySet();
        final Map<Integer, List<Integer>> hot = new HashMap<>();
        private final TributaryClient client;
        volatile Throwable error;

        Writer(TributaryClient client) {
            this.client = client;
        }

        @Override
        public void run() {
            try {
                for (int i = 0; !stop.get(); i++) {
                    execute("INSERT INTO ks.t (pk, ck, v) VALUES (?, 0, ?)", i, i);
                    fresh.add(i);
                    int h = HOT_BASE + i % HOT_KEYS;
                    execute("UPDATE ks.t SET v = ? WHERE pk = ? AND ck = 0", i, h);
                    hot.computeIfAbsent(h, k -> new ArrayList<>()).add(i);
                    accepted.addAndGet(2);
                }
            } catch (Throwable t) {
                error = t;
            }
        }

        /**
         * Runs a write once: a node whose ring moved on (a decommission) refuses a forwarded write
         * as UNAVAILABLE before applying it, and the SDK already retries that, with the same
         * idempotency key, for its failover window. A retry loop of our own on top would hide a
         * node that keeps refusing for longer; an error here fails the test.
         */
        private void execute(String statement, Object... values) {
            client.execute(statement, values);
        }
    }

    private static void check(Seen seen, Writer writer, ChangeConsumer consumer) {
        assertEquals(0, consumer.duplicatesDropped(), "no LCR is held by two nodes");
        checkOnce(seen, writer);
    }

    /** Every accepted write delivered once, in order per stream and per key. */
    private static void checkOnce(Seen seen, Writer writer) {
        Set<LcrPosition> positions = new HashSet<>();
        Set<Integer> freshSeen = new HashSet<>();
        for (List<ChangeRecord> list : seen.byStream.values()) {
            long last = Long.MIN_VALUE;
            for (ChangeRecord r : list) {
                assertTrue(positions.add(r.position()), "no position twice: " + r.position());
                long micros = TimeUuids.micros(r.position().time());
                assertTrue(micros >= last, "per-stream position order");
                last = micros;
                int pk = (Integer) r.newValues().get("pk");
                if (pk < HOT_BASE) {
                    assertTrue(freshSeen.add(pk), "key " + pk + " once: again at " + r.position());
                }
            }
        }
        assertEquals(writer.fresh, freshSeen, "every fresh key");
        assertEquals(writer.accepted.get(), seen.count.get(), "every accepted write once");
        assertEquals(writer.hot, seen.hot, "each hot key's updates in write order, across the switch");
    }

    private static ChangeConsumer consumer(TributaryClient client, Seen seen) {
        return consumer(client, seen, null);
    }

    /** @param group a consumer group to read in, or null */
    private static ChangeConsumer consumer(TributaryClient client, Seen seen, String group) {
        ChangeConsumer.Builder b = ChangeConsumer.builder(client).table("ks.t").start(StartPosition.earliest()).workers(4)
                .maxBatch(64).handler(seen::add);
        return (group == null ? b : b.group(group)).build();
    }

    private static void awaitAll(Seen seen, Writer writer, ChangeConsumer consumer, TributaryNode... nodes) {
        try {
            TestNodes.await(() -> seen.count.get() >= writer.accepted.get() || consumer.failure().isPresent(),
                    Duration.ofSeconds(90), "the consumer to deliver all " + writer.accepted.get() + " LCRs (has "
                            + seen.count.get() + ")");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; " + missing(seen, writer, nodes) + "\nconsumer: "
                    + dev.tributary.client.ConsumerTestHooks.state(consumer)
                    + TestNodes.threads("tributary-read-stream", "grpc-default-executor", "tributary-consumer"), e);
        }
        assertTrue(consumer.failure().isEmpty(), () -> "consumer failed: " + consumer.failure().get());
    }

    /** A node's own CDC log entries of ks.t: pk@stream@millis, for a failure message. */
    private static String logged(TributaryNode n) {
        StringBuilder out = new StringBuilder();
        for (var r : TestNodes.localOnly(n, "SELECT \"cdc$stream_id\", \"cdc$time\", pk FROM ks.t_scylla_cdc_log").getRowsList()) {
            out.append(' ').append(r.getValues(2).getInteger()).append('@')
                    .append(StreamId.fromBytes(r.getValues(0).getBlob().toByteArray())).append('@')
                    .append(TimeUuids.micros(java.util.UUID.fromString(r.getValues(1).getUuid())) / 1000);
        }
        return out.toString();
    }

    /** Where the fresh keys the consumer has not delivered are logged: node, stream, time. */
    private static String missing(Seen seen, Writer writer, TributaryNode... nodes) {
        Set<Integer> delivered = new HashSet<>();
        seen.byStream.values().forEach(l -> l.forEach(r -> delivered.add((Integer) r.newValues().get("pk"))));
        StringBuilder out = new StringBuilder("undelivered fresh keys:");
        int shown = 0;
        for (TributaryNode n : nodes) {
            for (var r : TestNodes.localOnly(n, "SELECT \"cdc$stream_id\", \"cdc$time\", pk FROM ks.t_scylla_cdc_log")
                    .getRowsList()) {
                int pk = (int) r.getValues(2).getInteger();
                if (pk < HOT_BASE && writer.fresh.contains(pk) && !delivered.contains(pk) && shown++ < 20) {
                    out.append(String.format(" [pk %d on %s stream %s at %d ms]", pk, n.hostId(),
                            StreamId.fromBytes(r.getValues(0).getBlob().toByteArray()),
                            TimeUuids.micros(java.util.UUID.fromString(r.getValues(1).getUuid())) / 1000));
                }
            }
        }
        return out.append(" (").append(shown).append(" in all)").toString();
    }

    @Test
    @DisplayName("CDC-GEN-1 CDC-GEN-2 CDC-GEN-8: a consumer started before a node joins gets every LCR of continuous "
            + "writes once, in order per stream and per key, and switches to the new generation soon after its timestamp")
    void followsAJoin(@TempDir Path dir) throws Exception {
        // seed: CDC-GEN-1 seed: CDC-GEN-2 seed: CDC-GEN-8
        followAJoin(dir, null);
    }

    @Test
    @DisplayName("CDC-GEN-2: a consumer group's member started before a node joins gets every LCR of continuous writes, "
            + "across the generation switch")
    void aGroupFollowsAJoin(@TempDir Path dir) throws Exception {
        followAJoin(dir, "g");
    }

    private void followAJoin(Path dir, String group) throws Exception {
        try (InProcessCluster cluster = twoNodeCluster(dir)) {
            TributaryNode first = cluster.start("n1");
            long gen1 = first.generations().latest().orElseThrow().timestampMillis();
            TestNodes.await(() -> System.currentTimeMillis() >= gen1, Duration.ofSeconds(10), "the first generation");
            try (TributaryClient client = TributaryClient.builder().endpoints(first.endpoint()).build()) {
                client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
                client.execute("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
                Seen seen = new Seen();
                try (ChangeConsumer consumer = consumer(client, seen, group)) {
                    consumer.start();
                    Writer writer = new Writer(client);
                    writer.start();
                    TestNodes.await(() -> writer.accepted.get() > 200, Duration.ofSeconds(20), "writes before the join");
                    TributaryNode second = cluster.start("n2");
                    long gen2 = second.generations().latest().orElseThrow().timestampMillis();
                    assertTrue(gen2 > gen1);
                    TestNodes.await(() -> System.currentTimeMillis() > gen2 + 2000, Duration.ofSeconds(20),
                            "writes well into the new generation");
                    writer.stop.set(true);
                    writer.join();
                    assertTrue(writer.error == null, () -> "writer failed: " + writer.error);
                    awaitAll(seen, writer, consumer, first, second);
                    check(seen, writer, consumer);

                    Set<StreamId> newStreams = new HashSet<>(second.generations().latest().orElseThrow().streams());
                    long firstNew = seen.firstAt.entrySet().stream().filter(e -> newStreams.contains(e.getKey()))
                            .mapToLong(Map.Entry::getValue).min().orElseThrow(() -> new AssertionError("no new-generation LCR"));
                    // no fixed confidence window: the switch follows the safe times (skew 300 ms)
                    System.out.printf("join: %d LCRs in %d streams, first new-generation LCR %d ms after the switch%n",
                            seen.count.get(), seen.byStream.size(), firstNew - gen2);
                    assertTrue(firstNew < gen2 + RING_DELAY.toMillis() + 3000,
                            "first new-generation LCR " + (firstNew - gen2) + " ms after the switch");
                    assertTrue(seen.byStream.keySet().stream().anyMatch(s -> !newStreams.contains(s)), "old streams too");
                    Set<String> threads = new HashSet<>();
                    seen.byStream.values().forEach(l -> l.forEach(r -> threads.add(r.transactionId().split("\\.")[0])));
                    assertEquals(2, threads.size(), "each node commits on a redo thread of its own: " + threads);
                }
            }
        }
    }

    @Test
    @DisplayName("CDC-GEN-2: a consumer reading two nodes follows the decommission of one: every LCR once, in order, "
            + "and it does not wait for the node that left")
    void followsADecommission(@TempDir Path dir) throws Exception {
        try (InProcessCluster cluster = twoNodeCluster(dir)) {
            TributaryNode first = cluster.start("n1");
            try (TributaryClient client = TributaryClient.builder().endpoints(first.endpoint()).build();
                    // through the node that stays: it forwards to the leaving node while that one still owns ranges
                    TributaryClient writes = TributaryClient.builder().endpoints(first.endpoint()).tokenAware(false).build()) {
                TributaryNode second = cluster.start("n2");
                long gen2 = second.generations().latest().orElseThrow().timestampMillis();
                TestNodes.await(() -> System.currentTimeMillis() >= gen2, Duration.ofSeconds(10), "the generation of the join");
                client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
                client.execute("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
                Seen seen = new Seen();
                try (ChangeConsumer consumer = consumer(client, seen)) {
                    consumer.start();
                    Writer writer = new Writer(writes);
                    writer.start();
                    TestNodes.await(() -> writer.accepted.get() > 200 && seen.count.get() > 100, Duration.ofSeconds(20),
                            "writes read from both nodes before the decommission");
                    long gen3;
                    try (TestNodes.Wire w2 = new TestNodes.Wire(second)) {
                        gen3 = w2.exec("CALL system.decommission()").getRows(0).getValues(1).getTimestampMillis();
                    }
                    String leftLog = logged(second);
                    cluster.kill("n2");
                    TestNodes.await(() -> System.currentTimeMillis() > gen3 + 2000, Duration.ofSeconds(20),
                            "writes well into the generation without the node");
                    writer.stop.set(true);
                    writer.join();
                    assertTrue(writer.error == null, () -> "writer failed: " + writer.error);
                    try {
                        awaitAll(seen, writer, consumer, first);
                    } catch (AssertionError e) {
                        throw new AssertionError(e.getMessage() + "\nthe leaving node's log when it left: " + leftLog, e);
                    }
                    // the leaving node's LCRs are read from it and again from the node it handed them
                    // to: the consumer delivers each position once
                    checkOnce(seen, writer);
                    System.out.printf("decommission: %d LCRs in %d streams, %d copies from the handover dropped%n",
                            seen.count.get(), seen.byStream.size(), consumer.duplicatesDropped());
                }
            }
        }
    }

    @Test
    @DisplayName("A node that is down holds a consumer back: one started while it is down delivers nothing until it "
            + "is back (it may hold LCRs of any stream), then every LCR once")
    void waitsForANodeThatIsDown(@TempDir Path dir) throws Exception {
        try (InProcessCluster cluster = twoNodeCluster(dir)) {
            TributaryNode first = cluster.start("n1");
            try (TributaryClient client = TributaryClient.builder().endpoints(first.endpoint()).build()) {
                TributaryNode second = cluster.start("n2");
                long gen2 = second.generations().latest().orElseThrow().timestampMillis();
                TestNodes.await(() -> System.currentTimeMillis() >= gen2, Duration.ofSeconds(10), "the generation of the join");
                client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
                client.execute("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
                Set<Integer> written = new HashSet<>();
                for (int i = 0; i < 100; i++) {
                    client.execute("INSERT INTO ks.t (pk, ck, v) VALUES (?, 0, ?)", i, i);
                    written.add(i);
                }
                String down = second.hostId().toString();
                cluster.kill("n2"); // its registration goes, its tokens stay: listed DOWN
                TestNodes.await(() -> client.execute("SELECT state FROM system.peers").all().stream()
                        .allMatch(r -> "DOWN".equals(r.getString("state"))), Duration.ofSeconds(10), "node 2 to be down");
                Seen seen = new Seen();
                try (ChangeConsumer consumer = consumer(client, seen)) {
                    consumer.start();
                    // once node 1 has told every stream a safe time past the writes, a consumer that did
                    // not wait for node 2 would have released them in the same step
                    long past = System.currentTimeMillis() * 1000;
                    String up = first.hostId().toString();
                    TestNodes.await(() -> safeTimes(consumer, up).allMatch(t -> t > past), Duration.ofSeconds(10),
                            () -> "node 1's safe times past the writes: " + dev.tributary.client.ConsumerTestHooks.state(consumer));
                    String state = dev.tributary.client.ConsumerTestHooks.state(consumer);
                    // node 1's membership view may still have named node 2 (it refreshes every 200 ms):
                    // then the consumer reads it and its calls fail; else the listing shows it down
                    assertTrue(state.contains("unread down [" + down) || state.contains("node " + down + " failing"), state);
                    assertTrue(java.util.regex.Pattern.compile("released (-?\\d+)").matcher(state).results()
                            .allMatch(m -> Long.parseLong(m.group(1)) < past), () -> "nothing released: " + state);
                    assertEquals(0, seen.count.get(), "nothing delivered while a node that may hold LCRs is down");
                    cluster.restart("n2");
                    TestNodes.await(() -> seen.count.get() >= written.size(), Duration.ofSeconds(30),
                            "every LCR once the node is back");
                    Set<Integer> keys = new HashSet<>();
                    seen.byStream.values().forEach(l -> l.forEach(r -> assertTrue(keys.add((Integer) r.newValues().get("pk")))));
                    assertEquals(written, keys);
                    assertTrue(consumer.failure().isEmpty(), () -> "consumer failed: " + consumer.failure().get());
                }
            }
        }
    }

    /** The safe times the consumer has from one node, over the streams it reads (none until it reads). */
    private static java.util.stream.Stream<Long> safeTimes(ChangeConsumer consumer, String hostId) {
        List<Long> out = java.util.regex.Pattern.compile("\n    " + hostId + " safe (-?\\d+)( unreported)?").matcher(
                dev.tributary.client.ConsumerTestHooks.state(consumer)).results()
                .map(m -> m.group(2) != null ? Long.MIN_VALUE : Long.parseLong(m.group(1))).toList();
        return out.isEmpty() ? java.util.stream.Stream.of(Long.MIN_VALUE) : out.stream();
    }

    /** The cluster of the two-node tests (no node runs yet). */
    private static InProcessCluster twoNodeCluster(Path dir) {
        return InProcessCluster.builder(dir).ringDelay(RING_DELAY).options("--max-write-skew", SKEW).build();
    }

    @Test
    @DisplayName("CDC-TAB-2 CDC-TAB-4: a consumer follows a tablet split 2 → 4 under continuous writes: every LCR once, "
            + "per-stream and per-key order, the 4 new streams delivered soon after the new set's timestamp")
    void followsATabletSplit(@TempDir Path dir) throws Exception {
        // seed: CDC-TAB-2 seed: CDC-TAB-4
        try (TributaryNode node = TributaryNode.start(TestNodes.config(dir, RING_DELAY, "--max-write-skew", SKEW));
                TributaryClient client = TributaryClient.builder().endpoints(node.endpoint()).build()) {
            long gen1 = node.generations().latest().orElseThrow().timestampMillis();
            TestNodes.await(() -> System.currentTimeMillis() >= gen1, Duration.ofSeconds(10), "the first generation");
            client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1} "
                    + "AND tablets = {'enabled': true}");
            client.execute("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true} "
                    + "AND tablets = {'min_tablet_count': 2}");
            Seen seen = new Seen();
            try (ChangeConsumer consumer = consumer(client, seen)) {
                consumer.start();
                Writer writer = new Writer(client);
                writer.start();
                TestNodes.await(() -> writer.accepted.get() > 200, Duration.ofSeconds(20), "writes before the split");
                client.execute("ALTER TABLE ks.t WITH tablets = {'min_tablet_count': 4}");
                Supplier<List<Long>> times = () -> client.execute("SELECT timestamp FROM system.cdc_timestamps").all().stream()
                        .map(r -> r.getInstant("timestamp").toEpochMilli()).toList();
                TestNodes.await(() -> times.get().size() == 2, Duration.ofSeconds(10), "the new stream set");
                long split = times.get().stream().mapToLong(Long::longValue).max().orElseThrow();
                TestNodes.await(() -> System.currentTimeMillis() > split + 2000, Duration.ofSeconds(20),
                        "writes well into the new stream set");
                writer.stop.set(true);
                writer.join();
                assertTrue(writer.error == null, () -> "writer failed: " + writer.error);
                awaitAll(seen, writer, consumer, node);
                check(seen, writer, consumer);

                Set<StreamId> opened = new HashSet<>();
                for (var r : client.execute("SELECT timestamp, stream_state, stream_id FROM system.cdc_streams").all()) {
                    if (r.getInstant("timestamp").toEpochMilli() == split && r.getByte("stream_state") == 2) {
                        byte[] b = new byte[16];
                        r.getBytes("stream_id").duplicate().get(b);
                        opened.add(StreamId.fromBytes(b));
                    }
                }
                assertEquals(4, opened.size(), "four streams opened at the split");
                assertEquals(opened, seen.firstAt.keySet().stream().filter(opened::contains).collect(java.util.stream.Collectors.toSet()),
                        "LCRs in each new stream");
                LongSupplier firstNew = () -> seen.firstAt.entrySet().stream().filter(e -> opened.contains(e.getKey()))
                        .mapToLong(Map.Entry::getValue).min().orElseThrow();
                System.out.printf("split: %d LCRs in %d streams, first new-set LCR %d ms after the split%n",
                        seen.count.get(), seen.byStream.size(), firstNew.getAsLong() - split);
                assertTrue(firstNew.getAsLong() < split + 3000, "first LCR of the new set "
                        + (firstNew.getAsLong() - split) + " ms after the split");
                TestNodes.await(() -> seen.ddl.stream().anyMatch(r -> r.ddlText().contains("min_tablet_count': 4")),
                        Duration.ofSeconds(10), "the ALTER TABLE's DDL LCR from the schema stream");
            }
        }
    }
}
