package dev.tributary.node.kit;

import dev.tributary.node.storage.NodeStore;
import java.util.Arrays;
import java.util.HexFormat;
import org.rocksdb.RocksIterator;

/**
 * Compares two replicas of one replica group key by key: rows, redo, CDC log and metadata must be
 * identical (the applied index included, once both applied the same entries).
 */
public final class ReplicaChecker {
    private ReplicaChecker() {
    }

    /** Null when the stores are identical, else the first difference. */
    public static String firstDifference(NodeStore a, NodeStore b) {
        for (NodeStore.Family f : NodeStore.Family.values()) {
            try (RocksIterator x = a.iterator(f); RocksIterator y = b.iterator(f)) {
                x.seekToFirst();
                y.seekToFirst();
                long n = 0;
                while (x.isValid() || y.isValid()) {
                    if (!x.isValid() || !y.isValid()) {
                        return f.cfName() + ": entry " + n + " only in " + (x.isValid() ? a.directory() : b.directory())
                                + " (key " + HexFormat.of().formatHex(x.isValid() ? x.key() : y.key()) + ")";
                    }
                    if (!Arrays.equals(x.key(), y.key()) || !Arrays.equals(x.value(), y.value())) {
                        return f.cfName() + ": entry " + n + " differs: " + HexFormat.of().formatHex(x.key())
                                + " vs " + HexFormat.of().formatHex(y.key());
                    }
                    x.next();
                    y.next();
                    n++;
                }
            }
        }
        return null;
    }
}
