package dev.tributary.node.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Log switches by size and purging of archived redo, on a real store. */
class RedoSegmentsTest {
    @TempDir
    Path dir;
    private NodeStore store;

    @BeforeEach
    void open() {
        store = NodeStore.open(dir);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void redo(long from, long to, int bytes) {
        for (long scn = from; scn <= to; scn++) {
            store.put(NodeStore.Family.REDO, Keys.scn(scn), new byte[bytes], false);
        }
    }

    @Test
    @DisplayName("CAP-LOG-1: the online log switches at its size; purging deletes only archived logs at or below the required SCN")
    void switchAndPurge() {
        RocksDbRedoLog redo = new RocksDbRedoLog(store);
        RedoSegments segments = new RedoSegments(store, redo, 1, 4096);
        redo(1, 10, 100);
        segments.switchIfFull();
        assertEquals(1, segments.segments().size(), "1 KB is below the size");
        redo(11, 50, 100);
        segments.switchIfFull();
        List<RedoSegments.Segment> s = segments.segments();
        assertEquals(2, s.size());
        assertEquals(1, s.get(0).firstScn());
        assertEquals(51, s.get(0).nextScn());
        assertEquals(51, s.get(1).firstScn());
        assertFalse(s.get(1).archived());
        redo(51, 100, 100);
        segments.switchIfFull();
        assertEquals(3, segments.segments().size());

        assertEquals(List.of(), segments.purgeThrough(49, -1), "the first log still holds SCN 50");
        assertEquals(1, segments.purgeThrough(50, -1).size());
        assertFalse(segments.available(10));
        assertTrue(segments.available(51));
        try (var it = store.iterator(NodeStore.Family.REDO)) {
            it.seekToFirst();
            assertEquals(51, Keys.scnOf(it.key()), "the purged log's redo is deleted");
        }
        RedoSegments reopened = new RedoSegments(store, redo, 1, 4096);
        assertEquals(segments.segments(), reopened.segments(), "segments are durable");
    }
    @Test
    @DisplayName("CAP-DS-1 CAP-DS-8: archive_lag_target makes the online log due once its oldest change is that old, and an online "
            + "log holding no change once it has been open that long; 0 never")
    void archiveLag() {
        RocksDbRedoLog redo = new RocksDbRedoLog(store);
        RedoSegments segments = new RedoSegments(store, redo, 1, 1 << 20);
        long t0 = 1_700_000_000_000L;
        long change = t0 << dev.tributary.capture.Scns.LOGICAL_BITS;
        store.put(NodeStore.Family.REDO, Keys.scn(change), new byte[10], false);
        dev.tributary.capture.ArchiveLagTarget target = dev.tributary.capture.ArchiveLagTarget.parse("30");
        // the first log was opened at SCN 1, long ago: its oldest change is what counts
        assertFalse(segments.lagSwitchDue(target, t0 + 29_999));
        assertTrue(segments.lagSwitchDue(target, t0 + 30_000));
        assertFalse(segments.lagSwitchDue(dev.tributary.capture.ArchiveLagTarget.OFF, t0 + 3_600_000));

        segments.switchLogfile(); // the next log opens just after the change, and nothing is written to it
        assertFalse(segments.lagSwitchDue(target, t0 + 29_999));
        assertTrue(segments.lagSwitchDue(target, t0 + 30_000), "a quiet thread's empty log is switched too");
    }
}
