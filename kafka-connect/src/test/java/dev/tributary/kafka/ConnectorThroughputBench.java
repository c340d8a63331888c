package dev.tributary.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.StartPosition;
import dev.tributary.client.TributaryClient;
import dev.tributary.node.NodeConfig;
import dev.tributary.node.ReplicatedNode;
import dev.tributary.node.coord.EmbeddedZooKeeper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Throughput of the connector beside the SDK's for the same rows (docs/BENCHMARKS.md, "Into
 * Kafka"): three replicated nodes, a keyspace at factor 3, {@code tributary.bench.rows} rows
 * written first; then the SDK's {@code ChangeConsumer} reads them all from the earliest position,
 * then the connector (4 tasks, on a worker with exactly-once source support) sends them all into
 * Kafka, counted by a read_committed consumer. Not in the suite (the name matches neither *Test
 * nor *IT): {@code mvn -o verify -pl kafka-connect -Dtest=ConnectorThroughputBench
 * -Dsurefire.failIfNoSpecifiedTests=false [-Dtributary.bench.rows=N] [-Dtributary.bench.exactlyOnce=false]
 * [-Dtributary.bench.producerBatch=BYTES] [-Dtributary.bench.compression=lz4] [-Dtributary.bench.schemas=false]
 * [-Dtributary.bench.txIntervalMs=MS]
 * [-Dtributary.bench.snapshot=true]}.
 * With {@code snapshot=true} both read the rows instead of their changes: the SDK each node's
 * ReadTableSnapshot, the connector its {@code snapshot.mode=initial} (the changes before the
 * snapshot are then not sent, so Kafka again gets one event per row).
 */
@Timeout(900)
class ConnectorThroughputBench {
    private static final int ROWS = Integer.getInteger("tributary.bench.rows", 50_000);
    private static final int BATCH = 100;
    private static final int WRITERS = 4;
    private static final int TASKS = 4;
    /** Off: the same worker at at-least-once, to tell the cost of a Kafka transaction per poll. */
    private static final boolean EXACTLY_ONCE = !"false".equals(System.getProperty("tributary.bench.exactlyOnce"));
    /**
     * The producer's batch.size for the connector (0: the worker's default, 16 KB). An event with its
     * JSON schema is about 2.5 KB, and a Connect producer has one request in flight per broker, so
     * with 16 KB batches a round trip carries six events or so.
     */
    private static final int PRODUCER_BATCH = Integer.getInteger("tributary.bench.producerBatch", 0);
    /**
     * With exactly once: a Kafka transaction every this many ms (transaction.boundary=interval)
     * instead of one per poll (0, the default). Thread dumps of the default run find the tasks
     * waiting for their commit most of the time.
     */
    private static final int TX_INTERVAL_MS = Integer.getInteger("tributary.bench.txIntervalMs", 0);
    /** The producer's compression.type for the connector (empty: the worker's default, none). */
    private static final String COMPRESSION = System.getProperty("tributary.bench.compression", "");
    /** Off: the JSON converter without a schema in each message (the connector's own converter settings). */
    private static final boolean SCHEMAS = !"false".equals(System.getProperty("tributary.bench.schemas"));
    /** The initial snapshot's figures instead of the change streams'. */
    private static final boolean SNAPSHOT = Boolean.getBoolean("tributary.bench.snapshot");

