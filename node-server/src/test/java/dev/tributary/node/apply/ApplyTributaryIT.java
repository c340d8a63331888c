package dev.tributary.node.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apply processes into another Tributary cluster: two clusters, EAST and WEST, each capturing
 * keyspace ks and applying the other's changes through a database link. The applies write with
 * the apply tag, which the default capture rules skip, so nothing comes back.
 */
@Timeout(300)
class ApplyTributaryIT {
    @TempDir
    Path tmp;

    /** Captures ks into queue q and applies it to the cluster behind {@code endpoint} as apply {@code apply}. */
    private static void replicateTo(TestNodes.Wire w, String link, String endpoint, String apply) {
        w.exec("CALL dbms_streams_adm.add_schema_rules(schema_name => 'ks', streams_type => 'capture', streams_name => 'cap', "
                + "queue_name => 'q', include_ddl => true)");
        w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
        w.exec("CREATE DATABASE LINK " + link + " USING '" + endpoint + "'");
        w.exec("CALL dbms_apply_adm.create_apply(queue_name => 'q', apply_name => '" + apply + "', apply_database_link => '"
                + link + "')");
        long scn = ((Number) w.scalar("SELECT current_scn FROM system_views.database")).longValue();
        w.exec("CALL dbms_apply_adm.set_schema_instantiation_scn(source_schema_name => 'ks', instantiation_scn => " + scn
                + ", apply_database_link => '" + link + "')");
        w.exec("CALL dbms_apply_adm.start_apply(apply_name => '" + apply + "')");
    }

