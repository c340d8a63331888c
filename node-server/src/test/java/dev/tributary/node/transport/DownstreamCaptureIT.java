package dev.tributary.node.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.Row;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.InvalidQueryException;
import dev.tributary.client.errors.NotFoundException;
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

/**
 * Downstream capture between clusters on one machine: two sources ship their archived redo to a
 * third, which captures each with a capture process of its own, one through a database link to
 * its source and one without.
 */
@Timeout(180)
class DownstreamCaptureIT {
    private static final Pattern VALUE = Pattern.compile("\"v\":\"([a-z]+-[0-9]+)\"");

    private static TributaryClient client(TributaryNode n) {
        return TributaryClient.builder().endpoints(n.endpoint()).build();
    }

    /** A source: a table ks.{table}, its archived redo shipped to {@code dst}. */
    private static void source(TributaryClient c, TributaryNode dst, String table) {
        c.execute("CREATE DATABASE LINK dst USING '" + dst.endpoint() + "'");
        c.execute("ALTER SYSTEM SET log_archive_dest_2 = 'SERVICE=dst'");
        c.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
        c.execute("CREATE TABLE ks." + table + " (pk int PRIMARY KEY, v text)");
    }

    /** Writes rows {prefix}-{from} to {prefix}-{to - 1} and archives the log they are in. */
    private static void write(TributaryClient c, String table, String prefix, int from, int to) {
        for (int i = from; i < to; i++) {
            c.execute("INSERT INTO ks." + table + " (pk, v) VALUES (?, ?)", i, prefix + "-" + i);
        }
        c.execute("ALTER SYSTEM SWITCH LOGFILE");
    }

    /** The values the LCRs in a queue carry, with how often each, and the source each came from. */
    private static Map<String, Integer> captured(TributaryClient c, String queue, List<String> sources) {
        Map<String, Integer> out = new HashMap<>();
        for (Row r : c.execute("SELECT lcr FROM system_queues." + queue).all()) {
            String lcr = r.getString("lcr");
            Matcher m = VALUE.matcher(lcr);
            if (m.find()) {
                out.merge(m.group(1), 1, Integer::sum);
                Matcher db = Pattern.compile("\"source_database_name\":\"([A-Za-z]+)\"").matcher(lcr);
                sources.add(db.find() ? db.group(1) : lcr.substring(0, Math.min(lcr.length(), 80)));
            }
        }
        return out;
    }

    /** The sequence numbers of the logs received from a source, lowest first. */
    private static List<Long> sequences(TributaryClient c, String source) {
        return c.execute("SELECT source_database, standby_dest, sequence_number FROM system_views.archived_log").all().stream()
                .filter(r -> r.getString("source_database").equals(source) && r.getString("standby_dest").equals("YES"))
                .map(r -> r.getLong("sequence_number")).sorted().toList();
    }

    private static Map<String, Integer> expected(String prefix, int n) {
        Map<String, Integer> out = new HashMap<>();
        for (int i = 0; i < n; i++) {
            out.put(prefix + "-" + i, 1);
        }
        return out;
    }

    private static void awaitCaptured(TributaryClient c, String queue, String prefix, int n, String source) {
        TestNodes.await(() -> captured(c, queue, new ArrayList<>()).size() >= n, Duration.ofSeconds(60),
                () -> queue + " to hold " + n + " changes of " + source + "; it holds " + captured(c, queue, new ArrayList<>()));
        List<String> sources = new ArrayList<>();
        assertEquals(expected(prefix, n), captured(c, queue, sources), "every change of " + source + " once");
        assertTrue(sources.stream().allMatch(source::equals), "LCRs name their source database: " + sources);
    }

