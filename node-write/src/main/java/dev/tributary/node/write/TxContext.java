package dev.tributary.node.write;

import dev.tributary.node.storage.NodeStore;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * What a transaction body sees on the committer thread: its SCN and id, reads that include its
 * own earlier writes and those of the earlier transactions of its commit group, and the
 * WriteBatch it fills. Not thread-safe (one transaction, one thread).
 */
public final class TxContext {
    private final NodeStore store;
    private final long scn;
    private final String transactionId;
    private final WriteBatch batch = new WriteBatch();
    private final WriteOverlay own = new WriteOverlay();
    /** The writes of earlier transactions that the store does not hold yet (their groups' rounds are not done). */
    private final EarlierWrites earlier;
    /** Writes those earlier transactions to the store (see {@link #settle()}). */
    private final Runnable settleEarlier;
    private final List<Runnable> afterWrite = new ArrayList<>();

    /**
     * What earlier transactions wrote that the store may not hold yet: the value, {@link
     * WriteOverlay#DELETED}, or null when none of them wrote the key.
     */
    @FunctionalInterface
    interface EarlierWrites {
        byte[] get(NodeStore.Family f, byte[] key);

        EarlierWrites NONE = (f, key) -> null;
    }

    TxContext(NodeStore store, long scn, String transactionId, EarlierWrites earlier, Runnable settleEarlier) {
        this.store = store;
        this.scn = scn;
        this.transactionId = transactionId;
        this.earlier = earlier;
        this.settleEarlier = settleEarlier;
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

    /** This transaction's writes, for its group's overlay once it joins the group. */
    WriteOverlay writes() {
        return own;
    }

    /** Reads a key, seeing this transaction's own puts and deletes first, then those of the groups not yet applied. */
    public byte[] get(NodeStore.Family f, byte[] key) {
        byte[] p = own.get(f, key);
        if (p == null) {
            p = earlier.get(f, key);
        }
        if (p != null) {
            return p == WriteOverlay.DELETED ? null : p;
        }
        return store.get(f, key);
    }

    public void put(NodeStore.Family f, byte[] key, byte[] value) {
        try {
            batch.put(store.handle(f), key, value);
        } catch (RocksDBException e) {
            throw CommitPipeline.wrap(e);
        }
        own.put(f, key, value);
    }

    public void delete(NodeStore.Family f, byte[] key) {
        try {
            batch.delete(store.handle(f), key);
        } catch (RocksDBException e) {
            throw CommitPipeline.wrap(e);
        }
        own.delete(f, key);
    }

    /**
     * Puts the earlier transactions (this commit group's, and the groups whose rounds are in
     * flight) into the store, so that what this body reads from the store directly (iterators,
     * snapshots) includes them; {@link #get} needs none of this. Fails this transaction when they
     * could not be written.
     */
    public void settle() {
        settleEarlier.run();
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

    boolean hasAfterWrite() {
        return !afterWrite.isEmpty();
    }

    void runAfterWrite() {
        for (Runnable r : afterWrite) {
            r.run();
        }
    }

    /** The store; a body that iterates it or snapshots it calls {@link #settle()} first. */
    public NodeStore store() {
        return store;
    }
}
