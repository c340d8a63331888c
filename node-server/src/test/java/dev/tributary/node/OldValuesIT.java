package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.NamedValue;
import dev.tributary.protocol.v1.ReadChangesRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Old values, preimages and postimages, and the LCR attributes of row and DDL LCRs. */
@Timeout(120)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OldValuesIT {
    TributaryNode node;
    TestNodes.Wire w;

    @BeforeAll
    void start(@TempDir Path dir) {
        node = TestNodes.startOperating(dir);
        w = new TestNodes.Wire(node);
        w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    void stop() {
        w.close();
        node.close();
    }

    private List<Lcr> lcrs(String table, int expected) {
        List<Lcr> out = new ArrayList<>();
        TestNodes.await(() -> {
            out.clear();
            w.changes.readChanges(ReadChangesRequest.newBuilder().setTable(table).build()).forEachRemaining(out::add);
            return out.stream().filter(l -> l.getLcr().equals("ROW")).count() >= expected;
        }, Duration.ofSeconds(20), expected + " row LCRs of " + table);
        return out.stream().filter(l -> l.getLcr().equals("ROW")).toList();
    }

    private static Map<String, Long> ints(List<NamedValue> values) {
        return values.stream().collect(Collectors.toMap(NamedValue::getName, v -> v.getValue().getInteger()));
    }

    @Test
    @DisplayName("CAP-LCR-2 CAP-LCR-3 CAP-DML-2: INSERT has new values only, upsert is an UPDATE with old values, DELETE has old values only")
    void preimageGivesOldValuesOnUpdateAndDelete() {
        w.exec("CREATE TABLE ks.p (pk int, ck int, v int, w int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true, 'preimage': true, 'postimage': true}");
        w.exec("INSERT INTO ks.p (pk, ck, v, w) VALUES (1, 1, 10, 100)");
        w.exec("UPDATE ks.p SET v = 11 WHERE pk = 1 AND ck = 1");
        w.exec("INSERT INTO ks.p (pk, ck, v) VALUES (1, 1, 12)");
        w.exec("DELETE FROM ks.p WHERE pk = 1 AND ck = 1");
        List<Lcr> rows = lcrs("ks.p", 4);
        rows = rows.stream().sorted(java.util.Comparator.comparingLong(Lcr::getScn)).toList();
        assertEquals(List.of("INSERT", "UPDATE", "UPDATE", "DELETE"), rows.stream().map(Lcr::getCommandType).toList());
        Lcr insert = rows.get(0);
        assertFalse(insert.getHasOldValues());
        assertEquals(Map.of("pk", 1L, "ck", 1L, "v", 10L, "w", 100L), ints(insert.getNewValuesList()));
        Lcr update = rows.get(1);
        assertTrue(update.getHasOldValues());
        assertEquals(Map.of("pk", 1L, "ck", 1L, "v", 10L), ints(update.getOldValuesList()));
        assertEquals(Map.of("pk", 1L, "ck", 1L, "v", 11L), ints(update.getNewValuesList()));
        Lcr upsert = rows.get(2);
        assertEquals(Map.of("pk", 1L, "ck", 1L, "v", 11L), ints(upsert.getOldValuesList()));
        Lcr delete = rows.get(3);
        assertFalse(delete.getHasNewValues());
        assertEquals(Map.of("pk", 1L, "ck", 1L, "v", 12L, "w", 100L), ints(delete.getOldValuesList()));
        for (Lcr l : rows) {
            assertEquals("ks", l.getObjectOwner());
            assertEquals("p", l.getObjectName());
            assertEquals(node.config().clusterName(), l.getSourceDatabaseName());
            assertFalse(l.getTransactionId().isEmpty());
            assertTrue(l.getScn() > 0);
        }
        // the ScyllaDB-format view: insert (2) + postimage (9); preimage (0), update (1), postimage (9) twice; preimage (0), delete (3)
        ExecuteResponse view = w.exec("SELECT \"cdc$operation\", \"cdc$batch_seq_no\", \"cdc$end_of_batch\", v FROM ks.p_scylla_cdc_log");
        List<Long> ops = view.getRowsList().stream().map(r -> r.getValues(0).getInteger()).toList();
        assertEquals(List.of(2L, 9L, 0L, 1L, 9L, 0L, 1L, 9L, 0L, 3L), ops);
        assertEquals(List.of(0L, 1L, 0L, 1L, 2L, 0L, 1L, 2L, 0L, 1L), view.getRowsList().stream().map(r -> r.getValues(1).getInteger()).toList());
        assertEquals(List.of(false, true, false, false, true, false, false, true, false, true),
                view.getRowsList().stream().map(r -> r.getValues(2).getBoolean()).toList());
    }

    @Test
    @DisplayName("CAP-LCR-7: CQL's piecewise writes — appending to a list, putting into a map, removing from a set, adding "
            + "to a counter — each give one UPDATE LCR per row, carrying the whole value before and after (no LOB WRITE, "
            + "ERASE or TRIM pieces)")
    void partialCollectionUpdatesAndCounters() {
        w.exec("CREATE TABLE ks.coll (pk int PRIMARY KEY, l list<int>, m map<text, int>, s set<int>) WITH cdc = "
                + "{'enabled': true, 'preimage': true}");
        w.exec("INSERT INTO ks.coll (pk, l, m, s) VALUES (1, [1], {'a': 1}, {1, 2})");
        w.exec("UPDATE ks.coll SET l = l + [2], m['b'] = 2, s = s - {1} WHERE pk = 1");
        List<Lcr> rows = lcrs("ks.coll", 2).stream().sorted(java.util.Comparator.comparingLong(Lcr::getScn)).toList();
        assertEquals(List.of("INSERT", "UPDATE"), rows.stream().map(Lcr::getCommandType).toList(),
                "three piecewise changes in one statement: one UPDATE LCR for the row");
        Lcr update = rows.get(1);
        Map<String, String> before = update.getOldValuesList().stream().collect(Collectors.toMap(NamedValue::getName,
                v -> v.getValue().toString().replaceAll("\\s+", " ")));
        Map<String, String> after = update.getNewValuesList().stream().collect(Collectors.toMap(NamedValue::getName,
                v -> v.getValue().toString().replaceAll("\\s+", " ")));
        assertEquals("collection { elements { integer: 1 } }", before.get("l").trim());
        assertEquals("collection { elements { integer: 1 } elements { integer: 2 } }", after.get("l").trim(), "the whole list");
        assertTrue(after.get("m").contains("text: \"a\"") && after.get("m").contains("text: \"b\""), after.get("m"));
        assertEquals("collection { elements { integer: 2 } }", after.get("s").trim(), "the whole set after the removal");

        // a counter table has no CDC log (as in ScyllaDB), but a capture process captures its redo like any table's
        w.exec("CREATE TABLE ks.cnt (pk int PRIMARY KEY, n counter)");
        w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.cnt', streams_type => 'capture', "
                + "streams_name => 'cnt_cap', queue_name => 'cnt_q')");
        w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cnt_cap')");
        w.exec("UPDATE ks.cnt SET n = n + 5 WHERE pk = 1");
        long scn = w.exec("UPDATE ks.cnt SET n = n + 3 WHERE pk = 1").getCommitScn();
        w.awaitCaptured("cnt_cap", scn);
        List<String> counted = w.queueLcrs("cnt_q");
        assertEquals(2, counted.size(), counted.toString());
        // the values the increments made, not the increments: an apply writes them as they are
        assertTrue(counted.get(0).contains("\"command_type\":\"INSERT\"") && counted.get(0).contains("\"new_values\":{\"pk\":1,\"n\":5}"),
                counted.get(0));
        assertTrue(counted.get(1).contains("\"old_values\":{\"pk\":1,\"n\":5},\"new_values\":{\"pk\":1,\"n\":8}"),
                counted.get(1));
    }

    @Test
    @DisplayName("CAP-LCR-1: one statement deleting a partition makes one DELETE LCR per row; a batch is one transaction")
    void partitionDeleteAndBatches() {
        w.exec("CREATE TABLE ks.b (pk int, ck int, v text, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
        w.exec("BEGIN BATCH INSERT INTO ks.b (pk, ck, v) VALUES (7, 1, 'a'); INSERT INTO ks.b (pk, ck, v) VALUES (7, 2, 'b'); "
                + "INSERT INTO ks.b (pk, ck, v) VALUES (7, 3, 'c'); APPLY BATCH");
        w.exec("DELETE FROM ks.b WHERE pk = 7 AND ck >= 2");
        w.exec("DELETE FROM ks.b WHERE pk = 7");
        List<Lcr> rows = lcrs("ks.b", 6);
        List<Lcr> inserts = rows.stream().filter(l -> l.getCommandType().equals("INSERT")).toList();
        assertEquals(3, inserts.size());
        assertEquals(1, inserts.stream().map(Lcr::getTransactionId).distinct().count(), "a batch is one transaction");
        assertEquals(1, inserts.stream().map(Lcr::getScn).distinct().count(), "a batch has one commit SCN");
        List<Lcr> deletes = rows.stream().filter(l -> l.getCommandType().equals("DELETE")).toList();
        assertEquals(3, deletes.size());
        assertEquals(2, deletes.stream().map(Lcr::getTransactionId).distinct().count());
        assertEquals(0, w.exec("SELECT * FROM ks.b WHERE pk = 7").getRowsCount());
    }

    @Test
    @DisplayName("CAP-LCR-5: DDL on a CDC table is captured as a DDL LCR with its text")
    void ddlLcrs() {
        w.exec("CREATE TABLE ks.d (pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
        w.exec("ALTER TABLE ks.d ADD x text");
        List<Lcr> all = new ArrayList<>();
        TestNodes.await(() -> {
            all.clear();
            w.changes.readChanges(ReadChangesRequest.newBuilder().setTable("ks.d").build()).forEachRemaining(all::add);
            return all.size() >= 2;
        }, Duration.ofSeconds(20), "two DDL LCRs");
        assertEquals(List.of("CREATE TABLE", "ALTER TABLE"), all.stream().map(Lcr::getCommandType).toList());
        Lcr alter = all.get(1);
        assertEquals("DDL", alter.getLcr());
        assertEquals("ALTER TABLE ks.d ADD x text", alter.getDdlText());
        assertEquals("TABLE", alter.getObjectType());
        assertEquals("ks", alter.getObjectOwner());
        assertEquals("d", alter.getObjectName());
        assertEquals("test", alter.getLogonUser());
        // DDL LCRs are not rows of the ScyllaDB-format log table
        assertEquals(0, w.exec("SELECT * FROM ks.d_scylla_cdc_log").getRowsCount());
    }

    @Test
    @DisplayName("CAP-T-1 CAP-DML-1: every scalar and collection type is captured with its value")
    void everyTypeIsCaptured() {
        w.exec("CREATE TABLE ks.types (k int PRIMARY KEY, a ascii, t text, ti tinyint, si smallint, bi bigint, vi varint, "
                + "de decimal, f float, d double, b boolean, ts timestamp, dt date, tm time, du duration, bl blob, u uuid, "
                + "tu timeuuid, ip inet, l list<int>, s set<text>, m map<text, int>, fr frozen<list<text>>) WITH cdc = {'enabled': true}");
        w.exec("INSERT INTO ks.types (k, a, t, ti, si, bi, vi, de, f, d, b, ts, dt, tm, du, bl, u, tu, ip, l, s, m, fr) VALUES "
                + "(1, 'asc', 'text', 1, 2, 3, 12345678901234567890, 1.25, 1.5, 2.5, true, '2020-03-25T12:44:43.006Z', "
                + "'2020-03-25', '12:00:00.000000001', 1h30m, 0xcafe, 123e4567-e89b-12d3-a456-426614174000, "
                + "d2177dd0-eaa2-11de-a572-001b779c76e3, '10.0.0.1', [3, 1, 2], {'b', 'a'}, {'x': 1}, ['f'])");
        Lcr lcr = lcrs("ks.types", 1).get(0);
        Map<String, dev.tributary.protocol.v1.Value> v = lcr.getNewValuesList().stream()
                .collect(Collectors.toMap(NamedValue::getName, NamedValue::getValue));
        assertEquals(23, v.size());
        assertEquals("asc", v.get("a").getText());
        assertEquals(3L, v.get("bi").getInteger());
        assertEquals("12345678901234567890", v.get("vi").getDecimal());
        assertEquals("1.25", v.get("de").getDecimal());
        assertEquals(1.5f, v.get("f").getFloat32());
        assertTrue(v.get("b").getBoolean());
        assertEquals(1585140283006L, v.get("ts").getTimestampMillis());
        assertEquals(1, v.get("tm").getTimeNanos() % 1000);
        assertEquals(90L * 60 * 1_000_000_000L, v.get("du").getDuration().getNanos());
        assertEquals("cafe", java.util.HexFormat.of().formatHex(v.get("bl").getBlob().toByteArray()));
        assertEquals("10.0.0.1", v.get("ip").getInet());
        assertEquals(List.of(3L, 1L, 2L), v.get("l").getCollection().getElementsList().stream().map(x -> x.getInteger()).toList());
        assertEquals(List.of("a", "b"), v.get("s").getCollection().getElementsList().stream().map(x -> x.getText()).toList());
        assertEquals(1, v.get("m").getMap().getEntriesCount());
        assertEquals("d2177dd0-eaa2-11de-a572-001b779c76e3", v.get("tu").getUuid());
    }
}
