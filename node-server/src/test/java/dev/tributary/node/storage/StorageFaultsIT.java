package dev.tributary.node.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.Row;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.ServerErrorException;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY S3: a node whose files were damaged while it was down recovers a consistent prefix
 * of what it had, or refuses with a CORRUPTION error naming the file; it never serves wrong data.
 */
@Timeout(180)
class StorageFaultsIT {
    private static final Duration RING_DELAY = Duration.ofMillis(300);

    /** Starts a node, makes ks.t with CDC and writes pk 0..n-1 (each acknowledged, WAL synced), then stops it. */
    private static void writeAndStop(Path data, int zk, int n, String... more) throws Exception {
        String[] args = new String[more.length + 2];
        args[0] = "--zookeeper";
        args[1] = "embedded:" + zk;
        System.arraycopy(more, 0, args, 2, more.length);
        try (TributaryNode node = TestNodes.startOperating(data, args);
                TributaryClient c = TributaryClient.builder().endpoints(node.endpoint()).build()) {
            c.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            c.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
            String v = "v".repeat(500);
            for (int i = 0; i < n; i++) {
                c.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, v);
            }
        }
    }

    private static TributaryNode restart(Path data, int zk) {
        return TributaryNode.start(TestNodes.config(data, RING_DELAY, "--zookeeper", "embedded:" + zk));
    }

    private static Path newest(Path dir, String suffix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix))
                    .max(Comparator.comparing(p -> p.getFileName().toString())).orElseThrow();
        }
    }

    /** The largest SST file of a column family, by RocksDB's own account of its live files. */
    private static String largestSstOf(Path db, String columnFamily) throws org.rocksdb.RocksDBException {
        java.util.List<org.rocksdb.ColumnFamilyDescriptor> cfs = new java.util.ArrayList<>();
        try (org.rocksdb.Options o = new org.rocksdb.Options()) {
            for (byte[] name : org.rocksdb.RocksDB.listColumnFamilies(o, db.toString())) {
                cfs.add(new org.rocksdb.ColumnFamilyDescriptor(name));
            }
        }
        java.util.List<org.rocksdb.ColumnFamilyHandle> handles = new java.util.ArrayList<>();
        try (org.rocksdb.DBOptions o = new org.rocksdb.DBOptions();
                org.rocksdb.RocksDB rocks = org.rocksdb.RocksDB.openReadOnly(o, db.toString(), cfs, handles)) {
            String file = rocks.getLiveFilesMetaData().stream()
                    .filter(f -> new String(f.columnFamilyName(), java.nio.charset.StandardCharsets.UTF_8).equals(columnFamily))
                    .max(Comparator.comparingLong(org.rocksdb.LiveFileMetaData::size)).orElseThrow().fileName();
            handles.forEach(org.rocksdb.ColumnFamilyHandle::close);
            return file.startsWith("/") ? file.substring(1) : file;
        }
    }

    private static Set<Integer> pks(TributaryClient c, String table) {
        Set<Integer> out = new TreeSet<>();
        for (Row r : c.execute("SELECT pk FROM " + table).all()) {
            out.add(r.getInt("pk"));
        }
        return out;
    }

    /** After a recovery: the rows are pk 0..k-1 for some k, and the CDC log holds exactly those. */
    private static int assertConsistentPrefix(TributaryClient c, int written) {
        Set<Integer> rows = pks(c, "ks.t");
        int k = rows.size();
        for (int i = 0; i < k; i++) {
            assertTrue(rows.contains(i), "a prefix of the writes: " + i + " missing of " + rows);
        }
        assertTrue(k <= written);
        TestNodes.await(() -> pks(c, "ks.t_scylla_cdc_log").equals(rows), Duration.ofSeconds(30),
                () -> "the CDC log to hold exactly the recovered rows: " + pks(c, "ks.t_scylla_cdc_log").size() + " vs " + k);
        return k;
    }

    @Test
    @DisplayName("S3: the WAL cut short: the node starts with a consistent prefix — rows, redo and CDC log agree")
    void truncatedWalTail(@TempDir Path dir) throws Exception {
        int zk = TestNodes.freePort();
        Path data = dir.resolve("n1");
        writeAndStop(data, zk, 200);
        Path wal = newest(data.resolve("rocksdb"), ".log");
        try (FileChannel ch = FileChannel.open(wal, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() * 9 / 10); // the last tenth: a few dozen writes, cut mid-record
        }
        try (TributaryNode n = restart(data, zk); TributaryClient c = TributaryClient.builder().endpoints(n.endpoint()).build()) {
            int k = assertConsistentPrefix(c, 200);
            assertTrue(k < 200, "the cut took the last writes");
            c.execute("INSERT INTO ks.t (pk, v) VALUES (1000, 'after')");
            assertEquals("after", c.execute("SELECT v FROM ks.t WHERE pk = 1000").one().getString("v"));
        }
    }

    @Test
    @DisplayName("S3: a flipped byte near the WAL's tail: the node recovers up to the damaged record, consistently")
    void flippedWalByte(@TempDir Path dir) throws Exception {
        int zk = TestNodes.freePort();
        Path data = dir.resolve("n1");
        writeAndStop(data, zk, 200);
        Path wal = newest(data.resolve("rocksdb"), ".log");
        byte[] b = Files.readAllBytes(wal);
        b[b.length * 9 / 10] ^= 0x20; // in a record of the last tenth's writes
        Files.write(wal, b);
        try (TributaryNode n = restart(data, zk); TributaryClient c = TributaryClient.builder().endpoints(n.endpoint()).build()) {
            int k = assertConsistentPrefix(c, 200);
            assertTrue(k < 200, "the damaged record and what followed it are not replayed");
        }
    }

    @Test
    @DisplayName("S3: a damaged SST block: reads that reach it fail with CORRUPTION naming the file, never a partial "
            + "answer; the node stays up")
    void damagedSstBlock(@TempDir Path dir) throws Exception {
        int zk = TestNodes.freePort();
        Path data = dir.resolve("n1");
        // small memtables, so the rows are flushed into SST files
        writeAndStop(data, zk, 2000, "--memtable-bytes", Long.toString(64L << 10));
        Path sst = data.resolve("rocksdb").resolve(largestSstOf(data.resolve("rocksdb"), NodeStore.Family.ROWS.cfName()));
        byte[] b = Files.readAllBytes(sst);
        for (int i = b.length / 4; i < b.length / 4 + 64; i++) {
            b[i] ^= 0x55; // inside a data block, well before the index and footer
        }
        Files.write(sst, b);
        try (TributaryNode n = restart(data, zk); TributaryClient c = TributaryClient.builder().endpoints(n.endpoint()).build()) {
            String file = sst.getFileName().toString();
            ServerErrorException e = assertThrows(ServerErrorException.class, () -> pks(c, "ks.t"));
            assertEquals("CORRUPTION", e.code(), e.getMessage());
            assertTrue(e.getMessage().contains(file), "names " + file + ": " + e.getMessage());
            // the node stays up and serves what does not touch the block; writes go on unless a compaction met the
            // block first, after which RocksDB refuses every write rather than carry the damage on: then they fail the
            // same way, naming the file
            assertEquals(1L, c.execute("SELECT count(*) FROM system.local").one().getLong(0));
            try {
                c.execute("INSERT INTO ks.t (pk, v) VALUES (100000, 'after')");
            } catch (ServerErrorException w) {
                assertEquals("CORRUPTION", w.code(), w.getMessage());
                assertTrue(w.getMessage().contains(file), "names " + file + ": " + w.getMessage());
            }
        }
    }
}
