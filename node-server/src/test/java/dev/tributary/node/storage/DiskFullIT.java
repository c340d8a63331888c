package dev.tributary.node.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.Row;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.WriteRejectedException;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** RELIABILITY S1: a node whose disk is full refuses writes, serves reads, loses nothing and takes writes again. */
@Timeout(180)
class DiskFullIT {
    private static final String VALUE = "x".repeat(2048);

    @Test
    @DisplayName("S1: at --max-disk-bytes writes fail with DISK_FULL (RESOURCE_EXHAUSTED) and reads go on; raised, "
            + "writes resume, and the CDC log holds every acknowledged write once")
    void diskFull(@TempDir Path dir) throws Exception {
        try (TributaryNode n = TestNodes.startOperating(dir.resolve("n1"), "--zookeeper", "embedded:" + TestNodes.freePort(),
                "--max-disk-bytes", Long.toString(3L << 20), "--memtable-bytes", Long.toString(256L << 10));
                TributaryClient c = TributaryClient.builder().endpoints(n.endpoint()).build()) {
            c.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            c.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
            Set<Integer> acked = new HashSet<>();
            Set<Integer> failed = new HashSet<>();
            WriteRejectedException full = null;
            for (int pk = 0; pk < 20_000 && full == null; pk++) {
                try {
                    c.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", pk, VALUE);
                    acked.add(pk);
                } catch (WriteRejectedException e) {
                    full = e;
                    failed.add(pk);
                }
            }
            assertTrue(full != null, "the disk filled up after " + acked.size() + " writes");
            assertEquals("DISK_FULL", full.code(), full.getMessage());
            assertTrue(full.getMessage().contains("Max allowed space was reached"), full.getMessage());

            long rows = c.execute("SELECT count(*) FROM ks.t").one().getLong(0);
            assertTrue(rows >= acked.size() && rows <= acked.size() + failed.size(), "reads go on: " + rows + " rows, "
                    + acked.size() + " acknowledged");

            c.execute("ALTER SYSTEM SET max_disk_bytes = '0'");
            int next = 100_000;
            // RocksDB takes writes again once it sees the room (it checks in the background)
            TestNodes.await(() -> {
                try {
                    c.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", 99_999, "back");
                    return true;
                } catch (WriteRejectedException e) {
                    return false;
                }
            }, Duration.ofSeconds(60), "writes to resume");
            acked.add(99_999);
            for (int pk = next; pk < next + 50; pk++) {
                c.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", pk, "after");
                acked.add(pk);
            }
            TestNodes.await(() -> logged(c).keySet().containsAll(acked), Duration.ofSeconds(60),
                    () -> "the CDC log to hold every acknowledged write; missing "
                            + acked.stream().filter(pk -> !logged(c).containsKey(pk)).limit(20).toList());
            Map<Integer, Integer> log = logged(c);
            assertTrue(log.values().stream().allMatch(k -> k == 1), "none twice");
            Set<Integer> unknown = new HashSet<>(log.keySet());
            unknown.removeAll(acked);
            unknown.removeAll(failed);
            assertTrue(unknown.isEmpty(), "nothing logged that was never written: " + unknown);
        }
    }

    private static Map<Integer, Integer> logged(TributaryClient c) {
        Map<Integer, Integer> out = new HashMap<>();
        for (Row r : c.execute("SELECT pk FROM ks.t_scylla_cdc_log").all()) {
            out.merge(r.getInt("pk"), 1, Integer::sum);
        }
        return out;
    }
}
