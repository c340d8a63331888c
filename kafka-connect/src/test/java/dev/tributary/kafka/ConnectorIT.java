package dev.tributary.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tributary.client.TributaryClient;
import dev.tributary.node.NodeConfig;
import dev.tributary.node.NodeProcess;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector on the real thing: a Tributary node, a KRaft Kafka broker (its own JVM) and a
 * distributed Connect worker (in this JVM, or in its own with the plugin directory only), the
 * connector configured through the worker's REST API, rows written through the SDK with a unique
 * value each, and the topic read back with a read_committed consumer and the JSON converter:
 * {@link #check} compares each key's events with the writes in order and finds every written value
 * exactly once.
 */
@Timeout(300)
class ConnectorIT {
    private String keyspace = "ks";
    private static final int KEYS = 40;

    /** What one key's events must be, in order: "c:v", "u:v", "d" or "tombstone". */
    private final Map<Integer, List<String>> expected = new LinkedHashMap<>();
    /** Every value written by an INSERT or UPDATE: each one must reach the topic exactly once. */
    private final Set<String> valuesWritten = new HashSet<>();

    /** Set when the connector reads a capture queue: its topic. */
    private String queueTopic;

    private String topic() {
        return queueTopic != null ? queueTopic : "it." + keyspace + ".t";
    }

    static TributaryNode startNode(Path dir) throws InterruptedException {
        TributaryNode node = TributaryNode.start(NodeConfig.parse(new String[] {"--data-dir", dir.toString(), "--listen",
                "127.0.0.1:0", "--native-listen", "none", "--ring-delay", "300ms",
                "--max-write-skew", "200ms", "--num-tokens", "8", "--zookeeper", "embedded:0"}));
        long gen = node.generations().latest().orElseThrow().timestampMillis();
        while (System.currentTimeMillis() < gen) {
            Thread.sleep(10); // the first generation is a ring delay ahead: nothing can be written before it
        }
        return node;
    }

    /** Keys whose row exists: an INSERT over one is captured as an UPDATE (op u, with the replaced value before). */
    private final Set<Integer> live = new HashSet<>();

    /** One round of writes to every key: an INSERT; an UPDATE on even keys; a DELETE on every third. */
    private synchronized void round(TributaryClient client, int round) {
        for (int pk = 0; pk < KEYS; pk++) {
            List<String> events = expected.computeIfAbsent(pk, k -> new ArrayList<>());
            String v = "r" + round + "-k" + pk + "-i";
            client.execute("INSERT INTO " + keyspace + ".t (pk, ck, v) VALUES (?, ?, ?)", pk, 0, v);
            events.add((live.add(pk) ? "c:" : "u:") + v);
            valuesWritten.add(v);
            if (pk % 2 == 0) {
                v = "r" + round + "-k" + pk + "-u";
                client.execute("UPDATE " + keyspace + ".t SET v = ? WHERE pk = ? AND ck = ?", v, pk, 0);
                events.add("u:" + v);
                valuesWritten.add(v);
            }
            if (pk % 3 == 0) {
                client.execute("DELETE FROM " + keyspace + ".t WHERE pk = ? AND ck = ?", pk, 0);
                events.add("d");
                events.add("tombstone");
                live.remove(pk);
            }
        }
    }

    private synchronized int expectedCount() {
        return expected.values().stream().mapToInt(List::size).sum();
    }

    @Test
    @DisplayName("every change once, in order per key, in Debezium's envelope; tasks restarted under writes resume "
            + "from their committed offsets without loss or duplicates")
    void changesReachTheTopicOnceAndARestartResumes(@TempDir Path dir) throws Exception {
        try (Rig rig = up(dir, true)) {
            createKeyspace("");
            client.execute("CREATE TABLE ks.t (pk int, ck int, v text, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");

            Map<String, String> config = connector(node, "tributary.tables", "ks.t", 2);
            config.put("name", "tributary");
            JsonNode validation = worker.put("connector-plugins/" + TributarySourceConnector.class.getName()
                    + "/config/validate", config);
            assertEquals(0, validation.get("error_count").asInt(), validation::toString);
            worker.put("connectors/tributary/config", config);
            // the first task configuration may come before the streams are listed; then two tasks split them
            awaitTasks(worker, 2);

            round(client, 0);
            round(client, 1);
            List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
            readUntil(consumer, seen, expectedCount());
            check(seen);
            printExamples(seen);

            // both tasks restarted while rows are written: each resumes after its committed offsets
            CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                round(client, 2);
                round(client, 3);
            });
            worker.post("connectors/tributary/tasks/0/restart");
            worker.post("connectors/tributary/tasks/1/restart");
            writes.get(120, TimeUnit.SECONDS);
            awaitTasks(worker, 2);
            round(client, 4);
            readUntil(consumer, seen, expectedCount());
            // a duplicate would come after the expected count: look a while longer for one
            long quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < quietUntil) {
                consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
            }
            check(seen);
        }
    }

    /** One event of each op and a tombstone as the topic holds them (docs/KAFKA.md shows these). */
    private static void printExamples(List<ConsumerRecord<byte[], byte[]>> seen) {
        Set<String> shown = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : seen) {
            String value = r.value() == null ? "null" : new String(r.value(), java.nio.charset.StandardCharsets.UTF_8);
            String kind = r.value() == null ? "tombstone" : value.replaceFirst(".*\"op\":\"(.)\".*", "$1");
            if (shown.add(kind)) {
                System.out.println("EXAMPLE " + kind + " key " + new String(r.key(), java.nio.charset.StandardCharsets.UTF_8)
                        + "\nEXAMPLE " + kind + " value " + value);
            }
        }
    }

    /** The connector's configuration: tables or a queue, prefix "it", stream sets listed twice a second. */
    private static Map<String, String> connector(TributaryNode node, String setting, String log, int tasks) {
        Map<String, String> config = new HashMap<>();
        config.put("connector.class", TributarySourceConnector.class.getName());
        config.put("tasks.max", Integer.toString(tasks));
        config.put("tributary.endpoints", node.endpoint());
        config.put(setting, log);
        config.put("topic.prefix", "it");
        config.put("tributary.refresh.interval.ms", "500");
        return config;
    }

    // the rig of the running test (JUnit makes an instance per test)
    private TributaryNode node;
    private TributaryClient client;
    private KafkaBroker broker;
    private ConnectWorker worker;
    private KafkaConsumer<byte[], byte[]> consumer;

    /** The test's keyspace at replication factor 1, with {@code options} after its replication. */
    private void createKeyspace(String options) {
        client.execute("CREATE KEYSPACE " + keyspace + " WITH replication = {'class': 'NetworkTopologyStrategy', "
                + "'replication_factor': 1}" + options);
    }

    private Rig up(Path dir, boolean inProcessWorker) throws Exception {
        return up(dir, inProcessWorker, false);
    }

    private Rig up(Path dir, boolean inProcessWorker, boolean exactlyOnce) throws Exception {
        Rig rig = Rig.start(dir, inProcessWorker, exactlyOnce);
        node = rig.node();
        client = rig.client();
        broker = rig.broker();
        worker = rig.worker();
        consumer = rig.consumer();
        return rig;
    }

    /** A node, a KRaft broker, optionally a worker in this JVM, and a consumer; closed in reverse order. */
    private record Rig(TributaryNode node, TributaryClient client, KafkaBroker broker, ConnectWorker worker,
            KafkaConsumer<byte[], byte[]> consumer) implements AutoCloseable {
        static Rig start(Path dir, boolean worker, boolean exactlyOnce) throws Exception {
            Files.createDirectories(dir.resolve("kafka"));
            TributaryNode node = startNode(dir.resolve("node"));
            TributaryClient client = null;
            KafkaBroker broker = null;
            ConnectWorker w = null;
            try {
                client = TributaryClient.builder().endpoints(node.endpoint()).build();
                broker = KafkaBroker.start(dir.resolve("kafka"), 3);
                w = !worker ? null : exactlyOnce ? ConnectWorker.startExactlyOnce(broker.bootstrap(), "it-connect")
                        : ConnectWorker.start(broker.bootstrap(), "it-connect");
                return new Rig(node, client, broker, w, ConnectorIT.consumer(broker.bootstrap()));
            } catch (Exception | Error e) {
                new Rig(node, client, broker, w, null).close();
                throw e;
            }
        }

        @Override
        public void close() throws Exception {
            try (TributaryNode n = node; TributaryClient c = client; KafkaBroker b = broker; ConnectWorker w = worker;
                    KafkaConsumer<byte[], byte[]> k = consumer) {
                // closed by try-with-resources, last first; a null resource is skipped
            }
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Test
    @DisplayName("a tablets table split under writes: the stream set grows from 2 to 8, the connector goes from 2 to 4 "
            + "tasks, children follow their parents across tasks; an added column gives the next schema version; every "
            + "change once, in order per key")
    void followsATabletSplitAndAnAlterTable(@TempDir Path dir) throws Exception {
        keyspace = "tk";
        try (Rig rig = up(dir, true)) {
            createKeyspace(" AND tablets = {'enabled': true}");
            client.execute("CREATE TABLE tk.t (pk int, ck int, v text, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true} "
                    + "AND tablets = {'min_tablet_count': 2}");
            Map<String, String> config = connector(node, "tributary.tables", "tk.t", 4);
            worker.put("connectors/tributary/config", config);
            awaitTasks(worker, 2); // two streams: two tasks

            round(client, 0);
            CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                round(client, 1);
                round(client, 2);
            });
            client.execute("ALTER TABLE tk.t WITH tablets = {'min_tablet_count': 8}");
            writes.get(120, TimeUnit.SECONDS);
            awaitTasks(worker, 4); // eight streams now: four tasks
            round(client, 3);

            client.execute("ALTER TABLE tk.t ADD w int");
            client.execute("INSERT INTO tk.t (pk, ck, v, w) VALUES (?, ?, ?, ?)", 1000, 0, "added-column", 7);
            synchronized (this) {
                expected.put(1000, new ArrayList<>(List.of("c:added-column")));
                valuesWritten.add("added-column");
            }
            List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
            readUntil(consumer, seen, expectedCount());
            long quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < quietUntil) {
                consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
            }
            check(seen);

            JsonConverter values = new JsonConverter();
            values.configure(Map.of("schemas.enable", "true"), false);
            Set<String> streams = new HashSet<>();
            boolean added = false;
            for (ConsumerRecord<byte[], byte[]> r : seen) {
                var data = values.toConnectData(topic(), r.value());
                if (data.value() == null) {
                    continue;
                }
                Struct value = (Struct) data.value();
                streams.add(value.getStruct("source").getString("stream_id"));
                Struct after = value.getStruct("after");
                if (after != null && "added-column".equals(after.getString("v"))) {
                    assertEquals(7, after.getInt32("w"));
                    assertEquals(2, data.schema().version(), "the schema version after ALTER TABLE ADD");
                    added = true;
                }
            }
            assertTrue(added, "the row with the added column");
            assertSchemaChange(broker.bootstrap(), "ADD w", 2);
            assertTrue(streams.size() > 2, "changes came from the streams after the split too: " + streams);
        }
    }

    /**
     * The schema-change topic (named the prefix) holds the DDL exactly once, with the value schema
     * version it leads to, and parsed by the JSON converter.
     */
    private void assertSchemaChange(String bootstrap, String ddl, int version) {
        JsonConverter values = new JsonConverter();
        values.configure(Map.of("schemas.enable", "true"), false);
        try (KafkaConsumer<byte[], byte[]> schemas = consumer(bootstrap)) {
            List<PartitionInfo> parts = schemas.partitionsFor("it", Duration.ofSeconds(30));
            assertNotNull(parts, "the schema-change topic it was created");
            schemas.assign(parts.stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList());
            schemas.seekToBeginning(schemas.assignment());
            List<Struct> found = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            // another task may read the schema stream than the one that sent the row: await the DDL, then the rest
            Map<TopicPartition, Long> end = null;
            while (end == null || end.entrySet().stream().anyMatch(e -> schemas.position(e.getKey()) < e.getValue())) {
                assertTrue(System.nanoTime() < deadline, "no schema change with " + ddl + " within 60 s");
                for (ConsumerRecord<byte[], byte[]> r : schemas.poll(Duration.ofMillis(500))) {
                    Struct v = (Struct) values.toConnectData("it", r.value()).value();
                    if (v.getString("ddl") != null && v.getString("ddl").contains(ddl)) {
                        found.add(v);
                        // docs/KAFKA.md and the README show this one as the topic holds it
                        System.out.println("EXAMPLE schema change key " + new String(r.key(),
                                java.nio.charset.StandardCharsets.UTF_8) + "\nEXAMPLE schema change value "
                                + new String(r.value(), java.nio.charset.StandardCharsets.UTF_8));
                    }
                }
                if (end == null && !found.isEmpty()) {
                    end = schemas.endOffsets(schemas.assignment());
                }
            }
            assertEquals(1, found.size(), "the DDL once in the schema-change topic: " + found);
            Struct v = found.get(0);
            assertEquals("ALTER TABLE", v.getString("command_type"));
            assertEquals(keyspace, v.getString("keyspace"));
            assertEquals("t", v.getString("table"));
            assertEquals(version, v.getInt32("schema_version"));
            assertTrue(v.getStruct("source").getInt64("commit_scn") > 0, v::toString);
        }
    }

    @Test
    @DisplayName("the plugin directory in a worker of its own (the connector not on its class path); the worker "
            + "killed with SIGKILL and another started: every change at least once, exactly once after deduplicating "
            + "by source position, in order per key")
    void thePluginDirectoryRunsInAWorkerOfItsOwnAndSurvivesASigkill(@TempDir Path dir) throws Exception {
        killedWorker(dir, false);
    }

    @Test
    @DisplayName("exactly once (KIP-618): workers with exactly.once.source.support=enabled, the connector requiring it; "
            + "the worker killed with SIGKILL mid-stream and another started: a read_committed consumer finds every "
            + "acknowledged write exactly once, in write order per key")
    void exactlyOnceAcrossAKilledWorker(@TempDir Path dir) throws Exception {
        // a replay here once came from source partitions serialized in a per-JVM order (OffsetsTest): the next
        // worker asked for other bytes than the killed one had committed and found no offset
        killedWorker(dir, true);
    }

    @Test
    @DisplayName("exactly once across a rebalance: a second worker with exactly-once support joins while rows are "
            + "written and takes tasks over from the first: a read_committed consumer finds every write once, in write "
            + "order per key")
    void exactlyOnceAcrossARebalance(@TempDir Path dir) throws Exception {
        Path plugins = Path.of(System.getProperty("basedir", "."), "target", "plugins");
        try (Rig rig = up(dir, false)) {
            createKeyspace("");
            client.execute("CREATE TABLE ks.t (pk int, ck int, v text, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            try (ConnectWorker first = ConnectWorker.startProcess(dir.resolve("w1"), broker.bootstrap(), "it-rebalance",
                    plugins, true)) {
                Map<String, String> config = connector(node, "tributary.tables", "ks.t", 2);
                config.put("exactly.once.support", "required");
                first.put("connectors/tributary/config", config);
                awaitTasks(first, 2);
                round(client, 0);
                List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
                readUntil(consumer, seen, expectedCount());
                check(seen);

                CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                    for (int r = 1; r < 5; r++) {
                        round(client, r);
                    }
                });
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!containsValueOf(seen, "r1-")) {
                    assertTrue(System.nanoTime() < deadline, "no change of round 1 reached the topic");
                    consumer.poll(Duration.ofMillis(50)).forEach(seen::add);
                }
                try (ConnectWorker second = ConnectWorker.startProcess(dir.resolve("w2"), broker.bootstrap(), "it-rebalance",
                        plugins, true)) {
                    // the group rebalances: one task stops on the first worker (its last transaction committed or
                    // aborted) and starts on the second, fenced by the new one's producer
                    Set<String> workers = new HashSet<>();
                    long deadline2 = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                    while (workers.size() < 2) {
                        assertTrue(System.nanoTime() < deadline2, "the tasks never spread over both workers: " + workers);
                        workers.clear();
                        // asked of the first worker: the second answers 404 until it has read the status topic
                        for (JsonNode t : first.get("connectors/tributary/status").get("tasks")) {
                            if ("RUNNING".equals(t.get("state").asText())) {
                                workers.add(t.get("worker_id").asText());
                            }
                        }
                        consumer.poll(Duration.ofMillis(200)).forEach(seen::add); // the worker's status is polled
                    }
                    writes.get(120, TimeUnit.SECONDS);
                    round(client, 5);
                    readUntil(consumer, seen, expectedCount());
                    long quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                    while (System.nanoTime() < quietUntil) {
                        consumer.poll(Duration.ofMillis(200)).forEach(seen::add); // a repeat would come now
                    }
                    check(seen);
                    System.out.println("across a rebalance to " + workers + ": " + seen.size() + " records, "
                            + (seen.size() - dedupe(seen).size()) + " repeated");
                }
            }
        }
    }

    @Test
    @Timeout(600)
    @DisplayName("exactly once across a Tributary node failover: three node processes at replication factor 3, a "
            + "worker with exactly-once support, one node killed with SIGKILL while rows are written and started again "
            + "after: a read_committed consumer finds every acknowledged write once, in write order per key")
    void exactlyOnceAcrossANodeFailover(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("kafka"));
        List<NodeProcess> nodes = new ArrayList<>();
        try (dev.tributary.node.coord.EmbeddedZooKeeper zk = dev.tributary.node.coord.EmbeddedZooKeeper.start(
                dir.resolve("zk"), 0)) {
            try {
                for (int i = 1; i <= 3; i++) {
                    nodes.add(nodeProcess(dir.resolve("n" + i), zk.connectString(), "n" + i));
                }
                List<String> endpoints = nodes.stream().map(NodeProcess::endpoint).toList();
                try (TributaryClient c = TributaryClient.builder().endpoints(endpoints.toArray(String[]::new)).build();
                        KafkaBroker b = KafkaBroker.start(dir.resolve("kafka"), 3);
                        ConnectWorker w = ConnectWorker.startExactlyOnce(b.bootstrap(), "it-failover");
                        KafkaConsumer<byte[], byte[]> k = consumer(b.bootstrap())) {
                    client = c;
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (true) {
                        try {
                            client.execute("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': "
                                    + "'SimpleStrategy', 'replication_factor': 3}");
                            client.execute("CREATE TABLE IF NOT EXISTS ks.t (pk int, ck int, v text, PRIMARY KEY (pk, ck)) "
                                    + "WITH cdc = {'enabled': true}");
                            break;
                        } catch (RuntimeException e) {
                            // the first generation is a ring delay ahead and the replica groups elect leaders
                            assertTrue(System.nanoTime() < deadline, "the table was never created: " + e);
                            Thread.sleep(200); // polled: nothing announces that the cluster takes writes
                        }
                    }
                    initialSnapshotUnderWrites(w, b.bootstrap(), endpoints);

                    Map<String, String> config = new HashMap<>();
                    config.put("connector.class", TributarySourceConnector.class.getName());
                    config.put("tasks.max", "2");
                    config.put("tributary.endpoints", String.join(",", endpoints));
                    config.put("tributary.tables", "ks.t");
                    config.put("topic.prefix", "it");
                    config.put("tributary.refresh.interval.ms", "500");
                    config.put("exactly.once.support", "required");
                    w.put("connectors/tributary/config", config);
                    awaitTasks(w, 2);
                    round(client, 0);
                    List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
                    readUntil(k, seen, expectedCount());
                    check(seen);

                    // n2 killed while rounds are written: its instance fails over to a replica; the SDK's writes retry
                    // there and the tasks' consumers read the streams from the nodes that hold them now
                    CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                        for (int r = 1; r < 4; r++) {
                            round(client, r);
                        }
                    });
                    long deadline1 = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (!containsValueOf(seen, "r1-")) {
                        assertTrue(System.nanoTime() < deadline1, "no change of round 1 reached the topic");
                        k.poll(Duration.ofMillis(50)).forEach(seen::add);
                    }
                    nodes.get(1).kill();
                    writes.get(240, TimeUnit.SECONDS);
                    nodes.set(1, nodeProcess(dir.resolve("n2"), zk.connectString(), "n2"));
                    round(client, 4);
                    readUntil(k, seen, expectedCount());
                    long quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                    while (System.nanoTime() < quietUntil) {
                        k.poll(Duration.ofMillis(200)).forEach(seen::add); // a repeat would come now
                    }
                    check(seen);
                    System.out.println("after a node failover: " + seen.size() + " records, " + (seen.size()
                            - dedupe(seen).size()) + " repeated");
                }
            } finally {
                for (NodeProcess n : nodes) {
                    n.close();
                }
            }
        }
    }

    private void killedWorker(Path dir, boolean exactlyOnce) throws Exception {
        Path plugins = Path.of(System.getProperty("basedir", "."), "target", "plugins");
        assertTrue(Files.isDirectory(plugins.resolve("tributary-kafka-connect")), "the plugin directory is built before the tests");
        try (Rig rig = up(dir, false)) {
            createKeyspace("");
            client.execute("CREATE TABLE ks.t (pk int, ck int, v text, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            ConnectWorker first = ConnectWorker.startProcess(dir.resolve("w1"), broker.bootstrap(), "it-plugin", plugins,
                    exactlyOnce);
            try {
                String version = null;
                for (JsonNode plugin : first.get("connector-plugins")) {
                    if (TributarySourceConnector.class.getName().equals(plugin.get("class").asText())) {
                        version = plugin.get("version").asText();
                    }
                }
                assertNotNull(version, "the worker found the connector in the plugin directory");
                assertTrue(!"unknown".equals(version), "the packaged jar's version: " + version);
                Map<String, String> config = connector(node, "tributary.tables", "ks.t", 2);
                if (exactlyOnce) {
                    config.put("exactly.once.support", "required"); // refused unless the connector declares support
                }
                first.put("connectors/tributary/config", config);
                awaitTasks(first, 2);
                round(client, 0);
                round(client, 1);
                List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
                readUntil(consumer, seen, expectedCount());
                check(seen);

                // killed while changes flow: records sent, offsets of some not committed yet
                CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                    for (int r = 2; r < 6; r++) {
                        round(client, r);
                    }
                });
                long deadline0 = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!containsValueOf(seen, "r2-")) {
                    assertTrue(System.nanoTime() < deadline0, "no change of round 2 reached the topic");
                    consumer.poll(Duration.ofMillis(50)).forEach(seen::add);
                }
                first.kill();
                writes.get(120, TimeUnit.SECONDS);
                try (ConnectWorker second = ConnectWorker.startProcess(dir.resolve("w2"), broker.bootstrap(), "it-plugin",
                        plugins, exactlyOnce)) {
                    awaitTasks(second, 2);
                    round(client, 6);
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                    if (exactlyOnce) {
                        readUntil(consumer, seen, expectedCount());
                        long quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                        while (System.nanoTime() < quietUntil) {
                            consumer.poll(Duration.ofMillis(200)).forEach(seen::add); // a repeat would come now
                        }
                    }
                    while (dedupe(seen).size() < expectedCount()) {
                        if (System.nanoTime() > deadline) {
                            check(dedupe(seen));
                            fail("only " + dedupe(seen).size() + " distinct of " + expectedCount());
                        }
                        consumer.poll(Duration.ofMillis(500)).forEach(seen::add);
                    }
                    check(exactlyOnce ? seen : dedupe(seen));
                    System.out.println("after SIGKILL: " + (seen.size() - dedupe(seen).size()) + " records repeated of "
                            + seen.size());
                }
            } finally {
                first.close();
            }
        }
    }

    private static boolean containsValueOf(List<ConsumerRecord<byte[], byte[]>> seen, String prefix) {
        byte[] p = ("\"v\":\"" + prefix).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (ConsumerRecord<byte[], byte[]> r : seen) {
            if (r.value() != null && new String(r.value(), java.nio.charset.StandardCharsets.UTF_8)
                    .contains(new String(p, java.nio.charset.StandardCharsets.UTF_8))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The records without repeats: an event is identified by its source position (stream, time,
     * batch_seq_no) and op, a tombstone by the event before it for its key — how a Debezium consumer
     * dedupes after a crash.
     */
    private List<ConsumerRecord<byte[], byte[]>> dedupe(List<ConsumerRecord<byte[], byte[]>> seen) {
        JsonConverter keys = new JsonConverter();
        keys.configure(Map.of("schemas.enable", "true"), true);
        JsonConverter values = new JsonConverter();
        values.configure(Map.of("schemas.enable", "true"), false);
        Set<String> ids = new HashSet<>();
        Map<Object, String> lastId = new HashMap<>();
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : seen) {
            Object key = keys.toConnectData(topic(), r.key()).value();
            Struct value = (Struct) values.toConnectData(topic(), r.value()).value();
            String id;
            if (value == null) {
                id = lastId.get(key) + "/tombstone";
            } else {
                Struct source = value.getStruct("source");
                id = source.getString("stream_id") + "/" + source.getString("time") + "/" + source.getInt32("batch_seq_no")
                        + "/" + value.getString("op");
                lastId.put(key, id);
            }
            if (ids.add(id)) {
                out.add(r);
            }
        }
        return out;
    }

    @Test
    @DisplayName("a capture queue (tributary.queue) on a worker with exactly-once support: the LCRs its capture's rules "
            + "kept reach <prefix>.<queue> — every change of the tables the rules name once, in order per key; "
            + "another table's changes not at all; multi-row transactions whole and in commit order, each ending a "
            + "Kafka transaction, across a task restart; one task however large tasks.max")
    void aCaptureQueue(@TempDir Path dir) throws Exception {
        queueTopic = "it.q1";
        try (Rig rig = up(dir, true, true)) {
            createKeyspace("");
            client.execute("CREATE TABLE ks.t (pk int, ck int, v text, PRIMARY KEY (pk, ck))");
            client.execute("CREATE TABLE ks.tx (pk int, n int, v text, PRIMARY KEY (pk, n))");
            client.execute("CREATE TABLE ks.other (pk int PRIMARY KEY, v text)");
            client.admin().setUpQueue("q1");
            client.admin().addTableRules("ks.t", "cap1", "q1", true);
            client.admin().addTableRules("ks.tx", "cap1", "q1", true);
            client.admin().startCapture("cap1");

            Map<String, String> config = connector(node, "tributary.queue", "q1", 3);
            config.put("exactly.once.support", "required");
            // one partition: the topic's order is then the queue's commit order across keys, not per partition only
            config.put("topic.creation.default.partitions", "1");
            config.put("topic.creation.default.replication.factor", "1");
            worker.put("connectors/tributary/config", config);
            awaitTasks(worker, 1); // tasks.max 3, and the queue goes to one task
            List<List<String>> transactions = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                round(client, r);
                client.execute("INSERT INTO ks.other (pk, v) VALUES (?, ?)", r, "other" + r);
                transaction(transactions);
            }
            // the task restarted while transactions are written: it resumes after the last one committed
            java.util.concurrent.CountDownLatch someWritten = new java.util.concurrent.CountDownLatch(1);
            CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 30; i++) {
                    transaction(transactions);
                    if (i == 5) {
                        someWritten.countDown();
                    }
                }
                round(client, 3);
            });
            assertTrue(someWritten.await(60, TimeUnit.SECONDS), "the writer did not get going");
            worker.post("connectors/tributary/tasks/0/restart");
            writes.get(120, TimeUnit.SECONDS);
            awaitTasks(worker, 1);
            for (int i = 0; i < 5; i++) {
                transaction(transactions);
            }
            int expectedEvents = expectedCount() + transactions.stream().mapToInt(List::size).sum();
            List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
            readUntil(consumer, seen, expectedEvents);
            long quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < quietUntil) {
                consumer.poll(Duration.ofMillis(200)).forEach(seen::add); // a repeat, or ks.other, would come now
            }
            List<ConsumerRecord<byte[], byte[]>> ofT = new ArrayList<>();
            List<ConsumerRecord<byte[], byte[]>> ofTx = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : seen) {
                Struct v = r.value() == null ? null : (Struct) queueValues().toConnectData(queueTopic, r.value()).value();
                (v != null && "tx".equals(v.getStruct("source").getString("table")) ? ofTx : ofT).add(r);
            }
            check(ofT);
            checkTransactions(seen, ofTx, transactions);
        }
    }

    private int transactionsWritten;

    /** One batch of rows of ks.tx on several keys (so several streams), values "tx<n>-<i>": one transaction. */
    private void transaction(List<List<String>> transactions) {
        int n;
        synchronized (this) {
            n = transactionsWritten++;
        }
        int rows = 2 + n % 5;
        var b = client.batch();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            String v = "tx" + n + "-" + i;
            b.add("INSERT INTO ks.tx (pk, n, v) VALUES (?, ?, ?)", (n * 7 + i * 13) % 97, n, v);
            values.add(v);
        }
        b.execute();
        synchronized (transactions) {
            transactions.add(values);
        }
    }

    private static JsonConverter queueValues() {
        JsonConverter values = new JsonConverter();
        values.configure(Map.of("schemas.enable", "true"), false);
        return values;
    }

    /**
     * The queue's topic (one partition, read_committed) against the transactions written: each
     * one's events together, whole, once, and in the order they were written (one writer, so commit
     * order); every event of the topic in commit SCN order; and a Kafka transaction boundary (a gap
     * in the offsets a read_committed consumer sees: a commit or abort marker) only where a
     * Tributary transaction ends.
     */
    private static void checkTransactions(List<ConsumerRecord<byte[], byte[]>> all, List<ConsumerRecord<byte[], byte[]>> ofTx,
            List<List<String>> written) {
        JsonConverter values = queueValues();
        long lastScn = Long.MIN_VALUE;
        String lastTx = null;
        long lastOffset = -1;
        Set<String> closed = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : all) {
            assertEquals(0, r.partition());
            Struct v = r.value() == null ? null : (Struct) values.toConnectData("it.q1", r.value()).value();
            String tx = v == null ? lastTx : v.getStruct("source").getString("txId");
            if (v != null) {
                long scn = v.getStruct("source").getInt64("commit_scn");
                assertTrue(scn >= lastScn, "commit order: " + scn + " after " + lastScn + " at offset " + r.offset());
                lastScn = scn;
            }
            if (lastOffset >= 0 && r.offset() > lastOffset + 1) {
                assertTrue(!tx.equals(lastTx), "a Kafka transaction ends inside Tributary transaction " + tx + " (offsets "
                        + lastOffset + " to " + r.offset() + ")");
            }
            if (lastTx != null && !lastTx.equals(tx)) {
                assertTrue(closed.add(lastTx), "transaction " + lastTx + " comes in two pieces");
            }
            assertTrue(!closed.contains(tx), "transaction " + tx + " again after it ended");
            lastTx = tx;
            lastOffset = r.offset();
        }
        List<List<String>> found = new ArrayList<>();
        String current = null;
        for (ConsumerRecord<byte[], byte[]> r : ofTx) {
            Struct v = (Struct) values.toConnectData("it.q1", r.value()).value();
            String tx = v.getStruct("source").getString("txId");
            if (!tx.equals(current)) {
                found.add(new ArrayList<>());
                current = tx;
            }
            found.get(found.size() - 1).add(v.getStruct("after").getString("v"));
        }
        List<List<String>> expected = new ArrayList<>();
        for (List<String> t : written) {
            expected.add(t.stream().sorted().toList());
        }
        List<List<String>> actual = found.stream().map(t -> t.stream().sorted().toList()).toList();
        assertEquals(expected.size(), actual.size(), "transactions: " + actual);
        assertEquals(expected, actual, "each transaction whole, once, in commit order");
    }

    private static void awaitTasks(ConnectWorker worker, int tasks) throws Exception {
        awaitTasks(worker, "tributary", tasks);
    }

    private static void awaitTasks(ConnectWorker worker, String connector, int tasks) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        JsonNode status = null;
        while (System.nanoTime() < deadline) {
            try {
                status = worker.get("connectors/" + connector + "/status");
            } catch (ConnectWorker.RestError e) {
                if (e.status != 404) {
                    throw e;
                }
                Thread.sleep(100); // the connector's config is not read back by the herder yet: polled
                continue;
            }
            int running = 0;
            for (JsonNode t : status.get("tasks")) {
                if ("FAILED".equals(t.get("state").asText())) {
                    fail("task failed: " + t);
                }
                running += "RUNNING".equals(t.get("state").asText()) ? 1 : 0;
            }
            if (running == tasks && status.get("tasks").size() == tasks
                    && "RUNNING".equals(status.get("connector").get("state").asText())) {
                return;
            }
            Thread.sleep(100); // the worker's status is read over REST: polled
        }
        fail("not " + tasks + " running tasks within 90 s: " + status + "\n" + worker.logTail());
    }

    private void readUntil(KafkaConsumer<byte[], byte[]> consumer, List<ConsumerRecord<byte[], byte[]>> seen,
            int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        if (consumer.assignment().isEmpty()) {
            List<PartitionInfo> parts = List.of();
            while (parts.isEmpty()) {
                assertTrue(System.nanoTime() < deadline, "the topic " + topic() + " was never created");
                parts = consumer.partitionsFor(topic(), Duration.ofSeconds(5));
            }
            consumer.assign(parts.stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList());
            consumer.seekToBeginning(consumer.assignment());
        }
        while (seen.size() < count) {
            if (System.nanoTime() > deadline) {
                check(seen); // names the keys whose events are missing
                fail("only " + seen.size() + " of " + count + " records");
            }
            consumer.poll(Duration.ofMillis(500)).forEach(seen::add);
        }
    }

    /** The topic holds exactly the expected events per key, in order, and every written value once. */
    private synchronized void check(List<ConsumerRecord<byte[], byte[]>> seen) {
        JsonConverter keys = new JsonConverter();
        keys.configure(Map.of("schemas.enable", "true"), true);
        JsonConverter values = new JsonConverter();
        values.configure(Map.of("schemas.enable", "true"), false);
        Map<Integer, List<String>> actual = new LinkedHashMap<>();
        List<String> valuesSeen = new ArrayList<>();
        Map<Integer, String> lastValue = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : seen) {
            Struct key = (Struct) keys.toConnectData(topic(), r.key()).value();
            int pk = key.getInt32("pk");
            assertEquals(0, key.getInt32("ck"));
            Struct value = (Struct) values.toConnectData(topic(), r.value()).value();
            List<String> events = actual.computeIfAbsent(pk, k -> new ArrayList<>());
            if (value == null) {
                events.add("tombstone");
                continue;
            }
            String op = value.getString("op");
            Struct source = value.getStruct("source");
            assertEquals("tributary", source.getString("connector"));
            assertEquals("it", source.getString("name"));
            assertEquals(keyspace, source.getString("keyspace"));
            assertEquals("t", source.getString("table"));
            assertTrue(source.getInt64("scn") > 0 && source.getInt64("commit_scn") >= source.getInt64("scn"), source::toString);
            assertTrue(source.getString("stream_id").startsWith("0x"), source::toString);
            assertNotNull(source.get("generation"), source::toString);
            assertNotNull(value.get("ts_ms"));
            assertNotNull(value.getStruct("transaction").getString("id"));
            Struct before = value.getStruct("before");
            Struct after = value.getStruct("after");
            switch (op) {
                case "c" -> {
                    assertNull(before);
                    events.add("c:" + after.getString("v"));
                    valuesSeen.add(after.getString("v"));
                    lastValue.put(pk, after.getString("v"));
                }
                case "u" -> {
                    assertEquals(lastValue.get(pk), before.getString("v"), "before holds the value replaced");
                    events.add("u:" + after.getString("v"));
                    valuesSeen.add(after.getString("v"));
                    lastValue.put(pk, after.getString("v"));
                }
                case "d" -> {
                    assertNull(after);
                    assertEquals(pk, before.getInt32("pk"));
                    events.add("d");
                }
                default -> fail("op " + op);
            }
        }
        Map<String, Integer> counts = new HashMap<>();
        valuesSeen.forEach(v -> counts.merge(v, 1, Integer::sum));
        List<String> repeated = counts.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).sorted()
                .limit(20).toList();
        if (!repeated.isEmpty()) {
            StringBuilder where = new StringBuilder();
            for (ConsumerRecord<byte[], byte[]> r : seen) {
                Struct value = r.value() == null ? null : (Struct) values.toConnectData(topic(), r.value()).value();
                if (value != null && value.getStruct("after") != null
                        && repeated.contains(value.getStruct("after").getString("v"))) {
                    where.append("\n  ").append(value.getStruct("after").getString("v")).append(" at ").append(r.partition())
                            .append('/').append(r.offset()).append(" stream ").append(value.getStruct("source").get("stream_id"))
                            .append(" time ").append(value.getStruct("source").get("time"));
                }
            }
            System.out.println("REPEATED " + counts.values().stream().filter(c -> c > 1).count() + " values:" + where);
        }
        Set<String> missing = new HashSet<>(valuesWritten);
        missing.removeAll(valuesSeen);
        assertEquals(Set.of(), missing, "values written that no event carries");
        assertEquals(valuesWritten.size(), valuesSeen.size(), "every written value once: " + valuesSeen.size()
                + " events with values for " + valuesWritten.size() + " written");
        assertEquals(valuesWritten, new HashSet<>(valuesSeen));
        for (Map.Entry<Integer, List<String>> e : expected.entrySet()) {
            assertEquals(e.getValue(), actual.get(e.getKey()), "key " + e.getKey() + ": its events in write order");
        }
        assertEquals(expected, actual, "per key, the events in write order");
    }

    private static final int SNAPSHOT_KEYS = 300;

    /**
     * snapshot.mode=initial on the three nodes (each holds its token ranges' rows, factor 3) while a
     * writer goes on changing the rows: the connector "snap" reads ks.s's rows as op r, then every
     * change after each node's snapshot SCN. Its task 0 is restarted through REST while the rows are
     * still being sent (one row per Kafka transaction, so the snapshot takes a while): it goes on
     * after the committed offset's last token. Per key the topic must hold its row as of some point
     * of its history (or nothing if it was deleted then) followed by exactly the changes after that
     * point: none before it repeated, none after it missing, each value once.
     */
    private void initialSnapshotUnderWrites(ConnectWorker w, String bootstrap, List<String> endpoints) throws Exception {
        client.execute("CREATE TABLE IF NOT EXISTS ks.s (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
        Map<Integer, List<String>> history = new java.util.concurrent.ConcurrentHashMap<>();
        // single-row writes (a token-aware client sends each to its owner): a multi-partition batch would leave
        // rows on a node that does not own them, and a later write of the key would make a second row elsewhere
        List<CompletableFuture<Void>> loads = new ArrayList<>();
        for (int part = 0; part < 3; part++) {
            int first = part;
            loads.add(CompletableFuture.runAsync(() -> {
                for (int pk = first; pk < SNAPSHOT_KEYS; pk += 3) {
                    client.execute("INSERT INTO ks.s (pk, v) VALUES (?, ?)", pk, "s" + pk + "-0");
                    history.put(pk, new ArrayList<>(List.of("c:s" + pk + "-0")));
                }
            }));
        }
        for (CompletableFuture<Void> l : loads) {
            l.get(180, TimeUnit.SECONDS);
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicInteger written = new java.util.concurrent.atomic.AtomicInteger();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            java.util.Random random = new java.util.Random(33);
            Set<Integer> deleted = new HashSet<>();
            for (int n = 1; writing.get(); n++) {
                int pk = random.nextInt(SNAPSHOT_KEYS);
                List<String> h = history.get(pk);
                if (n % 11 == 0 && !deleted.contains(pk)) {
                    client.execute("DELETE FROM ks.s WHERE pk = ?", pk);
                    h.add("d");
                    h.add("tombstone");
                    deleted.add(pk);
                } else {
                    String v = "s" + pk + "-" + n;
                    client.execute("INSERT INTO ks.s (pk, v) VALUES (?, ?)", pk, v);
                    h.add((deleted.remove(pk) ? "c:" : "u:") + v);
                }
                written.incrementAndGet();
            }
        });
        try (KafkaConsumer<byte[], byte[]> k = consumer(bootstrap)) {
            Map<String, String> config = new HashMap<>();
            config.put("connector.class", TributarySourceConnector.class.getName());
            config.put("tasks.max", "2");
            config.put("tributary.endpoints", String.join(",", endpoints));
            config.put("tributary.tables", "ks.s");
            config.put("topic.prefix", "snap");
            config.put("snapshot.mode", "initial");
            config.put("snapshot.fetch.size", "16");
            config.put("max.batch.size", "1"); // a transaction per row (per token): the restart below finds it mid-way
            config.put("tributary.refresh.interval.ms", "500");
            config.put("exactly.once.support", "required");
            w.put("connectors/snap/config", config);
            awaitTasks(w, "snap", 2);

            List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
            assign(k, "snap.ks.s");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (seen.size() < 60) {
                assertTrue(System.nanoTime() < deadline, "only " + seen.size() + " snapshot rows reached snap.ks.s");
                k.poll(Duration.ofMillis(50)).forEach(seen::add);
            }
            assertTrue(snapshotMarkers(seen).stream().noneMatch("last"::equals), "the snapshot is still being sent");
            w.post("connectors/snap/tasks/0/restart");
            int restartedAt = seen.size();
            // writes go on until the snapshot is sent and some changes after it are out
            while (!snapshotMarkers(seen).contains("last")) {
                assertTrue(System.nanoTime() < deadline, "the snapshot never ended: " + seen.size() + " records");
                k.poll(Duration.ofMillis(100)).forEach(seen::add);
            }
            int atLast = written.get();
            TestNodes.await(() -> written.get() > atLast + 30, Duration.ofSeconds(60), "writes after the snapshot");
            writing.set(false);
            writer.get(60, TimeUnit.SECONDS);
            // every key's last write in the topic (its value, or its delete's tombstone), then a while longer for a repeat
            while (!lastWritesSeen(seen, history)) {
                assertTrue(System.nanoTime() < deadline + TimeUnit.SECONDS.toNanos(60), "the last writes never came");
                k.poll(Duration.ofMillis(200)).forEach(seen::add);
            }
            long quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < quietUntil) {
                k.poll(Duration.ofMillis(200)).forEach(seen::add);
            }
            checkSnapshotThenChanges(seen, history);
            for (ConsumerRecord<byte[], byte[]> r : seen) { // one read event as the topic holds it (docs/KAFKA.md shows it)
                String value = r.value() == null ? "" : new String(r.value(), java.nio.charset.StandardCharsets.UTF_8);
                if (value.contains("\"op\":\"r\"")) {
                    System.out.println("EXAMPLE r key " + new String(r.key(), java.nio.charset.StandardCharsets.UTF_8)
                            + "\nEXAMPLE r value " + value);
                    break;
                }
            }
            System.out.println("initial snapshot under writes: task 0 restarted after " + restartedAt + " records; "
                    + seen.size() + " records, " + written.get() + " writes, snapshot SCNs " + snapshotScns(seen));
        }
        w.delete("connectors/snap");
    }

    private static void assign(KafkaConsumer<byte[], byte[]> k, String topic) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        List<PartitionInfo> parts = List.of();
        while (parts.isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "the topic " + topic + " was never created");
            parts = k.partitionsFor(topic, Duration.ofSeconds(5));
        }
        k.assign(parts.stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList());
        k.seekToBeginning(k.assignment());
    }

    private static Struct valueOf(ConsumerRecord<byte[], byte[]> r, String topic) {
        JsonConverter values = new JsonConverter();
        values.configure(Map.of("schemas.enable", "true"), false);
        return r.value() == null ? null : (Struct) values.toConnectData(topic, r.value()).value();
    }

    private static List<String> snapshotMarkers(List<ConsumerRecord<byte[], byte[]>> seen) {
        List<String> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : seen) {
            Struct v = valueOf(r, "snap.ks.s");
            if (v != null && "r".equals(v.getString("op"))) {
                out.add(v.getStruct("source").getString("snapshot"));
            }
        }
        return out;
    }

    private static Set<Long> snapshotScns(List<ConsumerRecord<byte[], byte[]>> seen) {
        Set<Long> out = new java.util.TreeSet<>();
        for (ConsumerRecord<byte[], byte[]> r : seen) {
            Struct v = valueOf(r, "snap.ks.s");
            if (v != null && "r".equals(v.getString("op"))) {
                out.add(v.getStruct("source").getInt64("scn"));
            }
        }
        return out;
    }

    /** Each key's events as "r:v", "c:v", "u:v", "d", "tombstone", in topic order (a key stays in one partition). */
    private static Map<Integer, List<String>> snapshotEvents(List<ConsumerRecord<byte[], byte[]>> seen) {
        JsonConverter keys = new JsonConverter();
        keys.configure(Map.of("schemas.enable", "true"), true);
        Map<Integer, List<String>> actual = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : seen) {
            int pk = ((Struct) keys.toConnectData("snap.ks.s", r.key()).value()).getInt32("pk");
            Struct v = valueOf(r, "snap.ks.s");
            List<String> events = actual.computeIfAbsent(pk, x -> new ArrayList<>());
            if (v == null) {
                events.add("tombstone");
                continue;
            }
            String op = v.getString("op");
            events.add("d".equals(op) ? "d" : op + ":" + v.getStruct("after").getString("v"));
        }
        return actual;
    }

    private static boolean lastWritesSeen(List<ConsumerRecord<byte[], byte[]>> seen, Map<Integer, List<String>> history) {
        Map<Integer, List<String>> actual = snapshotEvents(seen);
        for (Map.Entry<Integer, List<String>> e : history.entrySet()) {
            List<String> a = actual.getOrDefault(e.getKey(), List.of());
            String last = e.getValue().get(e.getValue().size() - 1);
            if (a.isEmpty() && "tombstone".equals(last)) {
                continue; // deleted before the snapshot (whose rows are all out by now) and not written since
            }
            if (a.isEmpty() || !a.get(a.size() - 1).substring(a.get(a.size() - 1).indexOf(':') + 1)
                    .equals(last.substring(last.indexOf(':') + 1))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Per key: its row as of a point of its history ("r:v" right after the write of v, or no row
     * right after a delete), then exactly its history after that point; one "last" marker in all.
     */
    private static void checkSnapshotThenChanges(List<ConsumerRecord<byte[], byte[]>> seen,
            Map<Integer, List<String>> history) {
        Map<Integer, List<String>> actual = snapshotEvents(seen);
        int rows = 0;
        for (Map.Entry<Integer, List<String>> e : history.entrySet()) {
            List<String> h = e.getValue();
            List<String> a = actual.getOrDefault(e.getKey(), List.of());
            boolean ok = false;
            if (!a.isEmpty() && a.get(0).startsWith("r:")) {
                rows++;
                String v = a.get(0).substring(2);
                for (int i = 1; i <= h.size() && !ok; i++) {
                    String w = h.get(i - 1);
                    ok = w.substring(w.indexOf(':') + 1).equals(v) && w.indexOf(':') > 0
                            && h.subList(i, h.size()).equals(a.subList(1, a.size()));
                }
            } else {
                for (int i = 0; i <= h.size() && !ok; i++) {
                    ok = (i == 0 || "tombstone".equals(h.get(i - 1))) && h.subList(i, h.size()).equals(a);
                }
            }
            assertTrue(ok, "key " + e.getKey() + ": events " + a + " are not its row as of one point of its history "
                    + h + " and then exactly the changes after it");
        }
        assertTrue(history.keySet().containsAll(actual.keySet()), "events only of keys written");
        List<String> markers = snapshotMarkers(seen);
        assertEquals(rows, markers.size(), "one r event per key at most: " + rows + " keys with a row");
        assertEquals(1, markers.stream().filter("last"::equals).count(), "one last snapshot record: " + markers);
        assertTrue(rows > SNAPSHOT_KEYS / 2, rows + " rows in the snapshot");
    }

    /** A node at replication factor 3 in a JVM of its own (the kit's), so it can be killed with SIGKILL. */
    private static NodeProcess nodeProcess(Path dataDir, String zookeeper, String name) throws java.io.IOException {
        return NodeProcess.start(dataDir, "--native-listen", "none", "--metrics-listen", "none", "--ring-delay", "1s",
                "--zookeeper", zookeeper, "--replication-factor", "3", "--name", name);
    }
}
