package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.protocol.v1.ExecuteResponse;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Capture errors, parameters, extra attributes and restricted session on a real node. */
@Timeout(180)
class CaptureLifecycleIT {
    private static String status(TestNodes.Wire w, String capture) {
        return w.exec("SELECT status FROM system_views.capture WHERE capture_name = '" + capture + "'").getRows(0).getValues(0)
                .getText();
    }

    private static void setUp(TestNodes.Wire w) {
        w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @Test
    @DisplayName("CAP-T-2: an unsupported user-type column makes the capture trace the LCR and become ABORTED; after the rules exclude it, it starts again")
    void unsupportedTypeAborts(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            setUp(w);
            w.exec("CREATE TYPE ks.address (street text, zip int)");
            w.exec("CREATE TABLE ks.people (id int PRIMARY KEY, home frozen<address>)");
            w.exec("CREATE TABLE ks.plain (id int PRIMARY KEY, v int)");
            w.exec("CALL dbms_streams_adm.add_schema_rules(schema_name => 'ks', streams_type => 'capture', streams_name => 'cap', "
                    + "queue_name => 'q')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            w.exec("INSERT INTO ks.people (id, home) VALUES (1, {street: 'Main', zip: 1000})");
            TestNodes.await(() -> status(w, "cap").equals("ABORTED"), Duration.ofSeconds(20), "the capture to abort");
            ExecuteResponse cap = w.exec("SELECT error_number, error_message FROM system_views.capture WHERE capture_name = 'cap'");
            assertEquals(902, cap.getRows(0).getValues(0).getInteger());
            assertTrue(cap.getRows(0).getValues(1).getText().contains("people"), cap.getRows(0).getValues(1).getText());
            ExecuteResponse trace = w.exec("SELECT message FROM system_views.capture_trace WHERE capture_name = 'cap'");
            assertEquals(1, trace.getRowsCount());
            assertTrue(trace.getRows(0).getValues(0).getText().contains("LCR: INSERT ks.people"), trace.getRows(0).getValues(0).getText());
            // change the rules to exclude the table, then start again: it resumes after the bad change
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.people', streams_type => 'capture', "
                    + "streams_name => 'cap', queue_name => 'q', inclusion_rule => false)");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            w.exec("INSERT INTO ks.plain (id, v) VALUES (1, 1)");
            TestNodes.await(() -> w.queueLcrs("q").stream().anyMatch(l -> l.contains("\"object_name\":\"plain\"")),
                    Duration.ofSeconds(20), "the restarted capture to capture ks.plain");
            assertEquals("ENABLED", status(w, "cap"));
        }
    }

