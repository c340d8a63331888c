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

    /** One acknowledged write: its number in the sequence, its key, and the value only it wrote. */
    record Write(int number, int pk, String value) {
    }

    /**
     * The writes of a run of {@code n}: the first two thirds each insert a new key, then new keys
     * and overwrites of early keys alternate, so a lost tail takes both; each value names its key
     * and write number (padded to 500 characters, as the WAL's arithmetic below assumes), so a row
     * holding another write's value, or one written twice, is told apart from the right one.
     */
    static java.util.List<Write> writes(int n) {
        java.util.List<Write> out = new java.util.ArrayList<>();
        int fresh = n * 2 / 3;
        for (int w = 0; w < n; w++) {
            int pk = w < fresh || w % 2 == 0 ? w : (w - fresh) / 2;
            String head = "pk=" + pk + " write=" + w + " ";
            out.add(new Write(w, pk, head + "v".repeat(500 - head.length())));
        }
        return out;
    }

    /** Starts a node, makes ks.t with CDC and runs {@link #writes}{@code (n)} (each acknowledged, WAL synced), then stops it. */
    private static java.util.List<Write> writeAndStop(Path data, int zk, int n, String... more) throws Exception {
        String[] args = new String[more.length + 2];
        args[0] = "--zookeeper";
        args[1] = "embedded:" + zk;
        System.arraycopy(more, 0, args, 2, more.length);
        java.util.List<Write> writes = writes(n);
        try (TributaryNode node = TestNodes.startOperating(data, args);
                TributaryClient c = TributaryClient.builder().endpoints(node.endpoint()).build()) {
            c.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            c.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
            for (Write w : writes) {
                c.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", w.pk(), w.value());
            }
        }
        return writes;
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

    /** pk → v of the table, failing on a key read twice. */
    private static java.util.Map<Integer, String> rows(TributaryClient c) {
        java.util.Map<Integer, String> out = new java.util.TreeMap<>();
        for (Row r : c.execute("SELECT pk, v FROM ks.t").all()) {
            String before = out.put(r.getInt("pk"), r.getString("v"));
            assertTrue(before == null, "pk " + r.getInt("pk") + " read twice");
        }
        return out;
    }

    /** The (pk, v) of every change in the CDC log, sorted: a multiset, so a change logged twice shows. */
    private static java.util.List<String> loggedChanges(TributaryClient c) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (Row r : c.execute("SELECT pk, v FROM ks.t_scylla_cdc_log").all()) {
            out.add(r.getInt("pk") + ":" + r.getString("v"));
        }
        java.util.Collections.sort(out);
        return out;
    }

    private static java.util.List<String> changes(java.util.List<Write> writes) {
        java.util.List<String> out = new java.util.ArrayList<>();
        writes.forEach(w -> out.add(w.pk() + ":" + w.value()));
        java.util.Collections.sort(out);
        return out;
    }

    /** The table after the first {@code j} writes: each key holds the value of the last of them to write it. */
    private static java.util.Map<Integer, String> stateAfter(java.util.List<Write> writes, int j) {
        java.util.Map<Integer, String> out = new java.util.TreeMap<>();
        writes.subList(0, j).forEach(w -> out.put(w.pk(), w.value()));
        return out;
    }

    /**
     * After a recovery: the table is exactly what the first k acknowledged writes made, for some
     * k — every row holds, value for value, the last of those writes to its key; a key is absent
     * only when no write before the cut made it — and the CDC log holds exactly those k writes'
     * changes, each once. Returns k.
     */
    private static int assertConsistentPrefix(TributaryClient c, java.util.List<Write> writes) {
        java.util.Map<Integer, String> table = rows(c);
        int k = -1;
        for (int j = writes.size(); j >= 0 && k < 0; j--) {
            if (stateAfter(writes, j).equals(table)) {
                k = j;
            }
        }
        if (k < 0) {
            // what is wrong first: a value no write gave its key; then keys holding an older write's value
            java.util.List<String> wrong = new java.util.ArrayList<>();
            java.util.List<Integer> older = new java.util.ArrayList<>();
            java.util.Map<Integer, String> all = stateAfter(writes, writes.size());
            table.forEach((pk, v) -> {
                if (writes.stream().noneMatch(w -> w.pk() == pk && w.value().equals(v))) {
                    wrong.add("pk " + pk + " holds a value no write gave it: " + v.substring(0, Math.min(40, v.length())));
                } else if (!v.equals(all.get(pk))) {
                    older.add(pk);
                }
            });
            throw new AssertionError("the table is the state after no prefix of the " + writes.size() + " writes ("
                    + table.size() + " rows): " + wrong.subList(0, Math.min(10, wrong.size())) + "; keys holding an "
                    + "overwritten value: " + older.subList(0, Math.min(20, older.size())));
        }
        java.util.List<String> expected = changes(writes.subList(0, k));
        int prefix = k;
        TestNodes.await(() -> loggedChanges(c).equals(expected), Duration.ofSeconds(30),
                () -> "the CDC log to hold exactly the changes of the first " + prefix + " writes: " + loggedChanges(c).size()
                        + " logged");
        return k;
    }

    @Test
    @DisplayName("S3: the WAL cut short: the node starts with a consistent prefix of the writes — every row holds the value of the last acknowledged write to it before the cut, value for value, or is absent if none; the CDC log holds exactly those writes")
    void truncatedWalTail(@TempDir Path dir) throws Exception {
        int zk = TestNodes.freePort();
        Path data = dir.resolve("n1");
        java.util.List<Write> writes = writeAndStop(data, zk, 200);
        Path wal = newest(data.resolve("rocksdb"), ".log");
        try (FileChannel ch = FileChannel.open(wal, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() * 9 / 10); // the last tenth: a few dozen writes, cut mid-record
        }
        try (TributaryNode n = restart(data, zk); TributaryClient c = TributaryClient.builder().endpoints(n.endpoint()).build()) {
            int k = assertConsistentPrefix(c, writes);
            assertTrue(k < 200, "the cut took the last writes");
            assertTrue(k > 2 * 200 / 3, "the cut reached into the overwrites, where a lost write leaves an older value: " + k);
            c.execute("INSERT INTO ks.t (pk, v) VALUES (1000, 'after')");
            assertEquals("after", c.execute("SELECT v FROM ks.t WHERE pk = 1000").one().getString("v"));
        }
    }

    @Test
    @DisplayName("S3: a flipped byte near the WAL's tail: the node recovers up to the damaged record, a consistent prefix value for value, never a damaged or older value where a later write before the damage stood")
    void flippedWalByte(@TempDir Path dir) throws Exception {
        int zk = TestNodes.freePort();
        Path data = dir.resolve("n1");
        java.util.List<Write> writes = writeAndStop(data, zk, 200);
        Path wal = newest(data.resolve("rocksdb"), ".log");
        byte[] b = Files.readAllBytes(wal);
        b[b.length * 9 / 10] ^= 0x20; // in a record of the last tenth's writes
        Files.write(wal, b);
        try (TributaryNode n = restart(data, zk); TributaryClient c = TributaryClient.builder().endpoints(n.endpoint()).build()) {
            int k = assertConsistentPrefix(c, writes);
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
