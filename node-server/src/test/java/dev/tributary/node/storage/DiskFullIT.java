package dev.tributary.node.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.WriteRejectedException;
import dev.tributary.node.TestNodes;
import dev.tributary.node.kit.History;
import dev.tributary.node.TributaryNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
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
            // key sets through a history: DISK_FULL is a definite refusal (the row, its redo and its
            // log entry are one RocksDB batch), so a refused key must never become visible
            History h = new History();
            WriteRejectedException full = null;
            for (int pk = 0; pk < 20_000 && full == null; pk++) {
                h.invoke(0, pk);
                try {
                    c.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", pk, VALUE);
                    h.ok(pk);
                } catch (WriteRejectedException e) {
                    full = e;
                    assertEquals(History.Outcome.FAIL, h.failed(pk, e), "DISK_FULL is a definite refusal");
                }
            }
            assertTrue(full != null, "the disk filled up after " + h.ok().size() + " writes");
            assertEquals("DISK_FULL", full.code(), full.getMessage());
            assertTrue(full.getMessage().contains("Max allowed space was reached"), full.getMessage());
            h.verifyRead("reads while the disk is full", History.keys(c, "SELECT pk FROM ks.t"), Set.of());

            c.execute("ALTER SYSTEM SET max_disk_bytes = '0'");
            int[] attempt = {90_000};
            // RocksDB takes writes again once it sees the room (it checks in the background); every
            // attempt a fresh key, so the refused ones can be checked absent
            TestNodes.await(() -> {
                int pk = attempt[0]++;
                h.invoke(0, pk);
                try {
                    c.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", pk, "back");
                    h.ok(pk);
                    return true;
                } catch (WriteRejectedException e) {
                    h.failed(pk, e);
                    return false;
                }
            }, Duration.ofSeconds(60), "writes to resume");
            for (int pk = 100_000; pk < 100_050; pk++) {
                h.invoke(0, pk);
                c.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", pk, "after");
                h.ok(pk);
            }
            TestNodes.await(() -> logged(c).containsAll(h.ok()), Duration.ofSeconds(60),
                    () -> "the CDC log to hold every acknowledged write; missing "
                            + h.ok().stream().filter(pk -> !logged(c).contains(pk)).limit(20).toList());
            h.verifyRead("the table", History.keys(c, "SELECT pk FROM ks.t"), Set.of());
            h.verifyRead("the CDC log", History.keys(c, "SELECT pk FROM ks.t_scylla_cdc_log"), Set.of());
            h.verifyUnknownAtMost(0);
            System.out.println("DiskFullIT: " + h.summary());
        }
    }

    private static Set<Integer> logged(TributaryClient c) {
        return new HashSet<>(History.keys(c, "SELECT pk FROM ks.t_scylla_cdc_log"));
    }
}