    @Test
    void eventsPerSecondIntoKafkaBesideTheSdk(@TempDir Path dir) throws Exception {
        List<ReplicatedNode> nodes = new ArrayList<>();
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0)) {
            try {
                for (int i = 1; i <= 3; i++) {
                    nodes.add(ReplicatedNode.start(NodeConfig.parse(new String[] {"--data-dir", dir.resolve("n" + i).toString(),
                            "--listen", "127.0.0.1:0", "--native-listen", "none", "--zookeeper", zk.connectString(),
                            "--ring-delay", "1s", "--num-tokens", "8", "--name", "n" + i, "--replication", "raft",
                            "--replication-factor", "3"}), Duration.ofSeconds(60)));
                }
                List<String> endpoints = new ArrayList<>();
                nodes.forEach(n -> n.instances().values().forEach(t -> endpoints.add(t.endpoint())));
                try (TributaryClient client = TributaryClient.builder().endpoints(endpoints.toArray(String[]::new)).build()) {
                    createTable(client);
                    long writeNanos = write(client);
                    System.out.printf("BENCH wrote %d rows in %.1f s (%.0f rows/s, batches of %d, %d writers, factor 3)%n",
                            ROWS, writeNanos / 1e9, ROWS / (writeNanos / 1e9), BATCH, WRITERS);
                    double sdk = SNAPSHOT ? sdkSnapshot(client) : sdk(client);
                    double kafka = kafka(dir, endpoints);
                    System.out.printf("BENCH rows %d: SDK %s %.0f events/s, connector into Kafka %.0f events/s "
                            + "(%.2fx)%n", ROWS, SNAPSHOT ? "ReadTableSnapshot" : "ChangeConsumer", sdk, kafka, kafka / sdk);
                }
            } finally {
                nodes.forEach(ReplicatedNode::close);
            }
        }
    }

    private static void createTable(TributaryClient client) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                client.execute("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', "
                        + "'replication_factor': 3}");
                client.execute("CREATE TABLE IF NOT EXISTS ks.t (pk int, ck int, v text, PRIMARY KEY (pk, ck)) "
                        + "WITH cdc = {'enabled': true}");
                client.execute("INSERT INTO ks.t (pk, ck, v) VALUES (?, ?, ?)", -1, 0, "first");
                return;
            } catch (RuntimeException e) {
                // the first generation is a ring delay ahead and the groups elect leaders: nothing is written before
                assertTrue(System.nanoTime() < deadline, "the table never took a write: " + e);
                Thread.sleep(200);
            }
        }
    }

    /** The rows, 200 bytes of value each, in batches from several writers; returns the time taken. */
    private static long write(TributaryClient client) throws Exception {
        String value = "x".repeat(200);
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    for (int first = writer * BATCH; first < ROWS; first += WRITERS * BATCH) {
                        var b = client.batch();
                        for (int pk = first; pk < Math.min(first + BATCH, ROWS); pk++) {
                            b.add("INSERT INTO ks.t (pk, ck, v) VALUES (?, ?, ?)", pk, 0, value);
                        }
                        b.execute();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(600, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return System.nanoTime() - start;
    }

    /** The SDK's figure: one ChangeConsumer, as many workers as the connector has tasks, from earliest. */
    private static double sdk(TributaryClient client) throws Exception {
        AtomicLong rows = new AtomicLong();
        AtomicLong firstAt = new AtomicLong();
        AtomicLong lastAt = new AtomicLong();
        long start = System.nanoTime();
        try (ChangeConsumer c = ChangeConsumer.builder(client).table("ks.t").start(StartPosition.earliest()).workers(TASKS)
                .handler(r -> {
                    if (r.isRow()) {
                        long n = rows.incrementAndGet();
                        long now = System.nanoTime();
                        firstAt.compareAndSet(0, now);
                        if (n >= ROWS + 1) {
                            lastAt.compareAndSet(0, now);
                        }
                    }
                }).build()) {
            c.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(600);
            while (lastAt.get() == 0) {
                assertTrue(System.nanoTime() < deadline, "the SDK delivered " + rows.get() + " of " + (ROWS + 1));
                Thread.sleep(20); // the handler runs on the consumer's workers: the count is polled
            }
        }
        return report("SDK ChangeConsumer", ROWS + 1, start, firstAt.get(), lastAt.get());
    }

    /** The SDK's snapshot figure: every node's rows read with ReadTableSnapshot, one node after another. */
    private static double sdkSnapshot(TributaryClient client) {
        long rows = 0;
        long firstAt = 0;
        long start = System.nanoTime();
        for (dev.tributary.client.ChangeReader.SnapshotNode n : client.changes().snapshotNodes("ks.t")) {
            try (dev.tributary.client.TableSnapshotRead read = client.changes().readSnapshot("ks.t", n.endpoint(),
                    java.util.OptionalLong.empty(), 1024)) {
                while (read.hasNext()) {
                    read.next();
                    rows++;
                    firstAt = firstAt == 0 ? System.nanoTime() : firstAt;
                }
            }
        }
        assertEquals(ROWS + 1, rows, "every row once");
        return report("SDK ReadTableSnapshot", rows, start, firstAt, System.nanoTime());
    }

    /** The connector's figure: from the connector's creation until a read_committed consumer has every event. */
    private static double kafka(Path dir, List<String> endpoints) throws Exception {
        Files.createDirectories(dir.resolve("kafka"));
        try (KafkaBroker broker = KafkaBroker.start(dir.resolve("kafka"), 3);
                ConnectWorker worker = EXACTLY_ONCE ? ConnectWorker.startExactlyOnce(broker.bootstrap(), "bench")
                        : ConnectWorker.start(broker.bootstrap(), "bench");
                KafkaConsumer<byte[], byte[]> consumer = consumer(broker.bootstrap())) {
            Map<String, String> config = new HashMap<>();
            config.put("connector.class", TributarySourceConnector.class.getName());
            config.put("tasks.max", Integer.toString(TASKS));
            config.put("tributary.endpoints", String.join(",", endpoints));
            config.put("tributary.tables", "ks.t");
            config.put("topic.prefix", "bench");
            if (SNAPSHOT) {
                config.put("snapshot.mode", "initial");
            }
            if (EXACTLY_ONCE) {
                config.put("exactly.once.support", "required");
            }
            if (EXACTLY_ONCE && TX_INTERVAL_MS > 0) {
                config.put("transaction.boundary", "interval");
                config.put("transaction.boundary.interval.ms", Integer.toString(TX_INTERVAL_MS));
            }
            if (PRODUCER_BATCH > 0) {
                config.put("producer.override.batch.size", Integer.toString(PRODUCER_BATCH));
                config.put("producer.override.linger.ms", "10");
            }
            if (!SCHEMAS) {
                for (String side : List.of("key", "value")) {
                    config.put(side + ".converter", "org.apache.kafka.connect.json.JsonConverter");
                    config.put(side + ".converter.schemas.enable", "false");
                }
            }
            if (!COMPRESSION.isEmpty()) {
                config.put("producer.override.compression.type", COMPRESSION);
            }
            long start = System.nanoTime();
            worker.put("connectors/bench/config", config);
            List<PartitionInfo> parts = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(600);
            while (parts == null || parts.isEmpty()) {
                assertTrue(System.nanoTime() < deadline, "the topic was never created");
                parts = consumer.partitionsFor("bench.ks.t", Duration.ofSeconds(5));
            }
            consumer.assign(parts.stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList());
            consumer.seekToBeginning(consumer.assignment());
            long seen = 0;
            long firstAt = 0;
            long lastAt = 0;
            while (seen < ROWS + 1) {
                assertTrue(System.nanoTime() < deadline, "Kafka has " + seen + " of " + (ROWS + 1) + " events");
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    seen++;
                    firstAt = firstAt == 0 ? System.nanoTime() : firstAt;
                }
            }
            lastAt = System.nanoTime();
            assertEquals(ROWS + 1, seen, "no event twice");
            return report("connector into Kafka (" + (SNAPSHOT ? "initial snapshot, " : "") + (EXACTLY_ONCE ? "exactly once, a transaction " + (TX_INTERVAL_MS > 0 ? "every " + TX_INTERVAL_MS + " ms" : "per poll")
                    : "at least once") + ", producer batch "
                    + (PRODUCER_BATCH > 0 ? PRODUCER_BATCH + " B, linger 10 ms" : "default")
                    + (COMPRESSION.isEmpty() ? "" : ", " + COMPRESSION) + (SCHEMAS ? "" : ", JSON without schemas") + ")",
                    seen, start, firstAt, lastAt);
        }
    }

    private static double report(String what, long events, long start, long firstAt, long lastAt) {
        double total = (lastAt - start) / 1e9;
        double flow = (lastAt - firstAt) / 1e9;
        System.out.printf("BENCH %s: %d events in %.1f s from the start (%.0f events/s), %.1f s first to last "
                + "(%.0f events/s)%n", what, events, total, events / total, flow, events / flow);
        return events / total;
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
