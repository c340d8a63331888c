package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tributary.client.ChangeRecord;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.internal.JsonReader;
import dev.tributary.node.NodeConfig;
import dev.tributary.node.TributaryNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/python/tail_changes.py, a consumer in another language, against a real node: its
 * stubs are generated from the .proto files as its README says, and what it prints is checked
 * against the writes and against the Java SDK's JSON form of the same LCRs.
 */
@Timeout(180)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PythonExampleIT {
    /** Debian's interpreter: the one python3-grpcio installs into (a python3 earlier on PATH may lack it). */
    private static final String PYTHON = System.getProperty("tributary.python", "/usr/bin/python3");
    private static final String PACKAGES = "python3-grpcio python3-protobuf protobuf-compiler protobuf-compiler-grpc";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Path example = exampleDir();
    private final Path stubs = Path.of("target", "python-stubs").toAbsolutePath();
    TributaryNode node;
    TributaryClient client;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        // CI must really run this test: a machine without the packages fails it rather than skips it
        Run check = run(List.of(PYTHON, "-c", "import grpc, google.protobuf"));
        assertEquals(0, check.exit, "python3-grpcio / python3-protobuf are missing for " + PYTHON
                + " (.ci/run installs them: apt-get install " + PACKAGES + "): " + check.stderr);
        deleteTree(stubs); // a stub of a removed .proto must not linger
        Run gen = run(List.of("sh", example.resolve("generate_stubs.sh").toString(), stubs.toString()));
        assertEquals(0, gen.exit, "generate_stubs.sh failed (.ci/run installs " + PACKAGES + "): " + gen.stderr);
        assertTrue(Files.isRegularFile(stubs.resolve("tributary/v1/changes_pb2_grpc.py")), "no stubs in " + stubs);

        node = TributaryNode.start(NodeConfig.parse(new String[] {"--data-dir", dir.toString(), "--listen", "127.0.0.1:0",
                "--native-listen", "127.0.0.1:0", "--ring-delay", "300ms", "--num-tokens", "8", "--commitlog-sync", "batch"}));
        // writes before the first generation's timestamp have no CDC stream to go to
        long firstGeneration = node.generations().latest().orElseThrow().timestampMillis();
        await(() -> System.currentTimeMillis() >= firstGeneration, "the first CDC generation to start operating");
        client = TributaryClient.builder().endpoints(node.endpoint()).requestTimeout(WAIT).build();
        client.execute("CREATE KEYSPACE py WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    void stop() {
        if (client != null) {
            client.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    @DisplayName("tail_changes.py reads a table's CDC log to its end: DDL, INSERT, UPDATE, DELETE with every value type, as the Java SDK's JSON")
    void readsTheLogToItsEnd() throws Exception {
        client.execute("CREATE TABLE py.history (id int PRIMARY KEY, name text, big bigint, vi varint, de decimal, f float, "
                + "d double, ok boolean, ts timestamp, dt date, tm time, du duration, bl blob, u uuid, ip inet, "
                + "l list<int>, s set<text>, m map<int, text>, fr frozen<list<text>>) WITH cdc = {'enabled': true, 'preimage': true}");
        client.execute("INSERT INTO py.history (id, name, big, vi, de, f, d, ok, ts, dt, tm, du, bl, u, ip, l, s, m, fr) VALUES "
                + "(1, 'ada', 9007199254740993, 12345678901234567890, 1.25, 0.1, 2.5, true, '2020-03-25T12:44:43.006Z', "
                + "'2020-03-25', '12:00:00.000000001', 1h30m, 0xcafe, 123e4567-e89b-12d3-a456-426614174000, '10.0.0.1', "
                + "[3, 1, 2], {'b', 'a'}, {1: 'one', 2: 'two'}, ['f'])");
        client.execute("INSERT INTO py.history (id, name) VALUES (2, 'bob')");
        client.execute("UPDATE py.history SET name = 'ada lovelace', d = -0.5 WHERE id = 1");
        client.execute("DELETE FROM py.history WHERE id = 2");
        List<ChangeRecord> java = awaitLog("py.history", 5); // CREATE TABLE and the four writes

        Run tail = run(List.of(PYTHON, example.resolve("tail_changes.py").toString(), "--connect", node.endpoint(),
                "--table", "py.history"));
        assertEquals(0, tail.exit, "tail_changes.py failed: " + tail.stderr);
        List<Map<String, Object>> lcrs = parse(tail.stdout, tail.stderr);
        assertEquals(5, lcrs.size(), tail.stdout);
        assertSameAsJavaSdk(java, lcrs);
        assertLogOrder(lcrs);

        List<Map<String, Object>> byScn = lcrs.stream().sorted(Comparator.comparingLong(l -> (Long) l.get("scn"))).toList();
        assertEquals(List.of("CREATE TABLE", "INSERT", "INSERT", "UPDATE", "DELETE"),
                byScn.stream().map(l -> l.get("command_type")).toList(), tail.stdout);
        Map<String, Object> ddl = byScn.get(0);
        assertEquals("DDL", ddl.get("lcr"));
        assertEquals("TABLE", ddl.get("object_type"));
        assertTrue(((String) ddl.get("ddl_text")).startsWith("CREATE TABLE py.history"), ddl.toString());

        Map<String, Object> insert = byScn.get(1);
        assertEquals("ROW", insert.get("lcr"));
        assertEquals("py", insert.get("object_owner"));
        assertEquals("history", insert.get("object_name"));
        assertNull(insert.get("old_values"), "an INSERT has no old values");
        Map<String, Object> v = values(insert, "new_values");
        assertEquals(1L, v.get("id"));
        assertEquals("ada", v.get("name"));
        assertEquals(9007199254740993L, v.get("big"), "a bigint beyond a double's 53 bits stays exact");
        assertEquals("12345678901234567890", v.get("vi"));
        assertEquals("1.25", v.get("de"));
        assertEquals(new BigDecimal("0.1"), v.get("f"), "a float is written as its shortest decimal, not 0.10000000149011612");
        assertEquals(new BigDecimal("2.5"), v.get("d"));
        assertEquals(true, v.get("ok"));
        assertEquals("2020-03-25T12:44:43.006Z", v.get("ts"));
        assertEquals("2020-03-25", v.get("dt"));
        assertEquals("12:00:00.000000001", v.get("tm"));
        assertEquals("1h30m", v.get("du"));
        assertEquals("0xcafe", v.get("bl"));
        assertEquals("123e4567-e89b-12d3-a456-426614174000", v.get("u"));
        assertEquals("10.0.0.1", v.get("ip"));
        assertEquals(List.of(3L, 1L, 2L), v.get("l"));
        assertEquals(List.of("a", "b"), v.get("s"));
        assertEquals(Map.of("1", "one", "2", "two"), v.get("m"), "map keys become JSON strings");
        assertEquals(List.of("f"), v.get("fr"));
        assertTrue(((String) insert.get("stream_id")).matches("0x[0-9a-f]+"), insert.toString());

        Map<String, Object> update = byScn.get(3);
        assertEquals("ada", values(update, "old_values").get("name"), "the preimage gives the old values");
        assertEquals("ada lovelace", values(update, "new_values").get("name"));
        assertEquals(new BigDecimal("-0.5"), values(update, "new_values").get("d"));
        assertEquals(insert.get("stream_id"), update.get("stream_id"), "one partition, one stream");

        Map<String, Object> delete = byScn.get(4);
        assertNull(delete.get("new_values"), "a DELETE has no new values");
        assertEquals(2L, values(delete, "old_values").get("id"));
        assertEquals("bob", values(delete, "old_values").get("name"));
    }

    @Test
    @DisplayName("tail_changes.py --follow prints the log, then the changes made while it runs, each once, and stops at --limit")
    void followsLiveChanges() throws Exception {
        client.execute("CREATE TABLE py.live (id int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
        client.execute("INSERT INTO py.live (id, v) VALUES (1, 'before')");
        awaitLog("py.live", 2);

        Path stderr = Files.createTempFile("tail_changes", ".stderr");
        Process p = command(List.of(PYTHON, example.resolve("tail_changes.py").toString(), "--connect", node.endpoint(),
                "--table", "py.live", "--follow", "--limit", "4")).redirectError(stderr.toFile()).start();
        try {
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> readLines(p, lines), "tail_changes-stdout");
            reader.setDaemon(true);
            reader.start();
            List<String> out = new ArrayList<>();
            // the log first: once it is printed, the script is waiting on its subscription
            take(lines, out, 2, p, stderr);
            client.execute("INSERT INTO py.live (id, v) VALUES (2, 'live')");
            client.execute("UPDATE py.live SET v = 'changed' WHERE id = 1");
            take(lines, out, 4, p, stderr);
            assertTrue(p.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "--limit 4 did not end the script: " + out);
            assertEquals(0, p.exitValue(), "tail_changes.py failed: " + Files.readString(stderr));

            List<Map<String, Object>> lcrs = parse(String.join("\n", out), Files.readString(stderr));
            // the log comes in stream order, which need not be the order of the writes; the live LCRs in commit order
            assertEquals(Set.of("CREATE TABLE", "INSERT"), Set.of(lcrs.get(0).get("command_type"), lcrs.get(1).get("command_type")));
            assertEquals(List.of("INSERT", "UPDATE"), List.of(lcrs.get(2).get("command_type"), lcrs.get(3).get("command_type")));
            Map<String, Object> before = lcrs.get(0).get("lcr").equals("ROW") ? lcrs.get(0) : lcrs.get(1);
            assertEquals(Map.of("id", 1L, "v", "before"), values(before, "new_values"));
            assertEquals(Map.of("id", 2L, "v", "live"), values(lcrs.get(2), "new_values"));
            assertEquals(Map.of("id", 1L, "v", "changed"), values(lcrs.get(3), "new_values"));
            assertEquals(4, lcrs.stream().map(PythonExampleIT::position).distinct().count(), "each LCR printed once: " + out);
            assertTrue((Long) lcrs.get(2).get("scn") < (Long) lcrs.get(3).get("scn"), "live LCRs come in commit order");
            assertSameAsJavaSdk(awaitLog("py.live", 4), lcrs);
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(stderr);
        }
    }

    @Test
    @DisplayName("tail_changes.py names the node's reason code when the table has no CDC log")
    void reportsTheReasonCode() throws Exception {
        client.execute("CREATE TABLE py.plain (id int PRIMARY KEY) WITH cdc = {'enabled': false}");
        Run tail = run(List.of(PYTHON, example.resolve("tail_changes.py").toString(), "--connect", node.endpoint(),
                "--table", "py.plain"));
        assertEquals(1, tail.exit, "stdout: " + tail.stdout + "\nstderr: " + tail.stderr);
        assertTrue(tail.stderr.startsWith("tail_changes: NOT_FOUND: table py.plain has no CDC log"), tail.stderr);
        assertEquals("", tail.stdout);
    }

    /** Each line's JSON equals the SDK's ChangeRecord.toJson() of the LCR at the same position, keys in the same order. */
    private static void assertSameAsJavaSdk(List<ChangeRecord> java, List<Map<String, Object>> python) {
        Map<String, Map<String, Object>> byPosition = new HashMap<>();
        for (ChangeRecord r : java) {
            Map<String, Object> j = json(r.toJson());
            byPosition.put(position(j), j);
        }
        for (Map<String, Object> p : python) {
            Map<String, Object> j = byPosition.get(position(p));
            assertNotNull(j, "the Java SDK read no LCR at " + position(p));
            assertEquals(normalized(j), normalized(p), "same LCR, same JSON");
            assertEquals(List.copyOf(j.keySet()), List.copyOf(p.keySet()), "same fields in the same order");
        }
    }

    /** ReadChanges's order: a stream's LCRs together, by time, so with growing SCNs. */
    private static void assertLogOrder(List<Map<String, Object>> lcrs) {
        Set<Object> finished = new HashSet<>();
        Map<String, Object> previous = null;
        for (Map<String, Object> l : lcrs) {
            if (previous != null && previous.get("stream_id").equals(l.get("stream_id"))) {
                assertTrue((Long) previous.get("scn") < (Long) l.get("scn"), "SCNs grow within a stream: " + previous + " then " + l);
            } else if (previous != null) {
                finished.add(previous.get("stream_id"));
                assertFalse(finished.contains(l.get("stream_id")), "a stream's LCRs come together: " + lcrs);
            }
            previous = l;
        }
    }

    private List<ChangeRecord> awaitLog(String table, int count) {
        // the CDC log is written by the node's capture after the write is acknowledged
        List<ChangeRecord> read = new ArrayList<>();
        await(() -> {
            read.clear();
            read.addAll(client.changes().read(table, null, 0));
            return read.size() >= count;
        }, count + " LCRs in the CDC log of " + table);
        return read;
    }

    private static void take(BlockingQueue<String> lines, List<String> out, int count, Process p, Path stderr)
            throws InterruptedException, IOException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (out.size() < count) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                fail("tail_changes.py printed " + out.size() + " of " + count + " lines in " + WAIT.toSeconds() + " s"
                        + (p.isAlive() ? "" : " and exited with " + p.exitValue()) + ": " + out + "\nstderr: " + Files.readString(stderr));
            }
            out.add(line);
        }
    }

    private static void readLines(Process p, BlockingQueue<String> lines) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the process was destroyed: the test has what it reads already
        }
    }

    private static List<Map<String, Object>> parse(String stdout, String stderr) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            try {
                out.add(json(line));
            } catch (IllegalArgumentException e) {
                fail("tail_changes.py printed a line that is not a JSON object: " + line + " (" + e.getMessage() + ")\nstderr: " + stderr);
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String text) {
        return (Map<String, Object>) JsonReader.parse(text);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> values(Map<String, Object> lcr, String which) {
        Object v = lcr.get(which);
        assertNotNull(v, which + " of " + lcr);
        return (Map<String, Object>) v;
    }

    private static String position(Map<String, Object> lcr) {
        return lcr.get("stream_id") + "/" + lcr.get("time") + "/" + lcr.get("batch_seq_no");
    }

    /** Numbers as values: Java writes 2.5E10 where Python writes 25000000000.0. */
    private static Object normalized(Object o) {
        if (o instanceof BigDecimal d) {
            return d.stripTrailingZeros();
        }
        if (o instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(k, normalized(v)));
            return out;
        }
        if (o instanceof List<?> l) {
            return l.stream().map(PythonExampleIT::normalized).toList();
        }
        return o;
    }

    private record Run(int exit, String stdout, String stderr) {
    }

    private ProcessBuilder command(List<String> cmd) {
        ProcessBuilder b = new ProcessBuilder(cmd).directory(example.toFile());
        b.environment().put("PYTHONPATH", stubs.toString());
        return b;
    }

    /** Runs a command to its end; stdout and stderr go to files, so neither pipe can fill and block it. */
    private Run run(List<String> cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile("python-example", ".out");
        Path err = Files.createTempFile("python-example", ".err");
        try {
            Process p;
            try {
                p = command(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            } catch (IOException e) {
                return new Run(-1, "", "cannot start " + cmd.get(0) + ": " + e.getMessage());
            }
            if (!p.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail(cmd + " did not finish in " + WAIT.toSeconds() + " s; stderr: " + Files.readString(err));
            }
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static Path exampleDir() {
        // surefire runs in deploy/; the example lives at the repository's root
        Path dir = Path.of("").toAbsolutePath().resolveSibling("examples").resolve("python");
        if (!Files.isRegularFile(dir.resolve("tail_changes.py"))) {
            throw new IllegalStateException("examples/python/tail_changes.py not found from " + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(f -> {
                try {
                    Files.delete(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out after " + WAIT.toSeconds() + " s waiting for " + what);
            }
            try {
                Thread.sleep(10); // between polls of a condition only a request can tell
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting for " + what);
            }
        }
    }
}
