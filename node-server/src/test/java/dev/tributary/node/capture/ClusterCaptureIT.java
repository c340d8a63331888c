package dev.tributary.node.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.Row;
import dev.tributary.client.TributaryClient;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.InProcessCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A capture process of a multi-node cluster reads every node's redo thread, as a RAC capture reads every instance's. */
@Timeout(180)
class ClusterCaptureIT {
    private static final Duration RING_DELAY = Duration.ofMillis(300);
    private static final Pattern VALUE = Pattern.compile("\"v\":\"(row-[0-9]+)\"");
    private static final Pattern SCN = Pattern.compile("\"scn\":([0-9]+)");
    private static final Pattern STREAM = Pattern.compile("\"stream_id\":\"(0x[0-9a-f]+)\"");

    private static long localRows(TributaryNode n) {
        return TestNodes.localOnly(n, "SELECT count(*) FROM ks.t").getRows(0).getValues(0).getInteger();
    }

    @Test
    @DisplayName("CAP-RAC-1 CAP-DDL-2: on 3 nodes, a capture on node 1 of a table whose rows all three own captures every write "
            + "once, in SCN order per stream, and a DDL run on node 2 once, decoding the rows after it with it; a TRUNCATE "
            + "run on node 2 empties every node's rows and is one DDL LCR")
    void capturesEveryNodesWrites(@TempDir Path dir) throws Exception {
        try (InProcessCluster cluster = InProcessCluster.builder(dir).ringDelay(RING_DELAY).build()) {
            TributaryNode n1 = cluster.start("n1");
            TributaryNode n2 = cluster.start("n2");
            TributaryNode n3 = cluster.start("n3");
            try (TributaryClient one = TributaryClient.builder().endpoints(n1.endpoint()).build();
                    TributaryClient two = TributaryClient.builder().endpoints(n2.endpoint()).build();
                    TributaryClient all = TributaryClient.builder().endpoints(n1.endpoint(), n2.endpoint(), n3.endpoint()).build()) {
                TestNodes.await(() -> one.execute("SELECT peer FROM system.peers").all().size() == 2, Duration.ofSeconds(30),
                        "node 1 to see both peers");
                TestNodes.awaitGenerationInForce(n1);
                one.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
                one.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v text)");
                one.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                        + "streams_name => 'cc', queue_name => 'cq', include_ddl => true)");
                one.execute("CALL dbms_capture_adm.start_capture(capture_name => 'cc')");

                int n = 300;
                for (int i = 0; i < n / 2; i++) {
                    all.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, "row-" + i);
                }
                two.execute("ALTER TABLE ks.t ADD w int");
                for (int i = n / 2; i < n; i++) {
                    all.execute("INSERT INTO ks.t (pk, v, w) VALUES (?, ?, ?)", i, "row-" + i, i);
                }
                for (TributaryNode node : List.of(n1, n2, n3)) {
                    assertTrue(localRows(node) > 0, node.endpoint() + " owns some of the rows");
                }

                TestNodes.await(() -> values(one).size() >= n, Duration.ofSeconds(60),
                        () -> "the queue to hold " + n + " row LCRs; it holds " + values(one).size() + "; capture "
                                + one.execute("SELECT status, error_message, captured_scn FROM system_views.capture").all().stream()
                                        .map(r -> r.getString(0) + " " + r.getString(1) + " " + r.getLong(2)).toList()
                                + " " + one.execute("SELECT state FROM system_views.streams_capture").all().stream()
                                        .map(r -> r.getString(0)).toList());
                Map<String, Integer> counts = new HashMap<>();
                values(one).forEach(v -> counts.merge(v, 1, Integer::sum));
                assertEquals(n, counts.size(), "every write captured");
                assertTrue(counts.values().stream().allMatch(c -> c == 1), "none twice: " + counts);