    @Test
    @DisplayName("CAP-LCR-6 CAP-RESTART-1: extra attributes in the LCR; message_limit with disable_on_limit = Y stops and disables the capture")
    void extraAttributesAndLimits(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            setUp(w);
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', streams_name => 'cap', "
                    + "queue_name => 'q')");
            w.exec("CALL dbms_capture_adm.include_extra_attribute(capture_name => 'cap', attribute_name => 'username')");
            w.exec("CALL dbms_capture_adm.include_extra_attribute(capture_name => 'cap', attribute_name => 'thread#')");
            w.exec("CALL dbms_capture_adm.include_extra_attribute(capture_name => 'cap', attribute_name => 'row_id')");
            w.exec("CALL dbms_capture_adm.set_parameter(capture_name => 'cap', parameter => 'message_limit', value => '3')");
            w.exec("CALL dbms_capture_adm.set_parameter(capture_name => 'cap', parameter => 'disable_on_limit', value => 'Y')");
            assertThrows(StatusRuntimeException.class, () -> w.exec(
                    "CALL dbms_capture_adm.set_parameter(capture_name => 'cap', parameter => 'bogus', value => '1')"));
            ExecuteResponse params = w.exec("SELECT parameter, value, set_by_user FROM system_views.capture_parameters "
                    + "WHERE capture_name = 'cap'");
            assertTrue(params.getRowsList().stream().anyMatch(r -> r.getValues(0).getText().equals("MESSAGE_LIMIT")
                    && r.getValues(1).getText().equals("3") && r.getValues(2).getText().equals("YES")));
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            for (int i = 0; i < 5; i++) {
                w.exec("INSERT INTO ks.t (id, v) VALUES (" + i + ", " + i + ")");
            }
            TestNodes.await(() -> status(w, "cap").equals("DISABLED"), Duration.ofSeconds(20), "the capture to stop at its limit");
            List<String> lcrs = w.queueLcrs("q");
            assertTrue(lcrs.size() >= 3 && lcrs.size() < 5, lcrs.toString());
            assertTrue(lcrs.get(0).contains("\"username\":\"test\"") && lcrs.get(0).contains("\"thread#\":1")
                    && lcrs.get(0).contains("\"row_id\""), lcrs.get(0));
            // restarted by hand, it resumes where it stopped and loses nothing
            w.exec("CALL dbms_capture_adm.set_parameter(capture_name => 'cap', parameter => 'message_limit', value => 'INFINITE')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            TestNodes.await(() -> w.queueLcrs("q").size() == 5, Duration.ofSeconds(20), "all five LCRs");
        }
    }

    @Test
    @DisplayName("CAP-RS-1 CAP-RS-2: in a restricted session a started capture waits; it runs when the restriction ends")
    void restrictedSession(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            setUp(w);
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', streams_name => 'run', "
                    + "queue_name => 'q1')");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', streams_name => 'wait', "
                    + "queue_name => 'q2')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'run')");
            w.exec("CALL dbms_system.restricted_session(enabled => true)");
            assertEquals("YES", w.exec("SELECT restricted FROM system_views.database").getRows(0).getValues(0).getText());
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'wait')");
            w.exec("INSERT INTO ks.t (id, v) VALUES (1, 1)");
            TestNodes.await(() -> w.queueLcrs("q1").size() == 1, Duration.ofSeconds(20), "the running capture to go on");
            assertEquals(0, w.queueLcrs("q2").size(), "a capture started while restricted does not run");
            assertEquals(0, w.exec("SELECT * FROM system_views.streams_capture WHERE capture_name = 'wait'").getRowsCount());
            w.exec("CALL dbms_system.restricted_session(enabled => false)");
            TestNodes.await(() -> w.queueLcrs("q2").size() == 1, Duration.ofSeconds(20), "the waiting capture to start");
        }
    }

    @Test
    @DisplayName("CAP-IGN-2 CAP-IGN-3: changes to a table with logging = false — a bulk load of 200 rows among them — are "
            + "stored but not captured; --force-logging overrides it")
    void nologging(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            setUp(w);
            w.exec("CREATE TABLE ks.quiet (id int PRIMARY KEY, v int) WITH logging = false");
            w.exec("CREATE TABLE ks.loud (id int PRIMARY KEY, v int)");
            w.exec("CALL dbms_streams_adm.add_schema_rules(schema_name => 'ks', streams_type => 'capture', streams_name => 'cap', "
                    + "queue_name => 'q')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            w.execInBatches(200, i -> "INSERT INTO ks.quiet (id, v) VALUES (" + (i + 1) + ", 1)"); // the unlogged bulk load
            long loud = w.exec("INSERT INTO ks.loud (id, v) VALUES (1, 1)").getCommitScn();
            w.awaitCaptured("cap", loud);
            assertEquals(1, w.queueLcrs("q").size(), "only the logged change: " + w.queueLcrs("q"));
            assertTrue(w.queueLcrs("q").get(0).contains("\"object_name\":\"loud\""));
            assertEquals(200, w.exec("SELECT * FROM ks.quiet").getRowsCount(), "the unlogged writes themselves are stored");
        }
        NodeConfig forced = NodeConfig.parse(new String[] {"--data-dir", dir.toString(), "--listen", "127.0.0.1:0",
                "--native-listen", "127.0.0.1:0", "--ring-delay", "300ms", "--num-tokens", "8", "--force-logging"});
        try (TributaryNode node = TributaryNode.start(forced); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("INSERT INTO ks.quiet (id, v) VALUES (2, 2)");
            TestNodes.await(() -> w.queueLcrs("q").stream().anyMatch(l -> l.contains("\"object_name\":\"quiet\"")),
                    Duration.ofSeconds(20), "forced logging to capture ks.quiet");
        }
    }

    @Test
    @DisplayName("CAP-DDL-1: database-level statements (ALTER SYSTEM, database links, roles and grants, log switches, "
            + "cluster procedures) are not captured, even by global rules with DDL; a table's DDL after them is")
    void databaseLevelStatementsAreNotCaptured(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            setUp(w);
            w.exec("CALL dbms_streams_adm.add_global_rules(streams_type => 'capture', streams_name => 'all', queue_name => 'q', "
                    + "include_ddl => true)");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'all')");
            for (String st : List.of("ALTER SYSTEM SET archive_lag_target = 0", "CREATE DATABASE LINK elsewhere USING "
                    + "'127.0.0.1:1'", "DROP DATABASE LINK elsewhere", "ALTER SYSTEM SWITCH LOGFILE",
                    "ALTER SYSTEM ARCHIVE LOG CURRENT", "CREATE ROLE auditor WITH PASSWORD = 'a-Passw0rd' AND LOGIN = true",
                    "GRANT SELECT ON KEYSPACE ks TO auditor", "REVOKE SELECT ON KEYSPACE ks FROM auditor", "DROP ROLE auditor",
                    "CALL dbms_system.restricted_session(enabled => false)")) {
                w.exec(st);
            }
            long after = w.exec("CREATE TABLE ks.after (id int PRIMARY KEY)").getCommitScn();
            w.awaitCaptured("all", after);
            List<String> lcrs = w.queueLcrs("q");
            assertEquals(1, lcrs.size(), "only the CREATE TABLE: " + lcrs);
            assertTrue(lcrs.get(0).contains("\"command_type\":\"CREATE TABLE\""), lcrs.get(0));
        }
    }

    @Test
    @DisplayName("CAP-MULTI-1: several captures on one node, and the Streams pool their buffered queues share grows by "
            + "10 MB for each unit of parallelism of the captures running (4 + 1: 50 MB), and shrinks when one stops")
    void streamsPoolGrowsWithParallelism(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            setUp(w);
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            long base = ((Number) w.scalar("SELECT budget_bytes FROM system_views.streams_pool")).longValue();
            assertEquals(base, ((Number) w.scalar("SELECT base_bytes FROM system_views.streams_pool")).longValue(),
                    "no capture running: the base");
            for (String cap : List.of("wide", "narrow")) {
                w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', streams_name => '"
                        + cap + "', queue_name => 'q_" + cap + "')");
            }
            w.exec("CALL dbms_capture_adm.set_parameter(capture_name => 'wide', parameter => 'parallelism', value => '4')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'wide')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'narrow')");
            long scn = w.exec("INSERT INTO ks.t (id, v) VALUES (1, 1)").getCommitScn();
            w.awaitCaptured("wide", scn);
            w.awaitCaptured("narrow", scn);
            assertEquals(5L, ((Number) w.scalar("SELECT total_parallelism FROM system_views.streams_pool")).longValue());
            assertEquals(base + (50L << 20), ((Number) w.scalar("SELECT budget_bytes FROM system_views.streams_pool")).longValue());
            w.exec("CALL dbms_capture_adm.stop_capture(capture_name => 'wide')");
            assertEquals(base + (10L << 20), ((Number) w.scalar("SELECT budget_bytes FROM system_views.streams_pool")).longValue());
        }
    }

    @Test
    @DisplayName("CAP-PAR-1 CAP-COMP-1: parallelism 1 and 4 give identical queues, in SCN order")
    void parallelismGivesIdenticalQueues(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            setUp(w);
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            for (String cap : List.of("one", "four")) {
                w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', streams_name => '"
                        + cap + "', queue_name => 'q_" + cap + "')");
            }
            w.exec("CALL dbms_capture_adm.set_parameter(capture_name => 'four', parameter => 'parallelism', value => '4')");
            for (int i = 0; i < 200; i++) {
                w.exec("INSERT INTO ks.t (id, v) VALUES (" + (i % 37) + ", " + i + ")");
            }
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'one')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'four')");
            TestNodes.await(() -> w.queueLcrs("q_one").size() == 200 && w.queueLcrs("q_four").size() == 200, Duration.ofSeconds(30),
                    "both queues to hold the 200 changes");
            assertEquals(w.queueLcrs("q_one"), w.queueLcrs("q_four"));
        }
    }
}
