package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code tributary local-cluster} with real ZooKeeper and node processes on 127.0.0.1. */
@Timeout(300)
class LocalClusterIT {
    @TempDir
    Path dir;
    private ByteArrayOutputStream out = new ByteArrayOutputStream();

    private int cli(String... args) {
        out = new ByteArrayOutputStream();
        Terminal t = new Terminal(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(out, true, StandardCharsets.UTF_8), false);
        return new Tributary(t, ClientFactory.netty(), NodeRunner.nodeServer()).run(args);
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Scrapes the cluster of the test that started it. */
    private PrometheusServer prometheus;

    @AfterEach
    void down() {
        if (prometheus != null) {
            prometheus.close();
        }
        if (Files.exists(dir.resolve(ClusterFile.NAME))) {
            cli("local-cluster", "down", "--base-dir", dir.toString()); // never leave processes behind
        }
    }

    private static long generations(String endpoint) {
        try (TributaryClient c = TributaryClient.builder().endpoints(endpoint).requestTimeout(Duration.ofSeconds(30)).build()) {
            return c.execute("SELECT time FROM system_distributed.cdc_generation_timestamps WHERE key = 'timestamps'").size();
        }
    }

    @Test
    @DisplayName("a keyspace's replication_factor decides its copies: local-cluster up --nodes 3 with no other option; a "
            + "keyspace of factor 3 beside one of factor 1 takes writes and loses nothing when a node is killed and its "
            + "disk deleted; a real Prometheus scraping the nodes counts the failover and has data for every dashboard panel")
    void aKeyspaceOfFactorThreeSurvivesALostNodeAndDisk() throws Exception {
        int port = 18460 + (int) (ProcessHandle.current().pid() % 400);
        assertEquals(0, cli("local-cluster", "up", "--nodes", "3", "--base-dir", dir.toString(), "--base-port",
                Integer.toString(port), "--base-native-port", Integer.toString(port + 500),
                "--base-metrics-port", Integer.toString(port + 700), "--ring-delay", "1s",
                "--num-tokens", "8"), output());
        ClusterFile c = ClusterFile.read(dir);
        List<String> endpoints = c.nodes().stream().map(ClusterFile.Node::endpoint).toList();
        prometheus = PrometheusServer.start(dir.resolve("prometheus"), c.nodes().stream().map(ClusterFile.Node::metricsEndpoint).toList());
        try (TributaryClient client = TributaryClient.builder().endpoints(endpoints).build()) {
            client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 3}");
            client.execute("CREATE KEYSPACE one WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            client.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
            client.execute("CREATE TABLE one.t (pk int PRIMARY KEY, v int)");
            // the first write waits (UNAVAILABLE, retried by the client) while the groups grow to three
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (true) {
                try {
                    client.execute("INSERT INTO ks.t (pk, v) VALUES (-1, -1)");
                    break;
                } catch (RuntimeException e) {
                    assertTrue(System.nanoTime() < deadline, "the first write of a factor-3 keyspace: " + e);
                }
            }
            // a capture process, an apply and a consumer group, so the dashboard has something to show of each; on
            // node 1, which the test does not kill (procedures run on the node they are sent to)
            try (TributaryClient one = TributaryClient.builder().endpoints(endpoints.get(0)).build()) {
                one.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'one.t', streams_type => 'capture', "
                        + "streams_name => 'cap', queue_name => 'q')");
                one.execute("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
                one.execute("CREATE DATABASE LINK here USING '" + endpoints.get(0) + "'");
                one.execute("CALL dbms_apply_adm.create_apply(queue_name => 'q', apply_name => 'app', apply_database_link => 'here')");
                long scn = one.execute("SELECT current_scn FROM system_views.database").one().getLong(0);
                one.execute("CALL dbms_apply_adm.set_schema_instantiation_scn(source_schema_name => 'one', instantiation_scn => "
                        + scn + ", apply_database_link => 'here')");
                // it applies one.t onto itself: each insert conflicts and goes to the error queue, and the apply goes on
                one.execute("CALL dbms_apply_adm.set_parameter(apply_name => 'app', parameter => 'disable_on_error', value => 'N')");
                one.execute("CALL dbms_apply_adm.start_apply(apply_name => 'app')");
            }
            joinGroup(endpoints.get(0), "g1", "q");
            for (int i = 0; i < 200; i++) {
                client.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, i);
                client.execute("INSERT INTO one.t (pk, v) VALUES (?, ?)", i, i);
            }
        }
        assertEquals(0, cli("local-cluster", "kill", "--node", "2", "--base-dir", dir.toString()), output());
        deleteTree(Path.of(c.node(2).dataDir()));
        List<String> alive = List.of(c.node(1).endpoint(), c.node(3).endpoint());
        try (TributaryClient client = TributaryClient.builder().endpoints(alive).build()) {
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            long rows = -1;
            while (rows != 201) {
                assertTrue(System.nanoTime() < deadline, "every acknowledged row of ks.t readable, got " + rows);
                try {
                    rows = client.execute("SELECT count(*) FROM ks.t").one().getLong(0);
                } catch (RuntimeException e) {
                    rows = -1; // node 2's instance is moving to a replica
                }
            }
            assertEquals(200, client.execute("SELECT count(*) FROM one.t").one().getLong(0),
                    "the factor-1 keyspace beside it got three copies too: nothing lost");
        }
        // the survivors' /metrics, read directly
        for (int id : new int[] {1, 3}) {
            String metrics = scrape(c.node(id).metricsEndpoint());
            assertTrue(metrics.contains("tributary_node_state{node=\"" + c.node(id).hostId() + "\",state=\"serving\"} 1"), metrics);
            assertTrue(metrics.contains("tributary_raft_role{group=\"" + c.node(id).hostId() + "\",role=\"leader\"} 1"),
                    "node" + id + " leads its own group: " + metrics);
        }
        // node 2's instance failed over to a survivor: a real Prometheus scraping the nodes sees it counted, and has data
        // for every panel of the dashboard
        awaitPrometheus("sum(tributary_failovers_total)", v -> v >= 1, "the failover of node 2's instance counted");
        Map<?, ?> dashboard = (Map<?, ?>) dev.tributary.client.internal.JsonReader.parse(
                Files.readString(Path.of(System.getProperty("basedir", ".")).resolve("grafana-dashboard.json")));
        List<String> exprs = new java.util.ArrayList<>();
        for (Object p : (List<?>) dashboard.get("panels")) {
            Object targets = ((Map<?, ?>) p).get("targets");
            if (targets != null) {
                ((List<?>) targets).forEach(t -> exprs.add((String) ((Map<?, ?>) t).get("expr")));
            }
        }
        assertTrue(exprs.size() >= 15, "the dashboard's queries: " + exprs);
        for (String expr : exprs) {
            awaitPrometheus(expr, v -> true, "data for the panel query " + expr);
        }
        // capture lag, as Prometheus graphs it, rises while the capture is stopped and falls once it runs again
        String lag = "max(tributary_capture_lag_seconds{capture=\"cap\"})";
        try (TributaryClient client = TributaryClient.builder().endpoints(c.node(1).endpoint()).build()) {
            client.execute("CALL dbms_capture_adm.stop_capture(capture_name => 'cap')");
            for (int i = 1000; i < 1020; i++) {
                client.execute("INSERT INTO one.t (pk, v) VALUES (?, ?)", i, i);
            }
            awaitPrometheus(lag, v -> v >= 3, "cap's lag to rise while it is stopped");
            client.execute("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            awaitPrometheus(lag, v -> v < 2, "cap's lag to fall once it runs again");
        }
        for (int id : new int[] {1, 3}) {
            io.grpc.ManagedChannel ch = io.grpc.ManagedChannelBuilder.forTarget(c.node(id).endpoint()).usePlaintext().build();
            try {
                assertEquals(io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING, io.grpc.health.v1.HealthGrpc
                        .newBlockingStub(ch).withDeadlineAfter(10, java.util.concurrent.TimeUnit.SECONDS)
                        .check(io.grpc.health.v1.HealthCheckRequest.getDefaultInstance()).getStatus(), "node" + id + "'s health");
            } finally {
                ch.shutdownNow();
            }
        }
    }

    /** Waits until {@code promql} has a result whose first value satisfies {@code ok}. */
    private void awaitPrometheus(String promql, java.util.function.DoublePredicate ok, String what) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            List<Map<String, Object>> result = prometheus.query(promql);
            if (!result.isEmpty() && ok.test(prometheus.value(promql))) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what + "; last result " + result);
            Thread.sleep(250); // Prometheus scrapes every second
        }
    }

    /** A consumer group member joins {@code group} reading {@code queue}, through the node at {@code endpoint}. */
    private static void joinGroup(String endpoint, String group, String queue) {
        io.grpc.ManagedChannel ch = io.grpc.ManagedChannelBuilder.forTarget(endpoint).usePlaintext().build();
        try {
            dev.tributary.protocol.v1.ConsumerGroupServiceGrpc.newBlockingStub(ch).withDeadlineAfter(30,
                    java.util.concurrent.TimeUnit.SECONDS).join(dev.tributary.protocol.v1.JoinRequest.newBuilder().setGroup(group)
                            .setLog(dev.tributary.protocol.v1.GroupLog.newBuilder().setQueue(queue)).setMemberId("m1")
                            .setLeaseMillis(600_000).build());
        } finally {
            ch.shutdownNow();
        }
    }

    /** A node's /metrics, as Prometheus scrapes it. */
    private static String scrape(String endpoint) throws Exception {
        assertFalse(endpoint.isEmpty(), "cluster.json names the node's metrics_endpoint");
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                .newBuilder(java.net.URI.create("http://" + endpoint + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        return r.body();
    }

    private static void deleteTree(Path root) throws java.io.IOException {
        try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Test
    @DisplayName("CDC-GEN-2 CDC-GEN-6: up starts ZooKeeper and two nodes (two generations), kill and restart keep the node's tokens (no new generation), add joins a third, down stops all")
    void upKillRestartAddDown() throws Exception {
        int port = 19460 + (int) (ProcessHandle.current().pid() % 400);
        assertEquals(0, cli("local-cluster", "up", "--nodes", "2", "--base-dir", dir.toString(), "--base-port",
                Integer.toString(port), "--base-native-port", Integer.toString(port + 500),
                "--base-metrics-port", Integer.toString(port + 700), "--ring-delay", "1s",
                "--num-tokens", "8", "--cluster", "lcit"), output());
        ClusterFile c = ClusterFile.read(dir);
        assertEquals(2, c.nodes().size());
        assertEquals("127.0.0.1:" + (port + 500), c.node(1).nativeEndpoint(), "each node's CQL native port, in cluster.json");
        assertEquals("127.0.0.1:" + (port + 501), c.node(2).nativeEndpoint());
        assertEquals("127.0.0.1:" + port, c.node(1).endpoint());
        assertEquals("127.0.0.1:" + (port + 1), c.node(2).endpoint());
        assertTrue(c.zookeeper().startsWith("127.0.0.1:"));
        assertEquals(2, generations(c.node(1).endpoint()), "one generation per node that joined");
        try (TributaryClient client = TributaryClient.builder().endpoints(c.node(2).endpoint()).build()) {
            assertEquals("lcit", client.execute("SELECT cluster_name FROM system.local").one().getString("cluster_name"));
        }

        assertEquals(0, cli("local-cluster", "kill", "--node", "2", "--base-dir", dir.toString()), output());
        assertFalse(ProcessHandle.of(c.node(2).pid()).map(ProcessHandle::isAlive).orElse(false), "SIGKILLed");
        cli("local-cluster", "status", "--base-dir", dir.toString());
        assertTrue(output().contains("node2 127.0.0.1:" + (port + 1) + " pid " + c.node(2).pid() + " down"), output());
        // admin status: node 2 turns DN once its ZooKeeper session expires; node 1 stays UN with its load
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!(cli("admin", "--connect", c.node(1).endpoint(), "status") == 0 && output().contains("DN "))) {
            assertTrue(System.nanoTime() < deadline, "node 2 never shown DN: " + output());
            Thread.onSpinWait();
        }
        assertTrue(output().lines().anyMatch(l -> l.startsWith("UN  127.0.0.1:" + port + " ") && !l.contains("?")), output());

        assertEquals(0, cli("local-cluster", "restart", "--node", "2", "--base-dir", dir.toString()), output());
        assertEquals(2, generations(ClusterFile.read(dir).node(2).endpoint()), "a restarted node keeps its tokens");

        assertEquals(0, cli("local-cluster", "add", "--base-dir", dir.toString()), output());
        ClusterFile three = ClusterFile.read(dir);
        assertEquals(3, three.nodes().size());
        assertEquals(3, generations(three.node(3).endpoint()));
        assertEquals(0, cli("admin", "--connect", three.node(1).endpoint(), "check-and-repair-cdc-streams"), output());
        assertTrue(output().startsWith("new CDC generation at "), output());
        assertEquals(4, generations(three.node(2).endpoint()), "check-and-repair-cdc-streams made a generation");

        assertEquals(0, cli("local-cluster", "down", "--base-dir", dir.toString()), output());
        for (ClusterFile.Node n : three.nodes()) {
            assertFalse(ProcessHandle.of(n.pid()).map(ProcessHandle::isAlive).orElse(false), "node" + n.id() + " stopped");
        }
        assertFalse(ProcessHandle.of(three.zookeeperPid()).map(ProcessHandle::isAlive).orElse(false));
        assertTrue(Files.readString(dir.resolve("node1.log")).contains("stopped"), "node 1 shut down cleanly");
    }

    @Test
    @DisplayName("bad local-cluster arguments name what is wrong")
    void badArguments() {
        assertEquals(Tributary.USAGE, cli("local-cluster", "up", "--base-dir", dir.toString()));
        assertTrue(output().contains("--nodes is required"), output());
        assertEquals(Tributary.FAILED, cli("local-cluster", "status", "--base-dir", dir.toString()));
        assertTrue(output().contains("cluster.json is missing"), output());
        assertEquals(Tributary.USAGE, cli("local-cluster", "fly", "--base-dir", dir.toString()));
        assertTrue(output().contains("unknown action 'fly'"), output());
        assertEquals(Tributary.USAGE, cli("local-cluster", "up", "--nodes", "1", "--base-dir", dir.toString(), "--clustr", "x"));
        assertTrue(output().contains("unknown option '--clustr'"), output());
        assertEquals(Tributary.USAGE, cli("admin", "--connect", "127.0.0.1:1", "repair-everything"));
        assertTrue(output().contains("unknown command 'repair-everything'"), output());
    }
}
