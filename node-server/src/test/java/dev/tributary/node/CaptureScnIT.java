package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Row;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dictionary builds and the five first SCN / start SCN cases of capture creation, on a real node:
 * "First SCN and Start SCN Specifications During Capture Process Creation" of the capture seed.
 */
@Timeout(180)
class CaptureScnIT {
    private static final String KS = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}";

    private static long build(TestNodes.Wire w) {
        return w.exec("CALL dbms_capture_adm.build()").getRows(0).getValues(0).getInteger();
    }

    private static long currentScn(TestNodes.Wire w) {
        return (Long) w.scalar("SELECT current_scn FROM system_views.database");
    }

    private static Object captureColumn(TestNodes.Wire w, String capture, String column) {
        return w.scalar("SELECT " + column + " FROM system_views.capture WHERE capture_name = '" + capture + "'");
    }

    /** Rows of archived_log with dictionary_begin = 'YES': (first_change, dictionary_end). */
    private static List<long[]> dictionaryLogs(TestNodes.Wire w) {
        ExecuteResponse r = w.exec("SELECT first_change, dictionary_begin, dictionary_end FROM system_views.archived_log");
        return r.getRowsList().stream().filter(row -> row.getValues(1).getText().equals("YES"))
                .map(row -> new long[] {row.getValues(0).getInteger(), row.getValues(2).getText().equals("YES") ? 1 : 0})
                .toList();
    }

    private static String error(TestNodes.Wire w, String statement) {
        return assertThrows(StatusRuntimeException.class, () -> w.exec(statement)).getStatus().getDescription();
    }

    private static void tableRules(TestNodes.Wire w, String capture, String queue) {
        w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', streams_name => '"
                + capture + "', queue_name => '" + queue + "')");
    }

    @Test
    @DisplayName("CAP-SCN-2 CAP-DICT-1: dbms_capture_adm.build returns a first SCN that archived_log lists with dictionary_begin = 'YES'; builds may run many times")
    void buildsAreListed(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec(KS);
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            long first = build(w);
            w.exec("INSERT INTO ks.t (id, v) VALUES (1, 1)");
            long second = build(w);
            assertTrue(second > first);
            List<long[]> logs = dictionaryLogs(w);
            assertEquals(List.of(first, second), logs.stream().map(l -> l[0]).toList(),
                    "each build begins an archived log whose first_change is the build's SCN");
            assertTrue(logs.stream().allMatch(l -> l[1] == 1), "the build's dictionary-end is in the same log");
        }
    }

    @Test
    @DisplayName("CAP-SCN-5: first SCN set, start SCN NULL: start = first; no build runs; starting without a build at that SCN is an error")
    void firstScnOnly(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec(KS);
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            w.exec("CALL dbms_streams_adm.set_up_queue(queue_name => 'q')");
            long noBuild = currentScn(w);
            w.exec("CALL dbms_capture_adm.create_capture(queue_name => 'q', capture_name => 'nobuild', first_scn => " + noBuild + ")");
            assertEquals(noBuild, captureColumn(w, "nobuild", "start_scn"));
            assertEquals(List.of(), dictionaryLogs(w), "creating with a first SCN runs no build");
            String err = error(w, "CALL dbms_capture_adm.start_capture(capture_name => 'nobuild')");
            assertTrue(err.contains("no dictionary build at its first SCN " + noBuild), err);
            assertEquals("DISABLED", captureColumn(w, "nobuild", "status"));

            w.exec("INSERT INTO ks.t (id, v) VALUES (1, 1)"); // before the build: not capturable
            long first = build(w);
            // a queue of its own: one capture of a source per queue (CAP-DS-2)
            w.exec("CALL dbms_streams_adm.set_up_queue(queue_name => 'q5')");
            w.exec("CALL dbms_capture_adm.create_capture(queue_name => 'q5', capture_name => 'c5', first_scn => " + first + ")");
            tableRules(w, "c5", "q5");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'c5')");
            long scn = w.exec("INSERT INTO ks.t (id, v) VALUES (2, 2)").getCommitScn();
            w.awaitCaptured("c5", scn);
            List<String> lcrs = w.queueLcrs("q5");
            assertEquals(1, lcrs.size(), lcrs.toString());
            assertTrue(lcrs.get(0).contains("\"id\":2"), lcrs.get(0));
            assertEquals("YES", w.scalar("SELECT loaded FROM system_views.logmnr_dictionaries WHERE logminer_id = "
                    + captureColumn(w, "c5", "logminer_id")));
        }
    }

    @Test
    @DisplayName("CAP-SCN-6 CAP-SCN-3: both set: start below first is an error; otherwise a new LogMiner dictionary scans from the first SCN and captures from the start SCN")
    void bothSet(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec(KS);
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            w.exec("CALL dbms_streams_adm.set_up_queue(queue_name => 'q')");
            long first = build(w);
            String err = error(w, "CALL dbms_capture_adm.create_capture(queue_name => 'q', capture_name => 'low', first_scn => "
                    + first + ", start_scn => " + (first - 1) + ")");
            assertTrue(err.contains("start_scn " + (first - 1) + " is below first_scn " + first), err);
            long start = w.exec("INSERT INTO ks.t (id, v) VALUES (1, 1)").getCommitScn() + 1;
            w.exec("INSERT INTO ks.t (id, v) VALUES (2, 2)");
            w.exec("CALL dbms_capture_adm.create_capture(queue_name => 'q', capture_name => 'c6', first_scn => " + first
                    + ", start_scn => " + start + ")");
            tableRules(w, "c6", "q");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'c6')");
            long scn = w.exec("INSERT INTO ks.t (id, v) VALUES (3, 3)").getCommitScn();
            w.awaitCaptured("c6", scn);
            List<String> lcrs = w.queueLcrs("q");
            assertEquals(2, lcrs.size(), "the change between first and start SCN is scanned, not captured: " + lcrs);
            assertTrue(lcrs.stream().noneMatch(l -> l.contains("\"id\":1,")), lcrs.toString());
        }
    }

    @Test
    @DisplayName("CAP-SCN-7 CAP-SCN-9 CAP-DICT-3: first SCN NULL: a build runs when no capture has a checkpoint; later captures share a LogMiner dictionary; the errors of both cases")
    void firstScnNull(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec(KS);
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            w.exec("CALL dbms_streams_adm.set_up_queue(queue_name => 'q')");
            long past = w.exec("INSERT INTO ks.t (id, v) VALUES (1, 1)").getCommitScn();
            String err = error(w, "CALL dbms_capture_adm.create_capture(queue_name => 'q', capture_name => 'old', start_scn => "
                    + past + ")");
            assertTrue(err.contains("is below the current SCN") && err.contains("no capture process has taken a checkpoint"), err);

            long start = currentScn(w) + (1L << 40); // SCNs are clock values: about four and a half hours ahead
            w.exec("CALL dbms_capture_adm.create_capture(queue_name => 'q', capture_name => 'c7', start_scn => " + start + ")");
            List<long[]> builds = dictionaryLogs(w);
            assertEquals(1, builds.size(), "creation ran a build");
            assertEquals(builds.get(0)[0], captureColumn(w, "c7", "first_scn"), "the first SCN is the build's");
            assertEquals(start, captureColumn(w, "c7", "start_scn"));

            // CAP-SCN-9: both NULL, still no checkpoint anywhere: another build, its own dictionary
            w.exec("CALL dbms_streams_adm.set_up_queue(queue_name => 'q9')"); // one capture of a source per queue (CAP-DS-2)
            w.exec("CALL dbms_capture_adm.create_capture(queue_name => 'q9', capture_name => 'c9')");
            assertEquals(2, dictionaryLogs(w).size());
            assertEquals(captureColumn(w, "c9", "first_scn"), captureColumn(w, "c9", "start_scn"));
            assertNotEquals(captureColumn(w, "c7", "logminer_id"), captureColumn(w, "c9", "logminer_id"));
            tableRules(w, "c9", "q9");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'c9')");
            w.exec("ALTER TABLE ks.t ADD w text");
            long scn = w.exec("INSERT INTO ks.t (id, v, w) VALUES (2, 2, 'two')").getCommitScn();
            w.awaitCaptured("c9", scn);

            // c9 has taken a checkpoint: a new capture without a first SCN shares its dictionary, no build
            w.exec("CALL dbms_streams_adm.set_up_queue(queue_name => 'qs')");
            w.exec("CALL dbms_capture_adm.create_capture(queue_name => 'qs', capture_name => 'shared', start_scn => " + scn + ")");
            assertEquals(2, dictionaryLogs(w).size(), "sharing runs no build");
            assertEquals(captureColumn(w, "c9", "logminer_id"), captureColumn(w, "shared", "logminer_id"));
            assertEquals(captureColumn(w, "c9", "first_scn"), captureColumn(w, "shared", "first_scn"));
            err = error(w, "CALL dbms_capture_adm.create_capture(queue_name => 'q', capture_name => 'tooold', start_scn => 5)");
            assertTrue(err.contains("lower than the first SCN of every existing capture process"), err);

            // the sharing capture decodes with the shared dictionary, DDL included
            w.exec("CALL dbms_streams_adm.set_up_queue(queue_name => 'q2')");
            w.exec("CALL dbms_capture_adm.drop_capture(capture_name => 'shared')");
            w.exec("CALL dbms_capture_adm.create_capture(queue_name => 'q2', capture_name => 'shared', start_scn => " + scn + ")");
            tableRules(w, "shared", "q2");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'shared')");
            long later = w.exec("INSERT INTO ks.t (id, v, w) VALUES (3, 3, 'three')").getCommitScn();
            w.awaitCaptured("shared", later);
            List<String> lcrs = w.queueLcrs("q2");
            assertEquals(2, lcrs.size(), lcrs.toString());
            // a queue is in (stream, time) order, so the two rows may come either way
            assertTrue(lcrs.stream().anyMatch(l -> l.contains("\"w\":\"two\""))
                    && lcrs.stream().anyMatch(l -> l.contains("\"w\":\"three\"")), lcrs.toString());
            assertEquals("c9,shared", w.scalar("SELECT captures FROM system_views.logmnr_dictionaries WHERE logminer_id = "
                    + captureColumn(w, "c9", "logminer_id")));
        }
    }

    @Test
    @DisplayName("CAP-SCN-10: raising the first SCN purges the LogMiner dictionary below it and carries the start SCN up (Figures 2-4, 2-5)")
    void raisingFirstScnPurges(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec(KS);
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            tableRules(w, "cap", "q");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            long ddl1 = w.exec("ALTER TABLE ks.t ADD a int").getCommitScn();
            long ddl2 = w.exec("ALTER TABLE ks.t ADD b int").getCommitScn();
            long scn = w.exec("INSERT INTO ks.t (id, v, a, b) VALUES (1, 1, 1, 1)").getCommitScn();
            w.awaitCaptured("cap", scn);
            String id = String.valueOf(captureColumn(w, "cap", "logminer_id"));
            String versions = "SELECT versions FROM system_views.logmnr_dictionaries WHERE logminer_id = " + id;
            assertEquals(3L, w.scalar(versions), "the build and two DDL versions");
            long start = (Long) captureColumn(w, "cap", "start_scn");

            w.exec("CALL dbms_capture_adm.alter_capture(capture_name => 'cap', first_scn => " + (ddl1 + 1) + ")");
            assertEquals(2L, w.scalar(versions), "the build's version went; the one in force at the new first SCN stays");
            assertEquals(ddl1 + 1, w.scalar("SELECT first_available_scn FROM system_views.logmnr_dictionaries WHERE logminer_id = " + id));
            assertEquals(ddl1 + 1 > start ? ddl1 + 1 : start, captureColumn(w, "cap", "start_scn"));
            w.exec("CALL dbms_capture_adm.alter_capture(capture_name => 'cap', first_scn => " + ddl2 + ")");
            assertEquals(1L, w.scalar(versions));
            assertEquals(ddl2, captureColumn(w, "cap", "start_scn"), "Figure 2-5: the start SCN follows a first SCN above it");
            String err = error(w, "CALL dbms_capture_adm.alter_capture(capture_name => 'cap', first_scn => " + ddl1 + ")");
            assertTrue(err.contains("can only be raised"), err);

            long after = w.exec("INSERT INTO ks.t (id, v, a, b) VALUES (2, 2, 2, 2)").getCommitScn();
            w.awaitCaptured("cap", after);
            assertEquals(2, w.queueLcrs("q").size(), "capture goes on after the purge");
        }
    }
}
