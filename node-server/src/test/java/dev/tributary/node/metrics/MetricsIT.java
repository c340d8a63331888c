package dev.tributary.node.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A node's /metrics, scraped over HTTP as Prometheus does, follows its commits, captures and queues. */
@Timeout(120)
class MetricsIT {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})?\\s+(\\S+)$");
    private final HttpClient http = HttpClient.newHttpClient();

    /** Every sample of the text format, keyed {@code name{labels}} as written. */
    private Map<String, Double> scrape(MetricsEndpoint endpoint) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + endpoint.endpoint() + "/metrics"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            Map<String, Double> out = new HashMap<>();
            for (String line : r.body().split("\n")) {
                Matcher m = SAMPLE.matcher(line);
                if (!line.startsWith("#") && m.matches()) {
                    out.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)));
                }
            }
            return out;
        } catch (java.io.IOException | InterruptedException e) {
            throw new AssertionError("scrape failed: " + e, e);
        }
    }

    private static double value(Map<String, Double> samples, String name, String... labels) {
        return samples.entrySet().stream().filter(e -> e.getKey().equals(name) || e.getKey().startsWith(name + "{"))
                .filter(e -> java.util.Arrays.stream(labels).allMatch(l -> e.getKey().contains(l)))
                .mapToDouble(Map.Entry::getValue).findFirst()
                .orElseThrow(() -> new AssertionError("no sample " + name + " with " + java.util.Arrays.toString(labels)
                        + " among " + new java.util.TreeSet<>(samples.keySet())));
    }

    @Test
    void commitsCapturesQueuesStoreAndJvmAreScraped(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir.resolve("n1"));
                TestNodes.Wire w = new TestNodes.Wire(node);
                MetricsEndpoint endpoint = MetricsEndpoint.start(node.metrics(), "127.0.0.1", 0)) {
            String me = "node=\"" + node.hostId() + "\"";
            Map<String, Double> first = scrape(endpoint);
            assertEquals(1.0, value(first, "tributary_node_state", me, "state=\"serving\""));
            assertEquals(0.0, value(first, "tributary_node_state", me, "state=\"starting\""));
            assertEquals(0.0, value(first, "tributary_node_zookeeper_session_lost", me));
            assertTrue(value(first, "jvm_memory_used_bytes", "area=\"heap\"") > 0, "the JVM's own metrics");
            double commitsBefore = value(first, "tributary_commit_duration_seconds_count", me);

            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            w.exec("CREATE TABLE ks.other (id int PRIMARY KEY, v int)");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'cap', queue_name => 'q')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            long scn = 0;
            for (int i = 0; i < 20; i++) {
                scn = w.exec("INSERT INTO ks.t (id, v) VALUES (" + i + ", " + i + ")").getCommitScn();
            }
            for (int i = 0; i < 5; i++) {
                scn = w.exec("INSERT INTO ks.other (id, v) VALUES (" + i + ", " + i + ")").getCommitScn();
            }
            w.awaitCaptured("cap", scn);
            TestNodes.await(() -> value(scrape(endpoint), "tributary_capture_lcrs_enqueued_total", me, "capture=\"cap\"") >= 20,
                    Duration.ofSeconds(30), "20 LCRs counted as enqueued by cap");
            // ks.other's rows are no table rule's: the rules rejected them, as the counter says
            double filtered = value(scrape(endpoint), "tributary_capture_lcrs_filtered_total", me, "capture=\"cap\"");
            assertTrue(filtered >= 5 && filtered < 20, "ks.other's 5 rows rejected, ks.t's 20 kept: " + filtered);
            Map<String, Double> after = scrape(endpoint);
            assertTrue(value(after, "tributary_commit_duration_seconds_count", me) >= commitsBefore + 20, "each write counted");
            assertTrue(value(after, "tributary_commit_duration_seconds_bucket", me, "le=\"+Inf\"") >= commitsBefore + 20);
            assertTrue(value(after, "tributary_capture_redo_entries_scanned_total", me, "capture=\"cap\"") >= 20);
            assertEquals(1.0, after.entrySet().stream().filter(e -> e.getKey().startsWith("tributary_capture_state{")
                    && e.getKey().contains("capture=\"cap\"")).mapToDouble(Map.Entry::getValue).sum(), "cap is in one state");
            assertTrue(value(after, "tributary_queue_buffered_bytes", me, "queue=\"q\"") >= 0);
            assertTrue(value(after, "tributary_rocksdb_memtable_bytes", me) > 0, "rows in the memtables");
            value(after, "tributary_rocksdb_pending_compaction_bytes", me);
            value(after, "tributary_rocksdb_sst_bytes", me);
            assertEquals(0.0, value(after, "tributary_rocksdb_max_disk_bytes", me), "no --max-disk-bytes");
            assertTrue(value(after, "tributary_generation_age_seconds", me) >= 0, "the first generation is in force");
            assertEquals(0.0, value(after, "tributary_change_stream_readers", me));

            // a consumer group, seen in ZooKeeper; a tablet table's stream set
            io.grpc.ManagedChannel ch = io.grpc.ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
            try {
                dev.tributary.protocol.v1.ConsumerGroupServiceGrpc.newBlockingStub(ch).withDeadlineAfter(10,
                        java.util.concurrent.TimeUnit.SECONDS).join(dev.tributary.protocol.v1.JoinRequest.newBuilder().setGroup("g1")
                                .setLog(dev.tributary.protocol.v1.GroupLog.newBuilder().setQueue("q")).setMemberId("m1")
                                .setLeaseMillis(60_000).build());
            } finally {
                ch.shutdownNow();
            }
            w.exec("CREATE KEYSPACE tk WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1} "
                    + "AND tablets = {'enabled': true}");
            w.exec("CREATE TABLE tk.t (id int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
            Map<String, Double> more = scrape(endpoint);
            assertEquals(1.0, value(more, "tributary_consumer_group_members", me, "group=\"g1\"", "log=\"q\""));
            assertTrue(value(more, "tributary_consumer_group_lag_seconds", me, "group=\"g1\"") >= 0);
            value(more, "tributary_tablet_set_age_seconds", me);

            // lag rises while the capture is stopped and the writes go on, and falls once it runs again
            w.exec("CALL dbms_capture_adm.stop_capture(capture_name => 'cap')");
            for (int i = 100; i < 110; i++) {
                scn = w.exec("INSERT INTO ks.t (id, v) VALUES (" + i + ", " + i + ")").getCommitScn();
            }
            TestNodes.await(() -> value(scrape(endpoint), "tributary_capture_lag_seconds", me, "capture=\"cap\"") >= 3,
                    Duration.ofSeconds(30), "cap's lag to rise while it is stopped");
            assertTrue(value(scrape(endpoint), "tributary_capture_lag_scn", me, "capture=\"cap\"") > 0);
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            w.awaitCaptured("cap", scn);
            // caught up, a running capture trails the durable redo by no more than its wake-up interval
            TestNodes.await(() -> value(scrape(endpoint), "tributary_capture_lag_seconds", me, "capture=\"cap\"") < 2,
                    Duration.ofSeconds(30), "cap's lag to fall once it caught up");
        }
    }

    @Test
    void anApplyIntoAnotherClusterIsScraped(@TempDir Path dir) throws Exception {
        try (TributaryNode east = TestNodes.startCluster(dir.resolve("east"), "east");
                TributaryNode west = TestNodes.startCluster(dir.resolve("west"), "west");
                TestNodes.Wire w = new TestNodes.Wire(east);
                TestNodes.Wire d = new TestNodes.Wire(west);
                MetricsEndpoint endpoint = MetricsEndpoint.start(east.metrics(), "127.0.0.1", 0)) {
            String me = "node=\"" + east.hostId() + "\"";
            for (TestNodes.Wire x : java.util.List.of(w, d)) {
                x.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
                x.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            }
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'cap', queue_name => 'q')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            w.exec("CREATE DATABASE LINK west USING '" + west.endpoint() + "'");
            w.exec("CALL dbms_apply_adm.create_apply(queue_name => 'q', apply_name => 'to_west', apply_database_link => 'west')");
            long scn = ((Number) w.scalar("SELECT current_scn FROM system_views.database")).longValue();
            w.exec("CALL dbms_apply_adm.set_schema_instantiation_scn(source_schema_name => 'ks', instantiation_scn => " + scn
                    + ", apply_database_link => 'west')");
            w.exec("CALL dbms_apply_adm.start_apply(apply_name => 'to_west')");
            for (int i = 0; i < 10; i++) {
                w.exec("INSERT INTO ks.t (id, v) VALUES (" + i + ", " + i + ")");
            }
            TestNodes.await(() -> value(scrape(endpoint), "tributary_apply_transactions_total", me, "apply=\"to_west\"") >= 10,
                    Duration.ofSeconds(60), "the apply's 10 transactions counted");
            TestNodes.await(() -> value(scrape(endpoint), "tributary_apply_lag_scn", me, "apply=\"to_west\"") == 0,
                    Duration.ofSeconds(30), "no lag once it applied everything");
            Map<String, Double> after = scrape(endpoint);
            assertEquals(0.0, value(after, "tributary_apply_error_transactions_total", me, "apply=\"to_west\""));
            assertEquals(1.0, after.entrySet().stream().filter(e -> e.getKey().startsWith("tributary_apply_state{")
                    && e.getKey().contains("apply=\"to_west\"")).mapToDouble(Map.Entry::getValue).sum(), "the apply is in one state");
            assertEquals(10, d.exec("SELECT id FROM ks.t").getRowsCount(), "the rows reached the other cluster");
            assertEquals(0.0, value(after, "tributary_apply_aborts_total", me, "apply=\"to_west\""));

            // a conflict without a handler stops the apply (disable_on_error): counted, and still reported once stopped
            d.exec("UPDATE ks.t SET v = 99 WHERE id = 1");
            w.exec("UPDATE ks.t SET v = 2 WHERE id = 1");
            TestNodes.await(() -> "ABORTED".equals(w.scalar("SELECT status FROM system_views.apply WHERE apply_name = 'to_west'")),
                    Duration.ofSeconds(60), "the apply to stop at the conflict");
            Map<String, Double> aborted = scrape(endpoint);
            assertEquals(1.0, value(aborted, "tributary_apply_aborts_total", me, "apply=\"to_west\""));
            assertFalse(aborted.keySet().stream().anyMatch(k -> k.startsWith("tributary_apply_lag_seconds{")
                    && k.contains("apply=\"to_west\"")), "a stopped apply has no lag of its own");
        }
    }
}
