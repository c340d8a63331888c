package dev.tributary.node.write;

import dev.tributary.node.storage.NodeStore;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes not yet in the store, by family and key: a transaction's own, or those of the earlier
 * transactions of a commit group still to be proposed to the replica group. Committer thread only.
 */
final class WriteOverlay {
    /** What {@link #get} answers for a key deleted here (by identity: an empty value stays a value). */
    static final byte[] DELETED = new byte[0];

    private final Map<Key, byte[]> entries = new HashMap<>();

    /** A key by content (the committer's hot path: no hex strings). */
    private record Key(NodeStore.Family family, byte[] key) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.family == family && Arrays.equals(k.key, key);
        }

        @Override
        public int hashCode() {
            return 31 * family.hashCode() + Arrays.hashCode(key);
        }
    }

    /** The value written here, {@link #DELETED} for a delete, or null when the key was not written here. */
    byte[] get(NodeStore.Family f, byte[] key) {
        return entries.isEmpty() ? null : entries.get(new Key(f, key));
    }

    void put(NodeStore.Family f, byte[] key, byte[] value) {
        entries.put(new Key(f, key), value);
    }

    void delete(NodeStore.Family f, byte[] key) {
        entries.put(new Key(f, key), DELETED);
    }

    /** Takes {@code later}'s writes over this one's (a transaction joining its group). */
    void putAll(WriteOverlay later) {
        entries.putAll(later.entries);
    }

    void clear() {
        entries.clear();
    }
}
