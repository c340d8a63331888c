package dev.tributary.bench;

import dev.tributary.node.storage.NodeStore;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The logical bytes (keys plus values) in the {@code rows}, {@code redo} and {@code cdc_log}
 * column families of a closed store: measured the same way on a node's store and on the
 * baseline's, it shows the two wrote the same records. Immutable.
 */
public record StoreFootprint(long rowsBytes, long redoBytes, long cdcLogBytes, long rowsKeys, long redoKeys,
        long cdcLogKeys) {

    /** Scans the store under {@code rocksdbDir} (the node's {@code <data-dir>/rocksdb}); it must not be open. */
    public static StoreFootprint scan(Path rocksdbDir) {
        try (NodeStore store = NodeStore.open(rocksdbDir)) {
            long[] rows = sum(store, NodeStore.Family.ROWS);
            long[] redo = sum(store, NodeStore.Family.REDO);
            long[] log = sum(store, NodeStore.Family.CDC_LOG);
            return new StoreFootprint(rows[0], redo[0], log[0], rows[1], redo[1], log[1]);
        }
    }

    private static long[] sum(NodeStore store, NodeStore.Family family) {
        long bytes = 0;
        long keys = 0;
        try (dev.tributary.node.storage.StoreIterator it = store.iterator(family)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                bytes += it.key().length + it.value().length;
                keys++;
            }
        }
        return new long[] {bytes, keys};
    }

    /** Bytes per measured row of each family and their total, for the report. */
    public Map<String, Object> perRow(long rows) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rows", (double) rowsBytes / rows);
        m.put("redo", (double) redoBytes / rows);
        m.put("cdc_log", (double) cdcLogBytes / rows);
        m.put("total", (double) (rowsBytes + redoBytes + cdcLogBytes) / rows);
        Map<String, Object> keys = new LinkedHashMap<>();
        keys.put("rows", rowsKeys);
        keys.put("redo", redoKeys);
        keys.put("cdc_log", cdcLogKeys);
        m.put("keys", keys);
        return m;
    }
}
