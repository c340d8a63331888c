package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Row;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Capture processes with positive and negative rule sets, through CALL statements on a real node. */
@Timeout(180)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CaptureRulesIT {
    TributaryNode node;
    TestNodes.Wire w;

    @BeforeAll
    void start(@TempDir Path dir) {
        node = TestNodes.startOperating(dir);
        w = new TestNodes.Wire(node);
        w.exec("CREATE KEYSPACE hr WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        w.exec("CREATE TABLE hr.employees (employee_id int PRIMARY KEY, department_id int, salary int, name text)");
        w.exec("CREATE TABLE hr.jobs (job_id int PRIMARY KEY, title text)");
        StringBuilder batch = new StringBuilder("BEGIN BATCH ");
        for (int i = 1; i <= 100; i++) {
            // departments 10, 20, ..., 100; every tenth employee is in department 50
            batch.append("INSERT INTO hr.employees (employee_id, department_id, salary, name) VALUES (").append(i).append(", ")
                    .append((i % 10 + 1) * 10).append(", 1000, 'e").append(i).append("'); ");
        }
        w.exec(batch.append("APPLY BATCH").toString());
    }

    @AfterAll
    void stop() {
        w.close();
        node.close();
    }

    private List<Row> queue(String name, int atLeast) {
        List<Row> rows = new ArrayList<>();
        TestNodes.await(() -> {
            rows.clear();
            rows.addAll(w.exec("SELECT \"lcr$command_type\", \"lcr$object_name\", lcr FROM system_queues.\"" + name + "\"").getRowsList());
            return rows.size() >= atLeast;
        }, Duration.ofSeconds(20), atLeast + " LCRs in queue " + name);
        return rows;
    }

    private void awaitCaptured(String capture) {
        w.awaitCaptured(capture, w.exec("INSERT INTO hr.jobs (job_id, title) VALUES (999, 'marker')").getCommitScn());
    }

    @Test
    @DisplayName("CAP-R-5 CAP-R-7 CAP-LCR-1 CAP-SUP-1: a subset rule keeps only the department-50 rows of one 50-row UPDATE; "
            + "a row moving into the subset is an INSERT of the whole row")
    void subsetRuleOnEmployees() {
        w.exec("CALL dbms_streams_adm.set_up_queue(queue_name => 'streams_queue')");
        ExecuteResponse made = w.exec("CALL dbms_streams_adm.add_subset_rules(table_name => 'hr.employees', "
                + "dml_condition => 'department_id = 50', streams_type => 'capture', streams_name => 'capture_hr', "
                + "queue_name => 'streams_queue')");
        assertEquals(3, made.getRowsCount(), "insert, update and delete subset rules");
        ExecuteResponse cap = w.exec("SELECT status, queue_name, rule_set_name FROM system_views.capture WHERE capture_name = 'capture_hr'");
        assertEquals("DISABLED", cap.getRows(0).getValues(0).getText(), "CAP-PARAM-1: a new capture is disabled");
        assertFalse(cap.getRows(0).getValues(2).getText().isEmpty(), "CAP-CRE-1: a rule set was created for it");
        w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'capture_hr')");
        String ids = IntStream.rangeClosed(1, 50).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        w.exec("UPDATE hr.employees SET salary = 2000 WHERE employee_id IN (" + ids + ")");
        awaitCaptured("capture_hr");
        List<Row> rows = queue("streams_queue", 5);
        // employees 4, 14, 24, 34, 44 are in department 50 (i % 10 == 4)
        assertEquals(5, rows.size(), rows.toString());
        for (Row r : rows) {
            assertEquals("UPDATE", r.getValues(0).getText());
            assertEquals("employees", r.getValues(1).getText());
            assertTrue(r.getValues(2).getText().contains("\"department_id\":50"), r.getValues(2).getText());
        }
        // moving a row into the subset is an INSERT LCR, out of it a DELETE LCR
        w.exec("UPDATE hr.employees SET department_id = 50 WHERE employee_id = 1");
        w.exec("UPDATE hr.employees SET department_id = 60 WHERE employee_id = 4");
        awaitCaptured("capture_hr");
        List<Row> all = queue("streams_queue", 7);
        List<String> commands = all.stream().map(r -> r.getValues(0).getText()).toList();
        assertEquals(7, all.size(), commands.toString());
        assertTrue(commands.contains("INSERT") && commands.contains("DELETE"), commands.toString());
        // the migrating INSERT carries the whole row (an apply creates it from that alone), not only the changed column
        String migrated = all.stream().filter(r -> r.getValues(0).getText().equals("INSERT")).findFirst().orElseThrow()
                .getValues(2).getText();
        assertTrue(migrated.contains("\"new_values\":{") && migrated.contains("\"name\":\"e1\"") && migrated.contains("\"salary\":")
                && migrated.contains("\"department_id\":50"), migrated);
        ExecuteResponse rules = w.exec("SELECT rule_name, subsetting_operation, dml_condition FROM system_views.streams_rules "
                + "WHERE streams_name = 'capture_hr' ALLOW FILTERING");
        assertEquals(3, rules.getRowsCount());
        assertTrue(w.exec("SELECT * FROM system_views.rules").getRowsCount() >= 3);
        assertTrue(w.exec("SELECT * FROM system_views.rule_sets").getRowsCount() >= 1);
        ExecuteResponse state = w.exec("SELECT state, process FROM system_views.streams_capture WHERE capture_name = 'capture_hr'");
        assertTrue(List.of("CAPTURING CHANGES", "WAITING FOR REDO", "ENQUEUING MESSAGE").contains(state.getRows(0).getValues(0).getText()));
        // seed: CAP-ARCH-1 — a stable process number c001..c999
        assertTrue(state.getRows(0).getValues(1).getText().matches("c\\d{3}"), state.getRows(0).getValues(1).getText());
    }

    @Test
    @DisplayName("CAP-R-1 CAP-R-2: a negative schema rule discards changes even when a positive table rule matches")
    void negativeSchemaRuleWins() {
        w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'hr.jobs', streams_type => 'capture', "
                + "streams_name => 'capture_neg', queue_name => 'neg_queue')");
        w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'capture_neg')");
        w.exec("INSERT INTO hr.jobs (job_id, title) VALUES (1, 'clerk')");
        awaitCaptured("capture_neg");
        assertEquals(1, queue("neg_queue", 1).stream().filter(r -> r.getValues(0).getText().equals("INSERT")
                && r.getValues(2).getText().contains("clerk")).count());
        w.exec("CALL dbms_streams_adm.add_schema_rules(schema_name => 'hr', streams_type => 'capture', "
                + "streams_name => 'capture_neg', queue_name => 'neg_queue', inclusion_rule => false)");
        w.exec("INSERT INTO hr.jobs (job_id, title) VALUES (2, 'manager')");
        awaitCaptured("capture_neg");
        List<Row> rows = w.exec("SELECT lcr FROM system_queues.neg_queue").getRowsList();
        assertTrue(rows.stream().noneMatch(r -> r.getValues(0).getText().contains("manager")), rows.toString());
        ExecuteResponse cap = w.exec("SELECT negative_rule_set_name FROM system_views.capture WHERE capture_name = 'capture_neg'");
        assertFalse(cap.getRows(0).getValues(0).getText().isEmpty());
    }

    @Test
    @DisplayName("CAP-R-3 CAP-Q-1 CAP-IGN-1 CAP-DML-4: tagged changes dropped; system keyspaces, CALLs and session statements never captured; queues coexist")
    void taggedChangesAreDropped() {
        w.exec("CALL dbms_streams_adm.add_global_rules(streams_type => 'capture', streams_name => 'capture_all', "
                + "queue_name => 'all_queue', include_tagged_lcr => false)");
        w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'capture_all')");
        ExecuteResponse tagged = w.exec("CALL dbms_streams.set_tag(tag => 0x1d)");
        assertTrue(tagged.getSession().getHasTag());
        w.exec("INSERT INTO hr.jobs (job_id, title) VALUES (10, 'tagged')");
        w.exec("CALL dbms_streams.set_tag(tag => null)");
        w.exec("INSERT INTO hr.jobs (job_id, title) VALUES (11, 'untagged')");
        awaitCaptured("capture_all");
        List<String> lcrs = w.exec("SELECT lcr FROM system_queues.all_queue").getRowsList().stream()
                .map(r -> r.getValues(0).getText()).toList();
        assertTrue(lcrs.stream().anyMatch(l -> l.contains("untagged")), lcrs.toString());
        assertTrue(lcrs.stream().noneMatch(l -> l.contains("\"tagged\"")), lcrs.toString());
        assertTrue(lcrs.stream().noneMatch(l -> l.contains("\"object_owner\":\"system")), lcrs.toString());
        // the CALLs (set_tag) and session statements made no LCRs: every LCR is a change to hr
        assertTrue(lcrs.stream().allMatch(l -> l.contains("\"object_owner\":\"hr\"")), lcrs.toString());
        // several queues, each with its own capture, coexist: this capture's LCRs are not in the others'
        List<String> other = w.exec("SELECT lcr FROM system_queues.streams_queue").getRowsList().stream()
                .map(r -> r.getValues(0).getText()).toList();
        assertTrue(other.stream().noneMatch(l -> l.contains("untagged")), other.toString());
    }

    @Test
    @DisplayName("CAP-R-6: rule-based transformations attached to a rule run on the LCRs it selects")
    void transformations() {
        ExecuteResponse made = w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'hr.employees', streams_type => 'capture', "
                + "streams_name => 'capture_tx', queue_name => 'tx_queue')");
        String rule = made.getRows(0).getValues(0).getText();
        w.exec("CALL dbms_streams_adm.rename_table(rule_name => '" + rule.replace("'", "''")
                + "', from_table_name => 'hr.employees', to_table_name => 'staff.people')");
        w.exec("CALL dbms_streams_adm.add_column(rule_name => '" + rule.replace("'", "''")
                + "', table_name => 'hr.employees', column_name => 'origin', column_value => 'tributary')");
        w.exec("CALL dbms_streams_adm.delete_column(rule_name => '" + rule.replace("'", "''")
                + "', table_name => 'hr.employees', column_name => 'salary')");
        w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'capture_tx')");
        w.exec("UPDATE hr.employees SET name = 'renamed' WHERE employee_id = 99");
        awaitCaptured("capture_tx");
        List<Row> rows = queue("tx_queue", 1);
        String lcr = rows.get(0).getValues(2).getText();
        assertEquals("people", rows.get(0).getValues(1).getText(), lcr);
        assertTrue(lcr.contains("\"object_owner\":\"staff\"") && lcr.contains("\"origin\":\"tributary\"")
                && !lcr.contains("salary"), lcr);
    }
}
