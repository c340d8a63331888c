package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.client.internal.JsonReader;
import dev.tributary.node.NodeConfig;
import dev.tributary.node.TributaryNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code tributary tail} against a real node. */
@Timeout(120)
class TailCommandIT {
    private ByteArrayOutputStream out;
    private ByteArrayOutputStream err;

    private int tail(String... args) {
        out = new ByteArrayOutputStream();
        err = new ByteArrayOutputStream();
        Terminal t = new Terminal(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        String[] all = new String[args.length + 1];
        all[0] = "tail";
        System.arraycopy(args, 0, all, 1, args.length);
        return new Tributary(t, ClientFactory.netty(), a -> 0).run(all);
    }

    private List<String> lines() {
        String s = out.toString(StandardCharsets.UTF_8);
        return s.isEmpty() ? List.of() : List.of(s.split("\n"));
    }

    /** The positions of printed LCRs: (stream_id, time, batch_seq_no). */
    private static List<String> positions(List<String> lines) {
        return lines.stream().map(l -> (Map<?, ?>) JsonReader.parse(l))
                .map(m -> m.get("stream_id") + "/" + m.get("time") + "/" + m.get("batch_seq_no")).toList();
    }

    /** A node with an embedded ZooKeeper whose first generation is in force, so writes have streams. */
    private static TributaryNode startNode(Path dir) throws InterruptedException {
        return startNode(dir, 4);
    }

    /** @param more further command-line options of the node */
    static TributaryNode startNode(Path dir, int tokens, String... more) throws InterruptedException {
        List<String> args = new java.util.ArrayList<>(List.of("--data-dir", dir.toString(), "--listen",
                "127.0.0.1:0", "--native-listen", "none", "--ring-delay", "300ms", "--max-write-skew", "200ms", "--num-tokens", Integer.toString(tokens),
                "--zookeeper", "embedded:0"));
        args.addAll(List.of(more));
        TributaryNode node = TributaryNode.start(NodeConfig.parse(args.toArray(new String[0])));
        long gen = node.generations().latest().orElseThrow().timestampMillis();
        while (System.currentTimeMillis() < gen) {
            Thread.sleep(10); // the first generation is a ring delay ahead: nothing can be written before it
        }
        return node;
    }

    @Test
    @DisplayName("tail --group resumes where the group stopped: two runs with --limit print disjoint LCRs, together "
            + "the whole log; a third prints only what was written since")
    void tailGroupResumes(@TempDir Path dir) throws Exception {
        try (TributaryNode node = startNode(dir);
                TributaryClient client = TributaryClient.builder().endpoints(node.endpoint()).build()) {
            client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            client.execute("CREATE TABLE ks.t (pk int, v text, PRIMARY KEY (pk)) WITH cdc = {'enabled': true}");
            for (int i = 0; i < 5; i++) {
                client.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, "v" + i);
            }
            String ep = node.endpoint();
            assertEquals(0, tail("--connect", ep, "--table", "ks.t", "--group", "g1", "--from", "earliest", "--limit", "3"),
                    err::toString);
            List<String> first = positions(lines());
            assertEquals(0, tail("--connect", ep, "--table", "ks.t", "--group", "g1", "--from", "earliest", "--limit", "3"),
                    err::toString);
            List<String> second = positions(lines());
            assertEquals(3, first.size(), first::toString);
            assertEquals(3, second.size(), second::toString);
            java.util.Set<String> all = new java.util.HashSet<>(first);
            all.addAll(second);
            assertEquals(6, all.size(), "the second run continues after the first (5 INSERTs and the CREATE TABLE): "
                    + first + " then " + second);

            assertEquals(0, tail("--connect", ep, "--table", "ks.t", "--group", "g1", "--idle-exit", "2s"), err::toString);
            assertEquals(List.of(), lines(), "nothing left for the group");
            // the next run resumes from the group's positions and takes a write made while it runs
            java.util.concurrent.CompletableFuture<Integer> fourth = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> tail("--connect", ep, "--table", "ks.t", "--group", "g1", "--limit", "1", "--idle-exit", "60s"));
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (client.execute("SELECT members FROM system_views.consumer_groups").all().get(0).getInt("members") == 0) {
                assertTrue(System.nanoTime() < deadline, "the fourth run did not join the group");
                Thread.sleep(20); // the membership lives in ZooKeeper: polled through the view
            }
            client.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", 5, "v5");
            assertEquals(0, fourth.get(90, java.util.concurrent.TimeUnit.SECONDS), err::toString);
            List<String> last = lines();
            assertEquals(1, last.size());
            assertTrue(last.get(0).contains("\"pk\":5"), last::toString);

            Object members = client.execute("SELECT members FROM system_views.consumer_groups").all().get(0).getInt("members");
            assertEquals(0, members, "each run left the group on exit");
        }
    }

    /** The pk of every row LCR printed. */
    private static java.util.Set<Integer> pks(List<String> lines) {
        java.util.Set<Integer> out = new java.util.HashSet<>();
        for (String l : lines) {
            Map<?, ?> m = (Map<?, ?>) JsonReader.parse(l);
            if ("ROW".equals(m.get("lcr"))) {
                out.add(((Number) ((Map<?, ?>) m.get("new_values")).get("pk")).intValue());
            }
        }
        return out;
    }

    @Test
    @DisplayName("issue 14: 1,000 inserts over 256 streams; tail --group --limit 300, then a resumed tail: 1,000 of 1,000 "
            + "delivered, and retention (which follows the group's watermark) deleted nothing undelivered")
    void groupResumeDeliversEveryRow(@TempDir Path dir) throws Exception {
        try (TributaryNode node = startNode(dir, 256);
                TributaryClient client = TributaryClient.builder().endpoints(node.endpoint()).build()) {
            client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            client.execute("CREATE TABLE ks.t (pk int, v text, PRIMARY KEY (pk)) WITH cdc = {'enabled': true}");
            for (int i = 0; i < 1000; i += 50) {
                var b = client.batch();
                for (int k = i; k < i + 50; k++) {
                    b.add("INSERT INTO ks.t (pk, v) VALUES (?, ?)", k, "v" + k);
                }
                b.execute();
            }
            String ep = node.endpoint();
            assertEquals(0, tail("--connect", ep, "--table", "ks.t", "--from", "earliest", "--group", "g1", "--limit", "300"),
                    err::toString);
            List<String> first = lines();
            assertEquals(300, first.size());
            assertEquals(0, tail("--connect", ep, "--table", "ks.t", "--group", "g1", "--idle-exit", "3s"), err::toString);
            java.util.Set<Integer> all = pks(first);
            all.addAll(pks(lines()));
            java.util.List<Integer> missing = java.util.stream.IntStream.range(0, 1000).boxed().filter(i -> !all.contains(i))
                    .toList();
            assertEquals(List.of(), missing, "rows no run delivered");
        }
    }

    @Test
    @DisplayName("issue 14: several short tail --group sessions, one of them a process killed with SIGKILL mid-run, then "
            + "a resumed one: every row of the table delivered at least once over all sessions")
    void groupSessionsAndASigkillDeliverEveryRow(@TempDir Path dir) throws Exception {
        try (TributaryNode node = startNode(dir, 64);
                TributaryClient client = TributaryClient.builder().endpoints(node.endpoint()).build()) {
            client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            client.execute("CREATE TABLE ks.t (pk int, v text, PRIMARY KEY (pk)) WITH cdc = {'enabled': true}");
            for (int i = 0; i < 1000; i += 50) {
                var b = client.batch();
                for (int k = i; k < i + 50; k++) {
                    b.add("INSERT INTO ks.t (pk, v) VALUES (?, ?)", k, "v" + k);
                }
                b.execute();
            }
            String ep = node.endpoint();
            java.util.Set<Integer> all = new java.util.HashSet<>();
            for (int session = 0; session < 3; session++) {
                assertEquals(0, tail("--connect", ep, "--table", "ks.t", "--from", "earliest", "--group", "g", "--limit", "100"),
                        err::toString);
                all.addAll(pks(lines()));
            }
            // a member in its own JVM, killed with SIGKILL while it prints: no Leave, no last commit
            Path printed = dir.resolve("killed.json");
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    Tributary.class.getName(), "tail", "--connect", ep, "--table", "ks.t", "--group", "g")
                    .redirectOutput(printed.toFile()).redirectError(dir.resolve("killed.err").toFile()).start();
            try {
                long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
                while (java.nio.file.Files.readAllLines(printed).size() < 50) {
                    assertTrue(p.isAlive() && System.nanoTime() < deadline, () -> "the member process printed too little: "
                            + readQuietly(dir.resolve("killed.err")));
                    Thread.sleep(20); // its output is a file: polled
                }
            } finally {
                p.destroyForcibly(); // SIGKILL
                p.waitFor();
            }
            for (String l : java.nio.file.Files.readAllLines(printed)) {
                if (l.startsWith("{") && l.endsWith("}")) { // the last line may be cut by the kill
                    all.addAll(pks(List.of(l)));
                }
            }
            // its lease (10 s) runs out (noticed at a heartbeat of the other member), then the resumed
            // member reads every stream from the last commit
            assertEquals(0, tail("--connect", ep, "--table", "ks.t", "--group", "g", "--idle-exit", "30s"), err::toString);
            all.addAll(pks(lines()));
            java.util.List<Integer> missing = java.util.stream.IntStream.range(0, 1000).boxed().filter(i -> !all.contains(i))
                    .toList();
            assertEquals(List.of(), missing, "rows no session delivered");
        }
    }

    private static String readQuietly(Path p) {
        try {
            return java.nio.file.Files.readString(p);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    @Test
    @DisplayName("tail --limit prints N LCRs as JSON lines (INTERFACE §5) and exits; --idle-exit ends a quiet tail; "
            + "--from a time skips older LCRs; --help")
    void tail(@TempDir Path dir) throws Exception {
        try (TributaryNode node = startNode(dir);
                TributaryClient client = TributaryClient.builder().endpoints(node.endpoint()).build()) {
            client.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            client.execute("CREATE TABLE ks.t (pk int, v text, PRIMARY KEY (pk)) WITH cdc = {'enabled': true}");
            for (int i = 0; i < 5; i++) {
                client.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, "v" + i);
            }
            String ep = node.endpoint();

            assertEquals(0, tail("--connect", ep, "--table", "ks.t", "--from", "earliest", "--limit", "3", "--output", "json"),
                    err::toString);
            List<String> limited = lines();
            assertEquals(3, limited.size(), "--limit 3: " + limited);
            for (String l : limited) {
                Map<?, ?> lcr = (Map<?, ?>) JsonReader.parse(l);
                assertTrue(lcr.containsKey("lcr") && lcr.containsKey("stream_id") && lcr.containsKey("time")
                        && lcr.containsKey("batch_seq_no"), l);
            }

            assertEquals(0, tail("--connect", ep, "--table", "ks.t", "--from", "earliest", "--idle-exit", "2s"), err::toString);
            List<String> all = lines();
            List<Map<?, ?>> rows = all.stream().<Map<?, ?>>map(l -> (Map<?, ?>) JsonReader.parse(l)).filter(m -> "ROW".equals(m.get("lcr")))
                    .toList();
            assertEquals(5, rows.size(), "every row LCR: " + all);
            assertTrue(all.stream().anyMatch(l -> l.contains("\"lcr\":\"DDL\"") && l.contains("CREATE TABLE")),
                    "the schema stream's DDL LCR: " + all);
            for (Map<?, ?> r : rows) {
                assertEquals("INSERT", r.get("command_type"));
                assertEquals("KS", String.valueOf(r.get("object_owner")).toUpperCase());
            }

            // a time after every write: nothing, until the idle exit
            assertEquals(0, tail("--connect", ep, "--table", "ks.t", "--from", java.time.Instant.now().toString(),
                    "--idle-exit", "1s"), err::toString);
            assertEquals(List.of(), lines());

            assertEquals(1, tail("--connect", ep, "--table", "ks.nope", "--limit", "1"));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("ks.nope"), err::toString);
            assertEquals(2, tail("--connect", ep));
            assertEquals(0, tail("--help"));
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("usage: tributary tail"));
        }
    }
}