    /** Keyspace ks and table ks.t (id, v, origin) on each cluster. */
    private static void sameTable(TestNodes.Wire... clusters) {
        for (TestNodes.Wire x : clusters) {
            x.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            x.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int, origin text)");
        }
    }

    /** Writes {@code n} transactions of 1–5 changes to the keys {@code base..base+199}, and returns how many it wrote. */
    private static int write(TestNodes.Wire w, int base, String origin, int n, Random r) {
        java.util.Set<Integer> live = new java.util.TreeSet<>();
        for (int i = 0; i < n; i++) {
            StringBuilder b = new StringBuilder("BEGIN BATCH ");
            java.util.Set<Integer> touched = new java.util.HashSet<>();
            for (int j = 0, changes = 1 + r.nextInt(5); j < changes; j++) {
                int id = base + r.nextInt(200);
                if (!touched.add(id)) {
                    continue;
                }
                if (!live.contains(id)) {
                    b.append("INSERT INTO ks.t (id, v, origin) VALUES (").append(id).append(", ").append(i).append(", '")
                            .append(origin).append("'); ");
                    live.add(id);
                } else if (r.nextInt(4) == 0) {
                    b.append("DELETE FROM ks.t WHERE id = ").append(id).append("; ");
                    live.remove(id);
                } else {
                    b.append("UPDATE ks.t SET v = ").append(i).append(" WHERE id = ").append(id).append("; ");
                }
            }
            w.exec(b.append("APPLY BATCH").toString());
        }
        return n;
    }

    /** The transactions an apply committed at this cluster, as its progress row there says (0 before its first). */
    private static long applied(TestNodes.Wire w, String apply) {
        if (w.exec("SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'tributary_apply' AND table_name = "
                + "'progress'").getRowsCount() == 0) {
            return 0; // an apply makes its progress table when it first reaches the destination
        }
        var rows = w.exec("SELECT applied_transactions FROM tributary_apply.progress WHERE apply_name = '" + apply + "'")
                .getRowsList();
        return rows.isEmpty() ? 0 : rows.get(0).getValues(0).getInteger();
    }

    @Test
    @DisplayName("CAP-INST-2 CAP-PROP-1: two clusters replicate a keyspace both ways through apply processes — writes, deletes and an "
            + "ADD COLUMN — and no change echoes back (the apply tag)")
    void bothWaysWithoutEcho() throws Exception {
        try (TributaryNode east = TestNodes.startCluster(tmp.resolve("east"), "east");
                TributaryNode west = TestNodes.startCluster(tmp.resolve("west"), "west");
                TestNodes.Wire e = new TestNodes.Wire(east); TestNodes.Wire w = new TestNodes.Wire(west)) {
            sameTable(e, w);
            replicateTo(e, "west", west.endpoint(), "to_west");
            replicateTo(w, "east", east.endpoint(), "to_east");

            Random r = new Random(11);
            int eastTx = write(e, 0, "east", 150, r);
            int westTx = write(w, 1000, "west", 150, r);
            TestNodes.await(() -> applied(w, "to_west") == eastTx && applied(e, "to_east") == westTx, Duration.ofSeconds(120),
                    () -> "each side to apply the other's transactions: west applied " + applied(w, "to_west") + " of " + eastTx
                            + ", east " + applied(e, "to_east") + " of " + westTx);
            Map<Integer, String> eastRows = ApplyPostgresIT.sourceRows(e, "t", "v, origin");
            assertEquals(eastRows, ApplyPostgresIT.sourceRows(w, "t", "v, origin"));
            assertTrue(eastRows.keySet().stream().anyMatch(id -> id < 1000) && eastRows.keySet().stream().anyMatch(id -> id >= 1000));

            // DDL travels too, and a row written after it carries the new column across
            e.exec("ALTER TABLE ks.t ADD note text");
            e.exec("INSERT INTO ks.t (id, v, origin, note) VALUES (5000, 1, 'east', 'after ddl')");
            TestNodes.await(() -> applied(w, "to_west") == eastTx + 2, Duration.ofSeconds(60), () -> "the DDL and the row to reach "
                    + "west: " + e.exec("SELECT status, error_number, error_message FROM system_views.apply").getRowsList()
                    + " errors " + e.exec("SELECT * FROM system_views.apply_error").getRowsList() + " queue " + e.queueLcrs("q").size());
            assertEquals("after ddl", w.scalar("SELECT note FROM ks.t WHERE id = 5000"));

            // no echo: once each capture has scanned past everything the other's apply wrote here, neither queue holds a
            // change the other side made, and nothing more was applied anywhere
            for (TestNodes.Wire x : List.of(e, w)) {
                x.awaitCaptured("cap", ((Number) x.scalar("SELECT current_scn FROM system_views.database")).longValue());
            }
            for (String lcr : e.queueLcrs("q")) {
                assertTrue(!lcr.contains("\"west\""), "east captured west's change again: " + lcr);
            }
            for (String lcr : w.queueLcrs("q")) {
                assertTrue(!lcr.contains("\"east\"") && !lcr.contains("after ddl") && !lcr.contains("ADD note"),
                        "west captured east's change again: " + lcr);
            }
            assertEquals(westTx, applied(e, "to_east"), "east applied west's transactions once, nothing of its own came back");
            assertEquals(0, e.exec("SELECT * FROM system_views.apply_error").getRowsCount());
            assertEquals(0, w.exec("SELECT * FROM system_views.apply_error").getRowsCount());
        }
    }

    @Test
    @DisplayName("CAP-DS-1 CAP-INST-2: a downstream capture mines another cluster's shipped redo and an apply without a "
            + "database link applies it into its own cluster")
    void downstreamCaptureAppliedHere() throws Exception {
        try (TributaryNode hq = TestNodes.startCluster(tmp.resolve("hq"), "hq");
                TributaryNode dw = TestNodes.startCluster(tmp.resolve("dw"), "dw");
                TestNodes.Wire h = new TestNodes.Wire(hq); TestNodes.Wire d = new TestNodes.Wire(dw)) {
            for (TestNodes.Wire x : List.of(h, d)) {
                x.exec("CREATE KEYSPACE hr WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
                x.exec("CREATE TABLE hr.employees (id int PRIMARY KEY, name text, dept int)");
            }
            h.exec("CREATE DATABASE LINK dw USING '" + dw.endpoint() + "'");
            h.exec("ALTER SYSTEM SET log_archive_dest_2 = 'SERVICE=dw'");
            d.exec("CREATE DATABASE LINK hq USING '" + hq.endpoint() + "'");
            d.exec("CALL dbms_streams_adm.set_up_queue(queue_name => 'hq_queue')");
            d.exec("CALL dbms_capture_adm.create_capture(queue_name => 'hq_queue', capture_name => 'hq_capture', "
                    + "source_database => 'hq', use_database_link => true)");
            d.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'hr.employees', streams_type => 'capture', "
                    + "streams_name => 'hq_capture', queue_name => 'hq_queue', source_database => 'hq')");
            d.exec("CALL dbms_capture_adm.start_capture(capture_name => 'hq_capture')");
            long scn = ((Number) h.scalar("SELECT current_scn FROM system_views.database")).longValue();
            d.exec("CALL dbms_apply_adm.create_apply(queue_name => 'hq_queue', apply_name => 'from_hq')");
            d.exec("CALL dbms_apply_adm.set_table_instantiation_scn(source_object_name => 'hr.employees', "
                    + "source_database_name => 'hq', instantiation_scn => " + scn + ")");
            d.exec("CALL dbms_apply_adm.start_apply(apply_name => 'from_hq')");

            h.exec("INSERT INTO hr.employees (id, name, dept) VALUES (1, 'Ada', 50)");
            h.exec("BEGIN BATCH INSERT INTO hr.employees (id, name, dept) VALUES (2, 'Grace', 60); "
                    + "UPDATE hr.employees SET dept = 70 WHERE id = 1; APPLY BATCH");
            h.exec("INSERT INTO hr.employees (id, name, dept) VALUES (3, 'Barbara', 50)");
            h.exec("DELETE FROM hr.employees WHERE id = 3");
            h.exec("ALTER SYSTEM SWITCH LOGFILE");
            TestNodes.await(() -> applied(d, "from_hq") == 4, Duration.ofSeconds(90), () -> "the four transactions of hq applied "
                    + "at dw: " + d.exec("SELECT status, state, error_message FROM system_views.apply").getRowsList());
            Map<Integer, String> here = ApplyPostgresIT.rows(d, "hr.employees", "name, dept");
            assertEquals(ApplyPostgresIT.rows(h, "hr.employees", "name, dept"), here);
            assertEquals(Map.of(1, "Ada|70|", 2, "Grace|60|"), here);
            assertTrue(!d.exec("SELECT apply_database_link FROM system_views.apply").getRows(0).getValues(0).hasText(),
                    "no database link: this cluster");
        }
    }

    @Test
    @DisplayName("CAP-INST-2: instantiate_table creates the table in another cluster, copies it as of one SCN, and the apply "
            + "goes on from there")
    void instantiateIntoAnotherCluster() throws Exception {
        try (TributaryNode east = TestNodes.startCluster(tmp.resolve("east"), "east");
                TributaryNode west = TestNodes.startCluster(tmp.resolve("west"), "west");
                TestNodes.Wire e = new TestNodes.Wire(east); TestNodes.Wire w = new TestNodes.Wire(west)) {
            for (TestNodes.Wire x : List.of(e, w)) {
                x.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            }
            e.exec("CREATE TABLE ks.t (id int, part int, v int, origin text, PRIMARY KEY (id, part))");
            e.execInBatches(250, i -> "INSERT INTO ks.t (id, part, v, origin) VALUES (" + i + ", " + (i % 3) + ", 0, 'east')");
            e.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', streams_name => 'cap', "
                    + "queue_name => 'q')");
            e.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            e.exec("CREATE DATABASE LINK west USING '" + west.endpoint() + "'");
            e.exec("CALL dbms_apply_adm.create_apply(queue_name => 'q', apply_name => 'to_west', apply_database_link => 'west')");
            e.exec("CALL dbms_apply_adm.start_apply(apply_name => 'to_west')");
            var done = e.exec("CALL dbms_streams_adm.instantiate_table(table_name => 'ks.t', apply_name => 'to_west')");
            assertEquals(250, done.getRows(0).getValues(1).getInteger());
            e.exec("UPDATE ks.t SET v = 1 WHERE id = 7 AND part = 1");
            e.exec("DELETE FROM ks.t WHERE id = 8 AND part = 2");
            e.exec("INSERT INTO ks.t (id, part, v, origin) VALUES (1000, 0, 2, 'east')");
            TestNodes.await(() -> applied(w, "to_west") == 3, Duration.ofSeconds(60), () -> "the three changes after the copy: "
                    + e.exec("SELECT status, error_message FROM system_views.apply").getRowsList());
            assertEquals(ApplyPostgresIT.rows(e, "ks.t", "part, v, origin"), ApplyPostgresIT.rows(w, "ks.t", "part, v, origin"));
            assertEquals(Set.of("part", "id"), w.exec("SELECT column_name, kind FROM system_schema.columns WHERE keyspace_name = 'ks' "
                    + "AND table_name = 't'").getRowsList().stream().filter(r -> !r.getValues(1).getText().equals("regular"))
                    .map(r -> r.getValues(0).getText()).collect(java.util.stream.Collectors.toSet()));
        }
    }
    @Test
    @DisplayName("CAP-DDL-2 CAP-PROP-1: a TRUNCATE captured at one cluster empties the table at the other through the apply, at its point "
            + "in the stream, and the rows written after it arrive")
    void truncateIsApplied() throws Exception {
        try (TributaryNode east = TestNodes.startCluster(tmp.resolve("east"), "east");
                TributaryNode west = TestNodes.startCluster(tmp.resolve("west"), "west");
                TestNodes.Wire e = new TestNodes.Wire(east); TestNodes.Wire w = new TestNodes.Wire(west)) {
            sameTable(e, w);
            replicateTo(e, "west", west.endpoint(), "to_west");
            int tx = write(e, 0, "east", 40, new Random(3));
            e.exec("TRUNCATE ks.t");
            e.exec("INSERT INTO ks.t (id, v, origin) VALUES (500, 1, 'after')");
            TestNodes.await(() -> applied(w, "to_west") == tx + 2, Duration.ofSeconds(90), () -> "the writes, the truncate and "
                    + "the row after it applied at west: " + e.exec("SELECT status, error_number, error_message FROM "
                    + "system_views.apply").getRowsList());
            assertEquals(Map.of(500, "1|after|"), ApplyPostgresIT.rows(w, "ks.t", "v, origin"));
            assertEquals(ApplyPostgresIT.rows(e, "ks.t", "v, origin"), ApplyPostgresIT.rows(w, "ks.t", "v, origin"));
            assertEquals(0, e.exec("SELECT * FROM system_views.apply_error").getRowsCount());
        }
    }
}
