package dev.tributary.node.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.node.ReplicatedNode;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.ReplicatedNodes;
import dev.tributary.node.kit.UniqueWriters;
import dev.tributary.protocol.v1.Row;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture process follows its queue: with replication, a capture and its queue belong to an
 * instance, which runs where its replica group's leader is; when that node dies the instance —
 * queue, capture definitions, checkpoints — starts on another replica, and an enabled capture
 * with it.
 */
@Tag("integration")
@Timeout(300)
class CaptureFailoverIT {
    private static final Pattern PK = Pattern.compile("\"new_values\":\\{\"pk\":([0-9]+)");

    @TempDir
    Path dir;

    private ReplicatedNodes cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Three replicated nodes, each running its own instance, and table ks.t (pk, v) at factor 3
     * once the first generation is in force; a client of all of them.
     */
    private TributaryClient startThree() {
        cluster = new ReplicatedNodes(dir, "1s");
        for (String name : List.of("n1", "n2", "n3")) {
            cluster.start(name);
        }
        TestNodes.await(() -> cluster.nodes.values().stream().allMatch(n -> n.instances().size() == 1), Duration.ofSeconds(30),
                "each node to run its own instance");
        TributaryClient client = TributaryClient.builder().endpoints(cluster.endpoints()).build();
        cluster.createTable(client, "(pk int PRIMARY KEY, v int)");
        TestNodes.awaitGenerationInForce(cluster.nodes.get("n1").home());
        return client;
    }

    /** The node running instance {@code hostId} now. */
    private TributaryNode instance(String hostId) {
        return cluster.nodes.values().stream().map(n -> n.instances().get(hostId)).filter(java.util.Objects::nonNull)
                .findFirst().orElseThrow(() -> new AssertionError("no node runs instance " + hostId));
    }

    private static List<String> lcrs(TributaryNode n, String queue) {
        try (TestNodes.Wire w = new TestNodes.Wire(n)) {
            List<String> out = new ArrayList<>();
            for (Row r : w.exec("SELECT lcr FROM system_queues." + queue).getRowsList()) {
                out.add(r.getValues(0).getText());
            }
            return out;
        }
    }

    private static Map<Integer, Integer> captured(TributaryNode n) {
        Map<Integer, Integer> out = new HashMap<>();
        for (String lcr : lcrs(n, "cq")) {
            Matcher m = PK.matcher(lcr);
            if (m.find()) {
                out.merge(Integer.parseInt(m.group(1)), 1, Integer::sum);
            }
        }
        return out;
    }

    private static String scalar(TributaryNode n, String query) {
        try (TestNodes.Wire w = new TestNodes.Wire(n)) {
            return String.valueOf(w.scalar(query));
        }
    }

    @Test
    @DisplayName("CAP-RAC-1 CAP-RAC-2: kill the node that owns a capture's queue under load: the capture goes on where the "
            + "queue now is, from its checkpoint, every acknowledged write once; a disabled capture stays disabled")
    void captureFollowsItsQueue() throws Exception {
        try (TributaryClient client = startThree()) {
            ReplicatedNode owner = cluster.nodes.get("n2");
            String ownerId = owner.hostId();
            try (TestNodes.Wire w = new TestNodes.Wire(owner.home())) {
                w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                        + "streams_name => 'cc', queue_name => 'cq')");
                w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cc')");
                w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                        + "streams_name => 'dc', queue_name => 'dq')"); // created disabled, never started
            }
            String before = scalar(owner.home(), "SELECT node FROM system_views.streams_capture WHERE capture_name = 'cc'");

            UniqueWriters writers = UniqueWriters.pkV();
            writers.start(1, client);
            writers.start(2, client);
            writers.awaitMore(300);
            cluster.nodes.remove("n2").close();
            TestNodes.await(() -> cluster.nodes.values().stream().anyMatch(n -> n.instances().containsKey(ownerId)),
                    Duration.ofSeconds(60), "the queue owner's instance to run on a replica");
            writers.awaitMore(300);
            writers.close();

            TributaryNode now = instance(ownerId);
            Set<Integer> acked = new HashSet<>(writers.acked);
            TestNodes.await(() -> captured(now).keySet().containsAll(acked), Duration.ofSeconds(90),
                    () -> "every acknowledged write in the queue; missing " + acked.stream()
                            .filter(pk -> !captured(now).containsKey(pk)).limit(20).toList());
            Map<Integer, Integer> got = captured(now);
            assertTrue(got.values().stream().allMatch(c -> c == 1), "no write enqueued twice: "
                    + got.entrySet().stream().filter(e -> e.getValue() > 1).limit(20).toList());
            // key sets: every acknowledged write enqueued, no refused one, nothing never written
            writers.history.verifyRead("the queue", got.keySet(), Set.of(-1)); // -1: createTable's marker row