                List<String> lcrs = lcrs(one);
                Map<String, Long> lastScn = new HashMap<>();
                int ddl = 0;
                for (String lcr : lcrs) {
                    if (lcr.startsWith("{\"lcr\":\"DDL\"")) {
                        ddl++;
                        continue;
                    }
                    String stream = group(STREAM, lcr);
                    long scn = Long.parseLong(group(SCN, lcr));
                    Long before = lastScn.put(stream, scn);
                    assertTrue(before == null || before < scn, "SCN order in stream " + stream + ": " + before + " then " + scn);
                    int pk = Integer.parseInt(group(VALUE, lcr).substring(4));
                    assertEquals(pk >= n / 2, lcr.contains("\"w\":" + pk), "rows after the ALTER carry w: " + lcr);
                }
                assertEquals(1, ddl, "the ALTER TABLE run on node 2 is one DDL LCR, though every node's thread has it");

                // CAP-DDL-2: a TRUNCATE run on node 2 empties every node's rows and is one DDL LCR, not a delete per row
                two.execute("TRUNCATE ks.t");
                TestNodes.await(() -> List.of(n1, n2, n3).stream().allMatch(node -> localRows(node) == 0), Duration.ofSeconds(30),
                        "every node to drop its rows of ks.t");
                TestNodes.await(() -> lcrs(one).stream().anyMatch(l -> l.contains("\"command_type\":\"TRUNCATE TABLE\"")),
                        Duration.ofSeconds(30), "the TRUNCATE to be captured");
                assertEquals(1, lcrs(one).stream().filter(l -> l.contains("\"command_type\":\"TRUNCATE TABLE\"")).count());
                assertEquals(n, values(one).size(), "no row LCR for the rows it removed");
                all.execute("INSERT INTO ks.t (pk, v, w) VALUES (?, ?, ?)", 1, "after", 1);
                assertEquals(1, one.execute("SELECT pk FROM ks.t").all().size(), "a row written after it stays");
            }
        }
    }

    @Test
    @DisplayName("a change made before the cluster's first CDC generation (a table without CDC takes writes at once) "
            + "is captured into the queue, at the generation's start, and the capture goes on")
    void writesBeforeTheFirstGeneration(@TempDir Path dir) throws Exception {
        try (TributaryNode n1 = TributaryNode.start(TestNodes.config(dir.resolve("n1"), Duration.ofSeconds(30), "--zookeeper",
                "embedded:" + TestNodes.freePort()));
                TributaryClient one = TributaryClient.builder().endpoints(n1.endpoint()).build()) {
            long first = n1.generations().latest().orElseThrow().timestampMillis();
            one.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            one.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v text)");
            one.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'cc', queue_name => 'cq')");
            one.execute("CALL dbms_capture_adm.start_capture(capture_name => 'cc')");
            for (int i = 0; i < 10; i++) {
                one.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, "row-" + i);
            }
            assertTrue(System.currentTimeMillis() < first, "written before the first generation is in force");
            TestNodes.await(() -> values(one).size() == 10, Duration.ofSeconds(30), () -> "10 LCRs in the queue; "
                    + values(one).size() + ", capture " + one.execute("SELECT status, error_message FROM system_views.capture")
                            .all().stream().map(r -> r.getString(0) + " " + r.getString(1)).toList());
            assertEquals("ENABLED", one.execute("SELECT status FROM system_views.capture").one().getString("status"));
        }
    }

    private static String group(Pattern p, String s) {
        Matcher m = p.matcher(s);
        assertTrue(m.find(), p + " in " + s);
        return m.group(1);
    }

    private static List<String> lcrs(TributaryClient c) {
        List<String> out = new ArrayList<>();
        for (Row r : c.execute("SELECT lcr FROM system_queues.cq").all()) {
            out.add(r.getString("lcr"));
        }
        return out;
    }

    private static List<String> values(TributaryClient c) {
        List<String> out = new ArrayList<>();
        for (String lcr : lcrs(c)) {
            Matcher m = VALUE.matcher(lcr);
            if (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }
}
