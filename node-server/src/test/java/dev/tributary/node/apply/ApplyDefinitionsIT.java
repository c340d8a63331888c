package dev.tributary.node.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.protocol.v1.ExecuteResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Removing one of an apply's stored definitions — the apply itself, an instantiation SCN, a
 * conflict handler — removes that one only. They were deleted as key prefixes, so dropping apply
 * {@code a} also deleted apply {@code ab}'s stored definition: it was still listed until the next
 * restart, then gone. Hence the restart.
 */
@Timeout(180)
class ApplyDefinitionsIT {

    @Test
    void removingOneKeepsTheOneWhoseNameItBegins(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("n1");
        String zookeeper = "embedded:" + TestNodes.freePort();
        try (TributaryNode node = TestNodes.startOperating(data, "--zookeeper", zookeeper); TestNodes.Wire w = new TestNodes.Wire(node)) {
            for (String ks : List.of("ks", "ks2")) {
                w.exec("CREATE KEYSPACE " + ks + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            }
            w.exec("CREATE TABLE ks.t (id int PRIMARY KEY, a int, ab int)");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', streams_name => 'cap', "
                    + "queue_name => 'q')");
            long scn = ((Number) w.scalar("SELECT current_scn FROM system_views.database")).longValue();
            for (String name : List.of("a", "ab")) {
                w.exec("CALL dbms_apply_adm.create_apply(queue_name => 'q', apply_name => '" + name + "')");
                w.exec("CALL dbms_apply_adm.set_update_conflict_handler(object_name => 'ks.t', method_name => 'OVERWRITE', "
                        + "column_list => '" + name + "')");
            }
            for (String ks : List.of("ks", "ks2")) {
                w.exec("CALL dbms_apply_adm.set_schema_instantiation_scn(source_schema_name => '" + ks + "', instantiation_scn => "
                        + scn + ")");
            }
            assertEquals(List.of("a", "ab"), applies(w));

            w.exec("CALL dbms_apply_adm.drop_apply(apply_name => 'a')");
            w.exec("CALL dbms_apply_adm.set_update_conflict_handler(object_name => 'ks.t', method_name => NULL, column_list => 'a')");
            w.exec("CALL dbms_apply_adm.set_schema_instantiation_scn(source_schema_name => 'ks', instantiation_scn => NULL)");
            assertOnlyTheLongerNamesLeft(w);
        }
        try (TributaryNode node = TestNodes.startOperating(data, "--zookeeper", zookeeper); TestNodes.Wire w = new TestNodes.Wire(node)) {
            assertOnlyTheLongerNamesLeft(w);
        }
    }

    private static void assertOnlyTheLongerNamesLeft(TestNodes.Wire w) {
        assertEquals(List.of("ab"), applies(w), "applies");
        assertEquals(List.of("ab"), column(w.exec("SELECT column_name FROM system_views.apply_conflict_columns")),
                "conflict handlers' columns");
        assertEquals(List.of("ks2"), column(w.exec("SELECT source_schema FROM system_views.apply_instantiated_schemas")),
                "instantiated schemas");
    }

    private static List<String> applies(TestNodes.Wire w) {
        return column(w.exec("SELECT apply_name FROM system_views.apply"));
    }

    private static List<String> column(ExecuteResponse r) {
        List<String> out = new ArrayList<>();
        r.getRowsList().forEach(row -> out.add(row.getValues(0).getText()));
        out.sort(null);
        return out;
    }
}