            assertEquals("ENABLED", scalar(now, "SELECT status FROM system_views.capture WHERE capture_name = 'cc'"));
            assertEquals("DISABLED", scalar(now, "SELECT status FROM system_views.capture WHERE capture_name = 'dc'"),
                    "a disabled capture stays disabled on the new owner");
            String after = scalar(now, "SELECT node FROM system_views.streams_capture WHERE capture_name = 'cc'");
            assertTrue(!after.equals(before), "streams_capture names the node it runs on now: " + before + " then " + after);
            assertTrue(lcrs(now, "dq").isEmpty(), "the disabled capture captured nothing");
        }
    }
    private static long count(TributaryNode n, String query) {
        try (TestNodes.Wire w = new TestNodes.Wire(n)) {
            return w.exec(query).getRowsCount();
        }
    }

    private static void exec(TributaryNode n, String statement) {
        try (TestNodes.Wire w = new TestNodes.Wire(n)) {
            w.exec(statement);
        }
    }

    @Test
    @DisplayName("CAP-RAC-2: a capture, its queue, an apply and their rules are seen and administered from every node, "
            + "before and after the node that owns them dies: views list them once, procedures reach the owning instance")
    void administeredFromAnyNode() throws Exception {
        try (TributaryClient client = startThree()) {
            TributaryNode one = cluster.nodes.get("n1").home();
            TributaryNode three = cluster.nodes.get("n3").home();
            // made on node 1, before anything exists: created where it runs
            exec(one, "CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'cc', queue_name => 'cq')");
            assertEquals(1, count(one, "SELECT capture_name FROM system_views.capture WHERE capture_name = 'cc'"));
            // the rest from node 2's instance is about node 1's capture: it must reach node 1
            TributaryNode two = cluster.nodes.get("n2").home();
            exec(two, "CALL dbms_capture_adm.start_capture(capture_name => 'cc')");
            exec(three, "CALL dbms_apply_adm.create_apply(queue_name => 'cq', apply_name => 'ap')");
            for (int i = 0; i < 20; i++) {
                client.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, i);
            }
            for (TributaryNode n : List.of(one, two, three)) {
                assertEquals("ENABLED", scalar(n, "SELECT status FROM system_views.capture WHERE capture_name = 'cc'"),
                        n.endpoint() + " lists the capture");
                assertEquals(1, count(n, "SELECT capture_name FROM system_views.capture"), "once, from " + n.endpoint());
                assertEquals(1, count(n, "SELECT capture_name FROM system_views.streams_capture"));
                assertEquals("cq", scalar(n, "SELECT queue_name FROM system_views.apply WHERE apply_name = 'ap'"));
                assertTrue(count(n, "SELECT rule_name FROM system_views.streams_rules") >= 1, "the capture's rule");
                TestNodes.await(() -> captured(n).keySet().containsAll(java.util.stream.IntStream.range(0, 20).boxed().toList()),
                        Duration.ofSeconds(60), () -> "the queue read through " + n.endpoint() + " to hold the 20 rows: " + captured(n));
            }

            // node 1, which runs the capture, dies; its instance moves to a replica with a new endpoint nobody gave
            String capturedOn = cluster.nodes.get("n1").hostId();
            cluster.nodes.remove("n1").close();
            TestNodes.await(() -> cluster.nodes.values().stream().anyMatch(n -> n.instances().containsKey(capturedOn)),
                    Duration.ofSeconds(60), "node 1's instance to run on a replica");
            for (TributaryNode n : List.of(two, three)) {
                TestNodes.await(() -> "ENABLED".equals(scalar(n, "SELECT status FROM system_views.capture WHERE capture_name = 'cc'")),
                        Duration.ofSeconds(30), () -> n.endpoint() + " to list the moved capture");
            }
            exec(three, "CALL dbms_capture_adm.stop_capture(capture_name => 'cc')");
            assertEquals("DISABLED", scalar(two, "SELECT status FROM system_views.capture WHERE capture_name = 'cc'"));
            exec(two, "CALL dbms_capture_adm.set_parameter(capture_name => 'cc', parameter => 'parallelism', value => '2')");
            assertEquals("2", scalar(three, "SELECT value FROM system_views.capture_parameters WHERE capture_name = 'cc' "
                    + "AND parameter = 'PARALLELISM'"));
            exec(two, "CALL dbms_capture_adm.start_capture(capture_name => 'cc')");
            for (int i = 20; i < 40; i++) {
                client.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, i);
            }
            for (TributaryNode n : List.of(two, three)) {
                TestNodes.await(() -> captured(n).keySet().containsAll(java.util.stream.IntStream.range(0, 40).boxed().toList()),
                        Duration.ofSeconds(60), () -> "the queue read through " + n.endpoint() + " to hold the 40 rows: " + captured(n));
                assertTrue(captured(n).values().stream().allMatch(c -> c == 1), "each row once");
            }
            assertEquals(1, count(two, "SELECT apply_name FROM system_views.apply"), "the apply moved with its queue, listed once");
        }
    }
}
