package dev.tributary.node.write;

import dev.tributary.node.storage.NodeStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * What a transaction body sees on the committer thread: its SCN and id, reads that include its
 * own earlier writes, and the WriteBatch it fills. Not thread-safe (one transaction, one thread).
 */
public final class TxContext {
    private final NodeStore store;
    private final long scn;
    private final String transactionId;
    private final WriteBatch batch = new WriteBatch();
    private final Map<PendingKey, byte[]> pending = new HashMap<>();
    private final List<Runnable> afterWrite = new ArrayList<>();
    private static final byte[] DELETED = new byte[0];

    TxContext(NodeStore store, long scn, String transactionId) {
        this.store = store;
        this.scn = scn;
        this.transactionId = transactionId;
    }

    public long scn() {
        return scn;
    }

    public String transactionId() {
        return transactionId;
    }

    WriteBatch batch() {
        return batch;
    }

    /** A key this transaction wrote, by content (the committer's hot path: no hex strings). */
    private record PendingKey(NodeStore.Family family, byte[] key) {
        @Override
        public boolean equals(Object o) {
            return o instanceof PendingKey p && p.family == family && java.util.Arrays.equals(p.key, key);
        }

        @Override
        public int hashCode() {
            return 31 * family.hashCode() + java.util.Arrays.hashCode(key);
        }
    }

    private static PendingKey k(NodeStore.Family f, byte[] key) {
        return new PendingKey(f, key);
    }

    /** Reads a key, seeing this transaction's own puts and deletes first. */
    public byte[] get(NodeStore.Family f, byte[] key) {
        byte[] p = pending.get(k(f, key));
        if (p != null) {
            return p == DELETED ? null : p;
        }
        return store.get(f, key);
    }

    public void put(NodeStore.Family f, byte[] key, byte[] value) {
        try {
            batch.put(store.handle(f), key, value);
        } catch (RocksDBException e) {
            throw CommitPipeline.wrap(e);
        }
        pending.put(k(f, key), value);
    }

    public void delete(NodeStore.Family f, byte[] key) {
        try {
            batch.delete(store.handle(f), key);
        } catch (RocksDBException e) {
            throw CommitPipeline.wrap(e);
        }
        pending.put(k(f, key), DELETED);
    }

    /**
     * Deletes every key in [{@code from}, {@code to}) with this transaction, so nothing written at a
     * lower SCN survives it and nothing written at a higher one is lost. This transaction's own
     * reads do not see the range deleted.
     */
    public void deleteRange(NodeStore.Family f, byte[] from, byte[] to) {
        try {
            batch.deleteRange(store.handle(f), from, to);
        } catch (RocksDBException e) {
            throw CommitPipeline.wrap(e);
        }
    }

    /** Runs on the committer thread once the batch is written, before the next transaction starts. */
    public void afterWrite(Runnable r) {
        afterWrite.add(r);
    }

    void runAfterWrite() {
        for (Runnable r : afterWrite) {
            r.run();
        }
    }

    public NodeStore store() {
        return store;
    }
}