    @Test
    @DisplayName("CAP-DS-1 CAP-DS-3 CAP-SCN-8 CAP-DS-2 CAP-CRE-2: two sources into one downstream database, one capture "
            + "through a database link (build, prepare and first SCN at the source) and one without (manual build, "
            + "the seed's errors); every change captured once, named by its source")
    void downstreamCaptures(@TempDir Path dir) throws Exception {
        try (TributaryNode src = TestNodes.startCluster(dir.resolve("src"), "src");
                TributaryNode oth = TestNodes.startCluster(dir.resolve("oth"), "oth");
                TributaryNode dst = TestNodes.startCluster(dir.resolve("dst"), "dst");
                TributaryClient s = client(src);
                TributaryClient o = client(oth);
                TributaryClient d = client(dst)) {
            source(s, dst, "t");
            source(o, dst, "u");
            d.execute("CALL dbms_streams_adm.set_up_queue(queue_name => 'from_src')");
            d.execute("CALL dbms_streams_adm.set_up_queue(queue_name => 'from_oth')");

            // without a database link: the build is the operator's (CAP-SCN-8's error), then a first SCN is given
            InvalidQueryException noFirst = assertThrows(InvalidQueryException.class, () -> d.execute(
                    "CALL dbms_capture_adm.create_capture(queue_name => 'from_oth', capture_name => 'oth_cap', "
                            + "source_database => 'oth', start_scn => 5)"));
            assertTrue(noFirst.getMessage().contains("without a database link needs a first_scn: run dbms_capture_adm.build "
                    + "at OTH"), noFirst.getMessage());
            NotFoundException noLink = assertThrows(NotFoundException.class, () -> d.execute(
                    "CALL dbms_capture_adm.create_capture(queue_name => 'from_oth', capture_name => 'oth_cap', "
                            + "source_database => 'oth', use_database_link => true)"));
            assertTrue(noLink.getMessage().contains("needs a database link named oth"), noLink.getMessage());
            long othBuild = o.execute("CALL dbms_capture_adm.build()").one().getLong("first_scn");
            d.execute("CALL dbms_capture_adm.create_capture(queue_name => 'from_oth', capture_name => 'oth_cap', "
                    + "source_database => 'oth', first_scn => " + othBuild + ")");
            d.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.u', streams_type => 'capture', "
                    + "streams_name => 'oth_cap', queue_name => 'from_oth')");
            d.execute("CALL dbms_capture_adm.start_capture(capture_name => 'oth_cap')");

            // through the database link named as the source: the capture finds its first SCN itself
            d.execute("CREATE DATABASE LINK src USING '" + src.endpoint() + "'");
            InvalidQueryException early = assertThrows(InvalidQueryException.class, () -> d.execute(
                    "CALL dbms_capture_adm.create_capture(queue_name => 'from_src', capture_name => 'src_cap', "
                            + "source_database => 'src', use_database_link => true, start_scn => 1)"));
            assertTrue(early.getMessage().contains("start_scn 1 is below the current SCN"), early.getMessage());
            long before = s.execute("SELECT current_scn FROM system_views.database").one().getLong("current_scn");
            d.execute("CALL dbms_capture_adm.create_capture(queue_name => 'from_src', capture_name => 'src_cap', "
                    + "source_database => 'src', use_database_link => true)");
            Row cap = d.execute("SELECT capture_type, source_database, first_scn, start_scn, status FROM system_views.capture "
                    + "WHERE capture_name = 'src_cap'").one();
            assertEquals("DOWNSTREAM", cap.getString("capture_type"));
            assertEquals("SRC", cap.getString("source_database"));
            assertTrue(cap.getLong("first_scn") > before, "a build ran at the source after its current SCN was read");
            assertTrue(s.execute("SELECT first_change FROM system_views.archived_log").all().stream()
                    .anyMatch(r -> r.getLong("first_change") == cap.getLong("first_scn")), "the source archived its build");
            assertEquals("DISABLED", cap.getString("status"));
            d.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'src_cap', queue_name => 'from_src', source_database => 'src')");
            assertTrue(s.execute("SELECT object FROM system_views.prepared_tables").all().stream()
                    .anyMatch(r -> r.getString("object").equals("ks.t")), "the rule prepared ks.t at the source, through the link");
            d.execute("CALL dbms_capture_adm.start_capture(capture_name => 'src_cap')");

            write(s, "t", "src", 0, 40);
            write(o, "u", "oth", 0, 30);
            awaitCaptured(d, "from_src", "src", 40, "SRC");
            awaitCaptured(d, "from_oth", "oth", 30, "OTH");
            // later logs follow
            write(s, "t", "src", 40, 60);
            awaitCaptured(d, "from_src", "src", 60, "SRC");
            // received logs no capture of their source needs any more are deleted (from archived_log and the disk)
            long oldest = sequences(d, "SRC").get(0);
            TestNodes.await(() -> !sequences(d, "SRC").contains(oldest), Duration.ofSeconds(30),
                    () -> "received log " + oldest + " of SRC to be purged; held " + sequences(d, "SRC"));
            write(s, "t", "src", 60, 70);
            awaitCaptured(d, "from_src", "src", 70, "SRC");

