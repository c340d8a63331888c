package dev.tributary.node.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.progress.RunningOperations;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Value;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** system_views.operations shows long operations with done/total, rate and ETA, while they run and after. */
@Timeout(300)
class OperationsViewIT {
    private static final String COLUMNS = "host_id, kind, target, state, unit, done, total, percent, rate_per_second, eta_seconds, started";

    @TempDir
    Path tmp;

    @Test
    void instantiateTableListsItsCopyWithEveryRowCounted() throws Exception {
        try (TributaryNode east = TestNodes.startCluster(tmp.resolve("east"), "east");
                TributaryNode west = TestNodes.startCluster(tmp.resolve("west"), "west");
                TestNodes.Wire e = new TestNodes.Wire(east); TestNodes.Wire w = new TestNodes.Wire(west)) {
            for (TestNodes.Wire x : List.of(e, w)) {
                x.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            }
            e.exec("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            e.execInBatches(300, i -> "INSERT INTO ks.t (id, v) VALUES (" + i + ", 0)");
            e.exec("DELETE FROM ks.t WHERE id = 0"); // a deleted row is not in the copy, nor in its total
            e.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', streams_name => 'cap', "
                    + "queue_name => 'q')");
            e.exec("CREATE DATABASE LINK west USING '" + west.endpoint() + "'");
            e.exec("CALL dbms_apply_adm.create_apply(queue_name => 'q', apply_name => 'to_west', apply_database_link => 'west')");
            assertEquals(0, e.exec("SELECT " + COLUMNS + " FROM system_views.operations").getRowsCount());

            e.exec("CALL dbms_streams_adm.instantiate_table(table_name => 'ks.t', apply_name => 'to_west')");

            ExecuteResponse ops = e.exec("SELECT " + COLUMNS + " FROM system_views.operations");
            assertEquals(1, ops.getRowsCount(), ops.toString());
            List<Value> op = ops.getRows(0).getValuesList();
            assertEquals(east.hostId().toString(), op.get(0).getUuid());
            assertEquals("instantiate_table", op.get(1).getText());
            assertEquals("ks.t to apply to_west", op.get(2).getText());
            assertEquals("DONE", op.get(3).getText());
            assertEquals("rows", op.get(4).getText());
            assertEquals(299, op.get(5).getInteger(), "every row copied was counted");
            assertEquals(299, op.get(6).getInteger(), "the total was the live rows of the snapshot");
            assertEquals(100.0, op.get(7).getFloat64(), 1e-9);
            assertTrue(op.get(8).getFloat64() > 0, "a rate: " + op);
            assertFalse(op.get(9).hasInteger(), "a finished operation has no ETA");
            assertTrue(op.get(10).hasTimestampMillis());
        }
    }

    @Test
    void aRunningOperationShowsHowFarItIsAndWhenItShouldEnd() throws Exception {
        try (TributaryNode node = TestNodes.startOperating(tmp.resolve("n1")); TestNodes.Wire w = new TestNodes.Wire(node);
                RunningOperations.Operation op = node.runningOperations().start("decommission", "hand-over", "entries", 1_000)) {
            op.advance(250);
            // the rate is per second of the operation's life: wait until some time has passed
            TestNodes.await(() -> op.progress().advance(0, System.nanoTime()).elapsedSeconds() > 0.05,
                    java.time.Duration.ofSeconds(5), "time to pass");
            List<Value> row = w.exec("SELECT " + COLUMNS + " FROM system_views.operations").getRows(0).getValuesList();
            assertEquals("RUNNING", row.get(3).getText());
            assertEquals(250, row.get(5).getInteger());
            assertEquals(1_000, row.get(6).getInteger());
            assertEquals(25.0, row.get(7).getFloat64(), 1e-9);
            assertTrue(row.get(8).getFloat64() > 0, row.toString());
            assertTrue(row.get(9).hasInteger(), "a running operation with a rate has an ETA: " + row);
        }
    }
}
