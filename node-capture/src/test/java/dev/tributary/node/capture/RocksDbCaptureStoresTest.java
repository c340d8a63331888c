package dev.tributary.node.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.CdcOperation;
import dev.tributary.capture.log.LogPosition;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.capture.redo.RedoCodec;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.SessionInfo;
import dev.tributary.dictionary.io.CorruptRecordException;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.Values;
import dev.tributary.generations.StreamId;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The RocksDB adapters of capture's ports: the redo thread and the CDC logs with checkpoints. */
@Timeout(30)
class RocksDbCaptureStoresTest {
    @TempDir
    Path dir;
    private NodeStore store;

    @BeforeEach
    void open() {
        store = NodeStore.open(dir.resolve("rocksdb"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void putRedo(long scn, byte[] bytes) {
        store.put(NodeStore.Family.REDO, Keys.scn(scn), bytes, false);
    }

    private static RedoEntry entry(long scn) {
        return new RedoEntry(scn, "1." + scn, null, SessionInfo.SYSTEM, List.of(), null);
    }

    @Test
    @DisplayName("redo reads stop before a record that does not decode; a read starting at it throws")
    void redoStopsBeforeCorruptRecord() {
        RocksDbRedoLog redo = new RocksDbRedoLog(store);
        putRedo(1, RedoCodec.encode(entry(1)));
        putRedo(2, RedoCodec.encode(entry(2)));
        putRedo(3, new byte[] {99, 0});
        putRedo(4, RedoCodec.encode(entry(4)));
        assertEquals(List.of(entry(1), entry(2)), redo.readAfter(0, 10));
        assertEquals(List.of(entry(2)), redo.readAfter(1, 1));
        assertThrows(CorruptRecordException.class, () -> redo.readAfter(2, 10));
        assertEquals(List.of(entry(4)), redo.readAfter(3, 10));
        assertEquals(4, redo.lastScn());
    }

    /** The stored value of a key with one bit flipped, as a bad disk or copy leaves it. */
    private void flipBit(NodeStore.Family f, byte[] key, int at) {
        byte[] v = store.get(f, key);
        v[at % v.length] ^= 0x10;
        store.put(f, key, v, false);
    }

    @Test
    @DisplayName("a stored redo entry or log record with one flipped bit is refused as damaged, naming it, and the "
            + "records around it read on")
    void damagedRecordsAreRefused() {
        RocksDbRedoLog redo = new RocksDbRedoLog(store);
        for (long scn = 1; scn <= 3; scn++) {
            putRedo(scn, RedoCodec.encode(entry(scn)));
        }
        flipBit(NodeStore.Family.REDO, Keys.scn(2), 12);
        assertEquals(List.of(entry(1)), redo.readAfter(0, 10));
        CorruptRecordException r = assertThrows(CorruptRecordException.class, () -> redo.readAfter(1, 10));
        assertTrue(r.getMessage().contains("redo entry of SCN 2") && r.getMessage().contains("CRC32C does not match"),
                r.getMessage());
        assertEquals(List.of(entry(3)), redo.readAfter(2, 10));

        RocksDbCdcLog log = new RocksDbCdcLog(store);
        StreamId stream = new StreamId(5L, 6L);
        List<LogRecord> records = List.of(record(3, stream, 100, 0, CdcOperation.INSERT, 1),
                record(3, stream, 200, 0, CdcOperation.INSERT, 2));
        log.append("cap", records, 10);
        flipBit(NodeStore.Family.CDC_LOG, RocksDbCdcLog.key(3, records.get(1).position()), 7);
        CorruptRecordException l = assertThrows(CorruptRecordException.class, () -> log.read(3, null, 100, false));
        assertTrue(l.getMessage().contains("log record of log 3 at " + records.get(1).position() + " is damaged"),
                l.getMessage());
    }

    @Test
    void redoAwaitNewerReturnsAtOnceWhenThereIsNewerRedo() throws InterruptedException {
        RocksDbRedoLog redo = new RocksDbRedoLog(store);
        putRedo(5, RedoCodec.encode(entry(5)));
        long start = System.nanoTime();
        redo.awaitNewer(4, 10_000);
        assertEquals(true, System.nanoTime() - start < 5_000_000_000L);
    }

    private static LogRecord record(long logId, StreamId stream, long micros, int seq, CdcOperation op, int value) {
        CqlType udt = new CqlType.UserType("ks", "pair", List.of(new CqlType.Field("a", CqlType.parse("int"))), true);
        List<LcrColumn> cols = List.of(new LcrColumn("pk", CqlType.parse("int"), value),
                new LcrColumn("u", udt, Values.normalize(udt, Map.of("a", value))));
        RowLcr lcr = new RowLcr("tributary", RowLcr.INSERT, "ks", "t", new byte[] {1}, "1.a", 10, 10, null, cols, List.of());
        return new LogRecord(logId, new LogPosition(stream, TimeUuids.of(micros, 77), seq), op, seq == 1, 0, lcr,
                op == CdcOperation.POSTIMAGE ? cols : null);
    }

    @Test
    @DisplayName("the CDC log reads back in position order (streams in token order), resumes after a position, and re-appends idempotently")
    void cdcLog() {
        RocksDbCdcLog log = new RocksDbCdcLog(store);
        StreamId negative = new StreamId(-5, 1);
        StreamId positive = new StreamId(5, 1);
        List<LogRecord> records = List.of(record(3, positive, 100, 0, CdcOperation.INSERT, 1),
                record(3, positive, 100, 1, CdcOperation.POSTIMAGE, 1), record(3, negative, 200, 0, CdcOperation.INSERT, 2),
                record(3, negative, 50, 0, CdcOperation.INSERT, 3), record(4, positive, 1, 0, CdcOperation.INSERT, 4));
        log.append("cap", records, 10);
        assertEquals(10, log.checkpoint("cap"));
        assertEquals(0, log.checkpoint("other"));
        List<LogRecord> expected = new ArrayList<>(records.subList(0, 4));
        expected.sort((a, b) -> a.position().compareTo(b.position()));
        assertEquals(expected, log.read(3, null, 100, false));
        assertEquals(expected.subList(2, 4), log.read(3, expected.get(1).position(), 100, false));
        assertEquals(List.of(expected.get(0), expected.get(1)), log.read(3, null, 2, false));
        assertEquals(3, log.read(3, null, 100, true).size(), "deltas only: no postimage");
        log.append("cap", records, 12);
        assertEquals(expected, log.read(3, null, 100, false), "the same records at the same positions: no duplicates");
        assertEquals(12, log.checkpoint("cap"));
        log.drop(3);
        assertEquals(List.of(), log.read(3, null, 100, false));
        assertEquals(1, log.read(4, null, 100, false).size());
    }
}
