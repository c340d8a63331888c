package dev.tributary.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.CdcOperation;
import dev.tributary.capture.log.LogCodec;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.capture.redo.RedoCodec;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.RowOperation;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.storage.StoredRow;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RocksDbBaselineTest {
    @TempDir
    Path dir;

    private static RocksDbBaseline.Spec spec(long rows, int batch, Durability d, boolean updates) {
        return new RocksDbBaseline.Spec(rows, 0, 40, batch, d, updates, 16, "tributary", "bench", "capture_t");
    }

    @Test
    void insertsWriteOneBaseRowAndOneLogEntryPerRowAndOneRedoRecordPerBatch() {
        RocksDbBaseline.Result r = new RocksDbBaseline(spec(1050, 100, Durability.BATCH, false)).run(dir);
        assertEquals(1050, r.rows());
        assertEquals(11, r.transactions(), "10 full batches and one of 50");
        assertTrue(r.rowsPerSecond() > 0);
        StoreFootprint f = StoreFootprint.scan(dir.resolve("rocksdb"));
        assertEquals(1050, f.rowsKeys());
        assertEquals(11, f.redoKeys());
        assertEquals(1050, f.cdcLogKeys());
        try (NodeStore store = NodeStore.open(dir.resolve("rocksdb")); dev.tributary.node.storage.StoreIterator it = store.iterator(NodeStore.Family.REDO)) {
            it.seekToFirst();
            RedoEntry first = RedoCodec.decode(it.value());
            assertEquals(100, first.rows().size(), "one redo record holds the whole batch");
            assertEquals(RowOperation.INSERT, first.rows().get(0).operation());
        }
    }

    @Test
    void logEntriesAreTheNodesFormatNumberedWithinStreamAndTransaction() {
        new RocksDbBaseline(spec(300, 100, Durability.PERIODIC, false)).run(dir);
        Set<Long> rows = new HashSet<>();
        int endsOfBatch = 0;
        try (NodeStore store = NodeStore.open(dir.resolve("rocksdb"));
                dev.tributary.node.storage.StoreIterator it = store.iterator(NodeStore.Family.CDC_LOG)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                LogRecord rec = LogCodec.decodeBody(RocksDbBaseline.OBJECT_NUMBER, null, it.value());
                RowLcr lcr = (RowLcr) rec.lcr();
                assertEquals(CdcOperation.INSERT, rec.operation());
                assertEquals("capture_t", lcr.objectName());
                assertNull(lcr.oldValues());
                LcrColumn pk = RowLcr.find(lcr.newValues(), "pk");
                rows.add((Long) pk.value());
                assertEquals(40, ((Blob) RowLcr.find(lcr.newValues(), "v").value()).length());
                endsOfBatch += rec.endOfBatch() ? 1 : 0;
            }
            byte[] row0 = null;
            try (dev.tributary.node.storage.StoreIterator r = store.iterator(NodeStore.Family.ROWS)) {
                r.seekToFirst();
                row0 = r.value();
            }
            assertEquals(2, StoredRow.decode(row0).cells().size(), "bucket and v");
        }
        assertEquals(300, rows.size());
        // each transaction ends its batch once in every stream it wrote to: at least one, at most 16 streams
        assertTrue(endsOfBatch >= 3 && endsOfBatch <= 3 * 16, "ends of batch: " + endsOfBatch);
    }

    @Test
    void updatesPreloadThenReadAndUpdateEveryRowOnce() {
        RocksDbBaseline.Result r = new RocksDbBaseline(spec(500, 50, Durability.BATCH, true)).run(dir);
        assertEquals(500, r.rows());
        assertEquals(10, r.transactions(), "the timed phase only");
        StoreFootprint f = StoreFootprint.scan(dir.resolve("rocksdb"));
        assertEquals(500, f.rowsKeys());
        assertEquals(20, f.redoKeys(), "preload and update batches");
        assertEquals(1000, f.cdcLogKeys(), "an INSERT and an UPDATE LCR per row");
        int updates = 0;
        try (NodeStore store = NodeStore.open(dir.resolve("rocksdb"));
                dev.tributary.node.storage.StoreIterator it = store.iterator(NodeStore.Family.CDC_LOG)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                RowLcr lcr = (RowLcr) LogCodec.decodeBody(RocksDbBaseline.OBJECT_NUMBER, null, it.value()).lcr();
                if (lcr.commandType().equals(RowLcr.UPDATE)) {
                    updates++;
                    long pk = (Long) RowLcr.find(lcr.newValues(), "pk").value();
                    assertEquals(Blob.of(BenchRows.payload(pk, 0, 40)), RowLcr.find(lcr.oldValues(), "v").value());
                    assertEquals(Blob.of(BenchRows.payload(pk, 1, 40)), RowLcr.find(lcr.newValues(), "v").value());
                }
            }
        }
        assertEquals(500, updates);
    }

    @Test
    void warmUpRowsAreWrittenFirstWithOtherKeysAndNotTimed() {
        RocksDbBaseline.Spec s = new RocksDbBaseline.Spec(400, 250, 40, 100, Durability.PERIODIC, false, 16, "tributary",
                "bench", "capture_t");
        RocksDbBaseline.Result r = new RocksDbBaseline(s).run(dir);
        assertEquals(400, r.rows());
        assertEquals(4, r.transactions());
        StoreFootprint f = StoreFootprint.scan(dir.resolve("rocksdb"));
        assertEquals(650, f.rowsKeys());
        assertEquals(7, f.redoKeys(), "3 warm-up batches (100, 100, 50) and 4 timed ones");
        assertEquals(650, f.cdcLogKeys());
    }

    @Test
    void streamsFollowTheVnodeRing() {
        RocksDbBaseline b = new RocksDbBaseline(spec(1, 1, Durability.PERIODIC, false));
        assertEquals(b.streamFor(Long.MIN_VALUE), b.streamFor(Long.MAX_VALUE), "tokens past the last vnode wrap to the first");
        Set<Object> seen = new HashSet<>();
        for (long t = Long.MIN_VALUE; t < Long.MAX_VALUE - (1L << 58); t += 1L << 58) {
            seen.add(b.streamFor(t));
        }
        assertTrue(seen.size() > 8, "tokens spread over the 16 vnodes' streams: " + seen.size());
    }
}
