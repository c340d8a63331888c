package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.net.ErrorMapping;
import dev.tributary.protocol.v1.ExecuteResponse;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Capture processes as objects: the LogMiner dictionary scenario, persistent status, errors. */
@Timeout(180)
class CaptureProcessIT {
    @Test
    @DisplayName("CAP-DICT-2 CAP-SDD-1: capture stopped; insert a=7 b=15; add c; drop b; start capture: the LCR says b = 15")
    void table21(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t1 (id int PRIMARY KEY, a int, b int)");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t1', streams_type => 'capture', "
                    + "streams_name => 'cap_t1', queue_name => 'q_t1')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap_t1')");
            w.exec("CALL dbms_capture_adm.stop_capture(capture_name => 'cap_t1')");
            assertEquals("DISABLED", w.exec("SELECT status FROM system_views.capture WHERE capture_name = 'cap_t1'")
                    .getRows(0).getValues(0).getText());
            w.exec("INSERT INTO ks.t1 (id, a, b) VALUES (1, 7, 15)");
            w.exec("ALTER TABLE ks.t1 ADD c int");
            long scn = w.exec("ALTER TABLE ks.t1 DROP b").getCommitScn();
            assertEquals(List.of(), w.queueLcrs("q_t1"), "a stopped capture enqueues nothing");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap_t1')");
            w.awaitCaptured("cap_t1", scn);
            List<String> lcrs = w.queueLcrs("q_t1");
            assertEquals(1, lcrs.size(), lcrs.toString());
            assertTrue(lcrs.get(0).contains("\"new_values\":{\"id\":1,\"a\":7,\"b\":15}"), lcrs.get(0));
        }
    }

    @Test
    @DisplayName("CAP-PERSIST-1 CAP-CKPT-1: an enabled capture starts again with its node and resumes at its checkpoint; a disabled one stays so")
    void persistentStatus(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'on_cap', queue_name => 'on_q')");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'off_cap', queue_name => 'off_q')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'on_cap')");
            long scn = w.exec("INSERT INTO ks.t (id, v) VALUES (1, 1)").getCommitScn();
            w.awaitCaptured("on_cap", scn);
        }
        try (TributaryNode node = TributaryNode.start(TestNodes.config(dir, Duration.ofMillis(300)));
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            long scn = w.exec("INSERT INTO ks.t (id, v) VALUES (2, 2)").getCommitScn();
            w.awaitCaptured("on_cap", scn);
            assertEquals(2, w.queueLcrs("on_q").size(), "each LCR once across the restart");
            ExecuteResponse off = w.exec("SELECT status FROM system_views.capture WHERE capture_name = 'off_cap'");
            assertEquals("DISABLED", off.getRows(0).getValues(0).getText());
            assertEquals(0, w.queueLcrs("off_q").size());
            ExecuteResponse on = w.exec("SELECT status, required_checkpoint_scn FROM system_views.capture WHERE capture_name = 'on_cap'");
            assertEquals("ENABLED", on.getRows(0).getValues(0).getText());
            assertTrue(on.getRows(0).getValues(1).getInteger() >= scn);
        }
    }

    @Test
    @DisplayName("CAP-SCN-3 CAP-SCN-6: a start SCN below the first SCN is refused; unknown captures and queues are named")
    void creationErrors(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("CALL dbms_streams_adm.set_up_queue(queue_name => 'q')");
            StatusRuntimeException below = assertThrows(StatusRuntimeException.class, () -> w.exec(
                    "CALL dbms_capture_adm.create_capture(queue_name => 'q', capture_name => 'c', first_scn => 100, start_scn => 50)"));
            assertTrue(below.getStatus().getDescription().contains("below first_scn"), below.getStatus().getDescription());
            StatusRuntimeException noQueue = assertThrows(StatusRuntimeException.class, () -> w.exec(
                    "CALL dbms_capture_adm.create_capture(queue_name => 'nope', capture_name => 'c')"));
            assertEquals("NOT_FOUND", noQueue.getTrailers().get(ErrorMapping.ERROR_CODE));
            StatusRuntimeException noCapture = assertThrows(StatusRuntimeException.class, () -> w.exec(
                    "CALL dbms_capture_adm.start_capture(capture_name => 'ghost')"));
            assertTrue(noCapture.getStatus().getDescription().contains("ghost"));
            StatusRuntimeException badParam = assertThrows(StatusRuntimeException.class, () -> w.exec(
                    "CALL dbms_capture_adm.start_capture(capture => 'c')"));
            assertTrue(badParam.getStatus().getDescription().contains("capture_name"), badParam.getStatus().getDescription());
            StatusRuntimeException badRule = assertThrows(StatusRuntimeException.class, () -> w.exec(
                    "CALL dbms_rule_adm.create_rule(rule_name => 'r1', condition => ':dml.get_object_owner( = ''HR''')"));
            assertEquals("INVALID_REQUEST", badRule.getTrailers().get(ErrorMapping.ERROR_CODE));
            w.exec("CALL dbms_capture_adm.create_capture(queue_name => 'q', capture_name => 'c')");
            w.exec("CALL dbms_capture_adm.drop_capture(capture_name => 'c')");
            assertEquals(0, w.exec("SELECT * FROM system_views.capture").getRowsCount());
        }
    }

    @Test
    @DisplayName("CAP-SCN-10 CAP-INST-1: the first SCN is only raised and carries the start SCN up; adding rules prepares the objects")
    void alterCaptureAndInstantiation(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'c', queue_name => 'q')");
            ExecuteResponse prepared = w.exec("SELECT object, scn FROM system_views.prepared_tables");
            assertEquals("ks.t", prepared.getRows(0).getValues(0).getText());
            ExecuteResponse scns = w.exec("SELECT first_scn, start_scn FROM system_views.capture WHERE capture_name = 'c'");
            long first = scns.getRows(0).getValues(0).getInteger();
            StatusRuntimeException lower = assertThrows(StatusRuntimeException.class, () -> w.exec(
                    "CALL dbms_capture_adm.alter_capture(capture_name => 'c', first_scn => " + (first - 1) + ")"));
            assertTrue(lower.getStatus().getDescription().contains("can only be raised"), lower.getStatus().getDescription());
            // Figure 2-4: a start SCN above the new first SCN stays; Figure 2-5: below it, it moves up
            w.exec("CALL dbms_capture_adm.alter_capture(capture_name => 'c', start_scn => " + (first + 100) + ")");
            w.exec("CALL dbms_capture_adm.alter_capture(capture_name => 'c', first_scn => " + (first + 10) + ")");
            scns = w.exec("SELECT first_scn, start_scn FROM system_views.capture WHERE capture_name = 'c'");
            assertEquals(first + 10, scns.getRows(0).getValues(0).getInteger());
            assertEquals(first + 100, scns.getRows(0).getValues(1).getInteger());
            w.exec("CALL dbms_capture_adm.alter_capture(capture_name => 'c', first_scn => " + (first + 200) + ")");
            scns = w.exec("SELECT first_scn, start_scn FROM system_views.capture WHERE capture_name = 'c'");
            assertEquals(first + 200, scns.getRows(0).getValues(1).getInteger());
            w.exec("CALL dbms_capture_adm.prepare_schema_instantiation(schema_name => 'ks')");
            assertEquals(2, w.exec("SELECT * FROM system_views.prepared_tables").getRowsCount());
        }
    }
    @Test
    @DisplayName("CAP-SCN-4: an instantiation SCN below the object's prepare SCN (its own, or its schema's) is refused, naming "
            + "both SCNs, since changes before the prepare SCN cannot be applied; at the prepare SCN it is taken")
    void instantiationBelowPrepareScn(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            w.exec("CREATE TABLE ks.u (id int PRIMARY KEY, v int)");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'c', queue_name => 'q')");
            long prepared = ((Number) w.scalar("SELECT scn FROM system_views.prepared_tables WHERE object = 'ks.t'")).longValue();
            StatusRuntimeException below = assertThrows(StatusRuntimeException.class, () -> w.exec(
                    "CALL dbms_apply_adm.set_table_instantiation_scn(source_object_name => 'ks.t', instantiation_scn => "
                            + (prepared - 1) + ")"));
            assertTrue(below.getStatus().getDescription().contains("instantiation SCN " + (prepared - 1) + " of ks.t is below its "
                    + "prepare SCN " + prepared), below.getStatus().getDescription());
            assertEquals(0, w.exec("SELECT * FROM system_views.apply_instantiated_objects").getRowsCount(), "nothing was set");
            w.exec("CALL dbms_apply_adm.set_table_instantiation_scn(source_object_name => 'ks.t', instantiation_scn => "
                    + prepared + ")");
            assertEquals(prepared, w.scalar("SELECT instantiation_scn FROM system_views.apply_instantiated_objects"));

            // ks.u has no prepare of its own: its schema's covers it
            w.exec("CALL dbms_capture_adm.prepare_schema_instantiation(schema_name => 'ks')");
            long schema = ((Number) w.scalar("SELECT scn FROM system_views.prepared_tables WHERE object = 'ks.*'")).longValue();
            StatusRuntimeException viaSchema = assertThrows(StatusRuntimeException.class, () -> w.exec(
                    "CALL dbms_apply_adm.set_table_instantiation_scn(source_object_name => 'ks.u', instantiation_scn => "
                            + (schema - 1) + ")"));
            assertTrue(viaSchema.getStatus().getDescription().contains("is below its prepare SCN " + schema),
                    viaSchema.getStatus().getDescription());
            StatusRuntimeException schemaBelow = assertThrows(StatusRuntimeException.class, () -> w.exec(
                    "CALL dbms_apply_adm.set_schema_instantiation_scn(source_schema_name => 'ks', instantiation_scn => "
                            + (schema - 1) + ")"));
            assertTrue(schemaBelow.getStatus().getDescription().contains("set_schema_instantiation_scn"),
                    schemaBelow.getStatus().getDescription());
        }
    }
}