            // CAP-DS-2: a second capture of SRC into the queue that already carries SRC's changes
            InvalidQueryException twice = assertThrows(InvalidQueryException.class, () -> d.execute(
                    "CALL dbms_capture_adm.create_capture(queue_name => 'from_src', capture_name => 'src_again', "
                            + "source_database => 'src', first_scn => " + cap.getLong("first_scn") + ")"));
            assertTrue(twice.getMessage().contains("src_cap already enqueues the changes of SRC into queue from_src"),
                    twice.getMessage());
            // CAP-CRE-2: the source's identity is fixed
            InvalidQueryException moved = assertThrows(InvalidQueryException.class, () -> d.execute(
                    "CALL dbms_capture_adm.alter_capture(capture_name => 'src_cap', source_database => 'oth')"));
            assertTrue(moved.getMessage().contains("source database of a capture process cannot change"), moved.getMessage());
            assertEquals("SRC", d.execute("SELECT source_database FROM system_views.capture WHERE capture_name = 'src_cap'")
                    .one().getString("source_database"));
        }
    }

    @Test
    @DisplayName("CAP-DS-3 CAP-DS-6 CAP-DS-9: a database link named as the source that leads elsewhere is refused before "
            + "anything runs there; "
            + "a downstream capture whose first SCN has no build in the received redo does not start")
    void wrongLinkAndMissingBuild(@TempDir Path dir) throws Exception {
        try (TributaryNode src = TestNodes.startCluster(dir.resolve("src"), "src");
                TributaryNode dst = TestNodes.startCluster(dir.resolve("dst"), "dst");
                TributaryClient s = client(src);
                TributaryClient d = client(dst)) {
            source(s, dst, "t");
            d.execute("CALL dbms_streams_adm.set_up_queue(queue_name => 'q')");
            d.execute("CREATE DATABASE LINK src USING '" + dst.endpoint() + "'"); // names SRC, leads to DST
            InvalidQueryException wrong = assertThrows(InvalidQueryException.class, () -> d.execute(
                    "CALL dbms_capture_adm.create_capture(queue_name => 'q', capture_name => 'c', source_database => 'src', "
                            + "use_database_link => true)"));
            assertTrue(wrong.getMessage().contains("database link src leads to DST, not to SRC"), wrong.getMessage());
            assertTrue(d.execute("SELECT capture_name FROM system_views.capture").all().isEmpty(), "nothing was created");

            // a first SCN that is no build: once the redo past it has arrived, start_capture says so
            write(s, "t", "src", 0, 5);
            long notABuild = s.execute("SELECT current_scn FROM system_views.database").one().getLong("current_scn");
            write(s, "t", "src", 5, 10);
            TestNodes.await(() -> d.execute("SELECT source_database, next_change FROM system_views.archived_log").all().stream()
                    .anyMatch(r -> r.getString("source_database").equals("SRC") && r.getLong("next_change") > notABuild),
                    Duration.ofSeconds(30), "the redo past " + notABuild + " to arrive");
            d.execute("CALL dbms_capture_adm.create_capture(queue_name => 'q', capture_name => 'c', source_database => 'src', "
                    + "first_scn => " + notABuild + ")");
            InvalidQueryException noBuild = assertThrows(InvalidQueryException.class,
                    () -> d.execute("CALL dbms_capture_adm.start_capture(capture_name => 'c')"));
            assertTrue(noBuild.getMessage().contains("has no dictionary build at its first SCN " + notABuild), noBuild.getMessage());
            assertEquals("DISABLED", d.execute("SELECT status FROM system_views.capture WHERE capture_name = 'c'").one()
                    .getString("status"));
        }
    }
    private static List<String> logs(TributaryClient c) {
        return c.execute("SELECT source_database, standby_dest, thread_number, sequence_number, first_change, next_change "
                + "FROM system_views.archived_log").all().stream().map(r -> r.getString(0) + "/" + r.getString(1) + "/"
                + r.getLong(2) + "/" + r.getLong(3) + " " + r.getLong(4) + "-" + r.getLong(5)).toList();
    }

    /** The threads of a source whose logs this database received. */
    private static java.util.Set<Long> receivedThreads(TributaryClient c, String source) {
        return c.execute("SELECT source_database, standby_dest, thread_number FROM system_views.archived_log").all().stream()
                .filter(r -> r.getString("source_database").equals(source) && r.getString("standby_dest").equals("YES"))
                .map(r -> r.getLong("thread_number")).collect(java.util.stream.Collectors.toSet());
    }

    @Test
    @DisplayName("CAP-RAC-1 CAP-DS-1 CAP-DS-7 CAP-DS-8: a downstream capture of a 3-node source keeps up: ARCHIVE LOG "
            + "CURRENT on one node "
            + "archives every node's thread, and archive_lag_target switches each thread's log, quiet or not, so the "
            + "merge of the threads never waits on one for good")
    void multiNodeSourceKeepsUp(@TempDir Path dir) throws Exception {
        try (InProcessCluster source = InProcessCluster.builder(dir).ringDelay(Duration.ofMillis(300)).options("--cluster", "src")
                .build()) {
            TributaryNode n1 = source.start("n1");
            TributaryNode n2 = source.start("n2");
            TributaryNode n3 = source.start("n3");
            try (TributaryNode dst = TestNodes.startCluster(dir.resolve("dst"), "dst");
                    TributaryClient s = client(n1);
                    TributaryClient all = TributaryClient.builder().endpoints(n1.endpoint(), n2.endpoint(), n3.endpoint()).build();
                    TributaryClient d = client(dst)) {
                TestNodes.await(() -> s.execute("SELECT peer FROM system.peers").all().size() == 2, Duration.ofSeconds(30),
                        "node 1 to see both peers");
                TestNodes.awaitGenerationInForce(n1);
                source(s, dst, "t");
                d.execute("CALL dbms_streams_adm.set_up_queue(queue_name => 'from_src')");
                d.execute("CREATE DATABASE LINK src USING '" + n1.endpoint() + "'");
                d.execute("CALL dbms_capture_adm.create_capture(queue_name => 'from_src', capture_name => 'src_cap', "
                        + "source_database => 'src', use_database_link => true)");
                d.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                        + "streams_name => 'src_cap', queue_name => 'from_src', source_database => 'src')");
                d.execute("CALL dbms_capture_adm.start_capture(capture_name => 'src_cap')");

                for (int i = 0; i < 60; i++) {
                    all.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, "src-" + i);
                }
                s.execute("ALTER SYSTEM ARCHIVE LOG CURRENT");
                TestNodes.await(() -> receivedThreads(d, "SRC").size() == 3, Duration.ofSeconds(30), () -> "a log of each of the "
                        + "three threads at dst: " + logs(d) + "; at the source: " + logs(all));
                TestNodes.await(() -> captured(d, "from_src", new ArrayList<>()).size() >= 60, Duration.ofSeconds(60),
                        () -> "from_src to hold 60 changes of SRC; it holds " + captured(d, "from_src", new ArrayList<>()).size()
                                + "; logs " + logs(d) + " capture " + d.execute("SELECT state FROM system_views.streams_capture").all()
                                        .stream().map(r -> r.getString(0)).toList()
                                + d.execute("SELECT status, error_message, captured_scn FROM system_views.capture").all().stream()
                                        .map(r -> r.getString(0) + " " + r.getString(1) + " " + r.getLong(2)).toList());
                awaitCaptured(d, "from_src", "src", 60, "SRC");

                InvalidQueryException bad = assertThrows(InvalidQueryException.class,
                        () -> s.execute("ALTER SYSTEM SET archive_lag_target = 'soon'"));
                assertTrue(bad.getMessage().contains("archive_lag_target must be a whole number of seconds"), bad.getMessage());
                // from here on nobody switches a log by hand: the target does, on every node
                s.execute("ALTER SYSTEM SET archive_lag_target = 1");
                for (int i = 60; i < 90; i++) {
                    all.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, "src-" + i);
                }
                awaitCaptured(d, "from_src", "src", 90, "SRC");
                s.execute("ALTER SYSTEM SET archive_lag_target = 0");
            }
        }
    }
    @Test
    @DisplayName("CAP-SCN-8 CAP-DS-2 CAP-DS-5 CAP-DS-6 CAP-CRE-2: a downstream capture made without a database link shares "
            + "the LogMiner dictionary of a checkpointed capture of its source, each in its own queue, beside a local capture; "
            + "use_database_link is set by create_capture and alter_capture; dbms_streams_adm naming another source refuses "
            + "to make a capture; two local captures may not feed one queue")
    void sharingWithoutALinkAndRefusals(@TempDir Path dir) throws Exception {
        try (TributaryNode src = TestNodes.startCluster(dir.resolve("src"), "src");
                TributaryNode dst = TestNodes.startCluster(dir.resolve("dst"), "dst");
                TributaryClient s = client(src);
                TributaryClient d = client(dst)) {
            source(s, dst, "t");
            d.execute("CALL dbms_streams_adm.set_up_queue(queue_name => 'q1')");
            d.execute("CALL dbms_streams_adm.set_up_queue(queue_name => 'q2')");

            // CAP-CRE-2: a capture of another database is made by create_capture, never by dbms_streams_adm
            InvalidQueryException streams = assertThrows(InvalidQueryException.class, () -> d.execute(
                    "CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                            + "streams_name => 'nope', queue_name => 'q1', source_database => 'src')"));
            assertTrue(streams.getMessage().contains("makes local capture processes only"), streams.getMessage());
            assertEquals(0, d.execute("SELECT capture_name FROM system_views.capture").all().size(), "nothing was made");

            d.execute("CREATE DATABASE LINK src USING '" + src.endpoint() + "'");
            d.execute("CALL dbms_capture_adm.create_capture(queue_name => 'q1', capture_name => 'first', "
                    + "source_database => 'src', use_database_link => true)");
            d.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'first', queue_name => 'q1', source_database => 'src')");
            d.execute("CALL dbms_capture_adm.start_capture(capture_name => 'first')");
            write(s, "t", "src", 0, 10);
            awaitCaptured(d, "q1", "src", 10, "SRC");
            TestNodes.await(() -> d.execute("SELECT required_checkpoint_scn FROM system_views.capture WHERE capture_name = "
                    + "'first'").one().getLong(0) > 0, Duration.ofSeconds(30), "the first capture to take a checkpoint");

            // CAP-SCN-8: no first SCN and no link (use_database_link false), yet a checkpointed capture of SRC to share with
            long start = s.execute("SELECT current_scn FROM system_views.database").one().getLong("current_scn");
            d.execute("CALL dbms_capture_adm.create_capture(queue_name => 'q2', capture_name => 'second', "
                    + "source_database => 'src', use_database_link => false, start_scn => " + start + ")");
            Row first = d.execute("SELECT first_scn FROM system_views.capture WHERE capture_name = 'first'").one();
            Row second = d.execute("SELECT first_scn, start_scn FROM system_views.capture WHERE capture_name = 'second'").one();
            assertEquals(first.getLong("first_scn"), second.getLong("first_scn"), "the first capture's dictionary, shared");
            assertEquals(start, second.getLong("start_scn"));
            d.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'second', queue_name => 'q2', source_database => 'src')");
            d.execute("CALL dbms_capture_adm.start_capture(capture_name => 'second')");
            write(s, "t", "two", 10, 20);
            TestNodes.await(() -> captured(d, "q2", new ArrayList<>()).keySet().containsAll(
                    java.util.stream.IntStream.range(10, 20).mapToObj(i -> "two-" + i).toList()), Duration.ofSeconds(60),
                    () -> "q2 to hold the changes after its start SCN: " + captured(d, "q2", new ArrayList<>()));
            List<Long> scns = d.execute("SELECT lcr FROM system_queues.q2").all().stream().map(r -> {
                Matcher m = Pattern.compile("\"scn\":([0-9]+)").matcher(r.getString(0));
                return m.find() ? Long.parseLong(m.group(1)) : -1L;
            }).toList();
            assertTrue(scns.stream().allMatch(scn -> scn >= start), "nothing below its start SCN " + start + ": " + scns);
            assertTrue(captured(d, "q2", new ArrayList<>()).size() < 20, "not the first capture's changes from before");

            // CAP-DS-6: use_database_link, set by create_capture, changed by alter_capture
            assertEquals("YES", d.execute("SELECT use_database_link FROM system_views.capture WHERE capture_name = 'first'").one()
                    .getString(0));
            assertEquals("NO", d.execute("SELECT use_database_link FROM system_views.capture WHERE capture_name = 'second'")
                    .one().getString(0));
            d.execute("CALL dbms_capture_adm.alter_capture(capture_name => 'second', use_database_link => true)");
            assertEquals("YES", d.execute("SELECT use_database_link FROM system_views.capture WHERE capture_name = 'second'")
                    .one().getString(0));

            // CAP-DS-5: a local capture of dst's own table runs beside the two downstream captures of SRC
            d.execute("CREATE KEYSPACE here WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            d.execute("CREATE TABLE here.t (pk int PRIMARY KEY, v text)");
            d.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'here.t', streams_type => 'capture', "
                    + "streams_name => 'mine', queue_name => 'mq')");
            d.execute("CALL dbms_capture_adm.start_capture(capture_name => 'mine')");
            d.execute("INSERT INTO here.t (pk, v) VALUES (1, 'dst-1')");
            TestNodes.await(() -> captured(d, "mq", new ArrayList<>()).containsKey("dst-1"), Duration.ofSeconds(30),
                    "the local capture to enqueue dst's own change");
            assertEquals(List.of("DOWNSTREAM", "LOCAL", "DOWNSTREAM"), d.execute("SELECT capture_name, capture_type FROM "
                    + "system_views.capture").all().stream().sorted(java.util.Comparator.comparing(r -> r.getString(0)))
                    .map(r -> r.getString(1)).toList(), "first, mine, second");

            // CAP-DS-2 for local captures: a second local capture into a queue one already feeds
            s.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'l1', queue_name => 'lq')");
            InvalidQueryException twice = assertThrows(InvalidQueryException.class, () -> s.execute(
                    "CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                            + "streams_name => 'l2', queue_name => 'lq')"));
            assertTrue(twice.getMessage().contains("l1 already enqueues the changes of SRC into queue lq"), twice.getMessage());
            assertEquals(List.of("l1"), s.execute("SELECT capture_name FROM system_views.capture").all().stream()
                    .map(r -> r.getString(0)).toList(), "nothing half made");
        }
    }
    @Test
    @DisplayName("CAP-DS-7 CAP-DS-8 CAP-RAC-2: the issue's measurement — a 3-node source at replication factor 3 shipping to a "
            + "downstream capture: after writes and ARCHIVE LOG CURRENT every thread's log arrives and the queue holds every "
            + "write")
    void replicatedSourceKeepsUp(@TempDir Path dir) throws Exception {
        try (dev.tributary.node.kit.ReplicatedNodes source = new dev.tributary.node.kit.ReplicatedNodes(dir.resolve("src"), "1s");
                TributaryNode dst = TestNodes.startCluster(dir.resolve("dst"), "dst");
                TributaryClient d = client(dst)) {
            for (String name : List.of("n1", "n2", "n3")) {
                source.start(name);
            }
            try (TributaryClient s = TributaryClient.builder().endpoints(source.endpoints()).build()) {
                source.createTable(s, "(pk int PRIMARY KEY, v int, w text)");
                String global = s.execute("SELECT global_name FROM system_views.database").one().getString(0);
                s.execute("CREATE DATABASE LINK dst USING '" + dst.endpoint() + "'");
                s.execute("ALTER SYSTEM SET log_archive_dest_2 = 'SERVICE=dst'");
                d.execute("CALL dbms_streams_adm.set_up_queue(queue_name => 'from_src')");
                d.execute("CREATE DATABASE LINK " + global + " USING '" + String.join(",", source.endpoints()) + "'");
                d.execute("CALL dbms_capture_adm.create_capture(queue_name => 'from_src', capture_name => 'src_cap', "
                        + "source_database => '" + global + "', use_database_link => true)");
                d.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                        + "streams_name => 'src_cap', queue_name => 'from_src', source_database => '" + global + "')");
                d.execute("CALL dbms_capture_adm.start_capture(capture_name => 'src_cap')");
                for (int i = 0; i < 60; i++) {
                    s.execute("INSERT INTO ks.t (pk, v, w) VALUES (?, ?, ?)", i, i, "src-" + i);
                }
                s.execute("ALTER SYSTEM ARCHIVE LOG CURRENT");
                String upper = global.toUpperCase(java.util.Locale.ROOT);
                TestNodes.await(() -> receivedThreads(d, upper).size() == 3, Duration.ofSeconds(60),
                        () -> "a log of each of the three threads at dst: " + logs(d));
                Pattern w = Pattern.compile("\"w\":\"(src-[0-9]+)\"");
                java.util.function.Supplier<Map<String, Integer>> written = () -> {
                    Map<String, Integer> out = new HashMap<>();
                    for (Row r : d.execute("SELECT lcr FROM system_queues.from_src").all()) {
                        Matcher m = w.matcher(r.getString("lcr"));
                        if (m.find()) {
                            out.merge(m.group(1), 1, Integer::sum);
                        }
                    }
                    return out;
                };
                TestNodes.await(() -> written.get().size() >= 60, Duration.ofSeconds(60),
                        () -> "the queue to hold the 60 writes; it holds " + written.get().size() + "; logs " + logs(d));
                assertEquals(expected("src", 60), written.get(), "every write once");
            }
        }
    }
}
