package dev.tributary.node.storage;

import dev.tributary.node.errors.StorageException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileManager;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The single owner of a node's RocksDB instance and every native handle that goes with it.
 *
 * <p>Column families: {@code rows} (base table rows), {@code redo} (the node's redo thread:
 * one record per committed transaction, keyed by commit SCN), {@code cdc_log} (LCRs, keyed by
 * log, stream, time and batch sequence number) and {@code meta} (dictionary changes, capture
 * checkpoints, node identity). Its block cache and memtable budget are the process's, shared by
 * every store opened with {@link #open} ({@link StoreMemory}). Thread-safe: RocksDB handles are;
 * {@link #close()} must be called once, after all users stopped.
 */
public final class NodeStore implements AutoCloseable {
    static {
        RocksDB.loadLibrary();
    }

    public enum Family {
        ROWS("rows"), REDO("redo"), CDC_LOG("cdc_log"), META("meta");

        private final String cfName;

        Family(String cfName) {
            this.cfName = cfName;
        }

        public String cfName() {
            return cfName;
        }
    }

    private final Path dir;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions cfOptions;
    private final RocksDB db;
    private final List<ColumnFamilyHandle> handles;
    private final ColumnFamilyHandle[] byFamily = new ColumnFamilyHandle[Family.values().length];
    private final WriteOptions unsyncedWrite;
    private final WriteOptions syncedWrite;
    private final Replicator replicator;
    /** Tracks the SST files' size: the space limit, and RocksDB's recovery once space is back. */
    private final SstFileManager sstFiles;
    /** The block cache and memtable budget this store draws on, released by {@link #close()}. */
    private final StoreMemory memory;

    /**
     * Smaller than RocksDB's 64 MB: four families, each with a memtable being filled and one
     * being flushed, would otherwise hold up to 512 MB; {@link StoreMemory} caps them all together.
     */
    public static final long DEFAULT_MEMTABLE_BYTES = 16L << 20;
    /** A serialized WriteBatch's header: its sequence number (8 bytes) and record count (4), little-endian. */
    private static final int BATCH_HEADER = 12;
    /** At most one memtable being filled and one being flushed per family; RocksDB stalls writes beyond. */
    static final int MAX_WRITE_BUFFER_NUMBER = 2;

    /** How much disk a store may take, and how large its memtables grow before they are flushed. */
    public record Limits(long maxDiskBytes, long memtableBytes) {
        /** No space limit, the node's default memtable size. */
        public static final Limits DEFAULT = new Limits(0, DEFAULT_MEMTABLE_BYTES);
    }

    /**
     * Where a replicated store's writes go instead of RocksDB: the replica group's log
     * (docs/REPLICATION.md). It returns once the write is committed by a majority and applied to
     * this store, so a read after a write sees it.
     */
    @FunctionalInterface
    public interface Replicator {
        void replicate(byte[] batchData);

        /**
         * Proposes the batch without waiting: the future completes once it is committed by a
         * majority and applied to this store, or fails as {@link #replicate} would. Proposals made
         * one after another from one thread enter the group's log in that order (what lets the
         * committer pipeline its groups) — those that enter it: one refused before it is appended
         * leaves the later ones in the log without it, which is why a commit group's entry names
         * the group it was built on ({@link NodeStore#propose(long, List)}). A round that fails
         * because every replica skipped its entry fails with a
         * {@link dev.tributary.node.errors.TributaryException#notApplied()} error. By default the
         * proposal runs on the caller's thread, to the end.
         */
        default java.util.concurrent.CompletableFuture<Void> propose(byte[] batchData) {
            try {
                replicate(batchData);
                return java.util.concurrent.CompletableFuture.completedFuture(null);
            } catch (RuntimeException | Error e) {
                return java.util.concurrent.CompletableFuture.failedFuture(e);
            }
        }
    }

    /** What the SST file manager was last told (it does not say). */
    private volatile long maxDiskBytes;
    /**
     * The last commit group a replica's store applied (0: none), as {@link #LAST_GROUP_KEY} holds it;
     * changed by {@link #applyEntry} only, on the replica group's apply thread.
     */
    private volatile long lastAppliedGroup;

    /**
     * META: the id of the last commit group applied to a replica's store, written in the same
     * RocksDB write as the entry and the replica's applied index, so it survives a restart and is in
     * every snapshot (a checkpoint of the store).
     */
    public static final byte[] LAST_GROUP_KEY = Keys.meta("raft/group");
    /** The serialized form of an empty WriteBatch: a 12-byte header (sequence number and count, both 0). */
    private static final byte[] EMPTY_BATCH = new byte[BATCH_HEADER];

    private NodeStore(Path dir, DBOptions dbOptions, ColumnFamilyOptions cfOptions, RocksDB db,
            List<ColumnFamilyHandle> handles, Replicator replicator, SstFileManager sstFiles, StoreMemory memory) {
        this.sstFiles = sstFiles;
        this.memory = memory;
        this.replicator = replicator;
        this.dir = dir;
        this.dbOptions = dbOptions;
        this.cfOptions = cfOptions;
        this.db = db;
        this.handles = handles;
        // handles[0] is "default", which Tributary does not use.
        for (Family f : Family.values()) {
            byFamily[f.ordinal()] = handles.get(f.ordinal() + 1);
        }
        this.unsyncedWrite = new WriteOptions().setSync(false);
        this.syncedWrite = new WriteOptions().setSync(true);
    }

    /** Opens (creating if needed) the store under {@code dir}. */
    public static NodeStore open(Path dir) {
        return open(dir, null);
    }

    /**
     * Opens a replica's store: with a {@code replicator}, every write goes to it (the replica
     * group's log) and reaches RocksDB through {@link #writeReplicated} on every replica.
     */
    public static NodeStore open(Path dir, Replicator replicator) {
        return open(dir, replicator, Limits.DEFAULT);
    }

    /** Opens a store with a space limit and memtable size ({@code --max-disk-bytes}, {@code --memtable-bytes}). */
    public static NodeStore open(Path dir, Replicator replicator, Limits limits) {
        return open(dir, replicator, limits, StoreMemory.acquireShared(limits.memtableBytes()));
    }

    /**
     * Opens a store with the same options as {@link #open(Path)}, but with a block cache and
     * memtable budget of its own instead of the process's shared ones: for the bench's baseline,
     * which runs in the node's JVM while the node still holds its memtables, and must not write
     * into a budget the node already took part of.
     */
    public static NodeStore openSeparate(Path dir) {
        return open(dir, null, Limits.DEFAULT, StoreMemory.separate(Limits.DEFAULT.memtableBytes()));
    }

    private static NodeStore open(Path dir, Replicator replicator, Limits limits, StoreMemory memory) {
        try {
            return openOrThrow(dir, replicator, limits, memory);
        } catch (RuntimeException | Error e) {
            memory.release();
            throw e;
        }
    }

    private static NodeStore openOrThrow(Path dir, Replicator replicator, Limits limits, StoreMemory memory) {
        try {
            Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new StorageException("cannot create data directory " + dir + ": " + e.getMessage(), e);
        }
        SstFileManager sstFiles;
        try {
            sstFiles = new SstFileManager(Env.getDefault());
        } catch (RocksDBException e) {
            throw StorageException.from("open " + dir, e);
        }
        sstFiles.setMaxAllowedSpaceUsage(limits.maxDiskBytes());
        DBOptions dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2).setKeepLogFileNum(3).setSstFileManager(sstFiles)
                .setWriteBufferManager(memory.writeBuffers()).setManualWalFlush(PowerLoss.SIMULATED);
        // One table configuration for every family: the redo and the log are mostly scanned, so
        // their filters help only the log's point reads, but at 10 bits a key they cost little.
        ColumnFamilyOptions cfOptions = new ColumnFamilyOptions().setWriteBufferSize(limits.memtableBytes())
                .setMaxWriteBufferNumber(MAX_WRITE_BUFFER_NUMBER).setTableFormatConfig(memory.tableConfig());
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions));
        for (Family f : Family.values()) {
            descriptors.add(new ColumnFamilyDescriptor(f.cfName().getBytes(java.nio.charset.StandardCharsets.UTF_8), cfOptions));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try {
            RocksDB db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
            NodeStore store = new NodeStore(dir, dbOptions, cfOptions, db, handles, replicator, sstFiles, memory);
            store.maxDiskBytes = limits.maxDiskBytes();
            byte[] lastGroup = db.get(store.handle(Family.META), LAST_GROUP_KEY);
            store.lastAppliedGroup = lastGroup == null ? 0 : ByteBuffer.wrap(lastGroup).getLong();
            return store;
        } catch (RocksDBException e) {
            for (ColumnFamilyHandle h : handles) {
                h.close();
            }
            cfOptions.close();
            dbOptions.close();
            sstFiles.close();
            throw StorageException.from("open " + dir, e);
        }
    }

    public Path directory() {
        return dir;
    }


    public ColumnFamilyHandle handle(Family f) {
        return byFamily[f.ordinal()];
    }

    public byte[] get(Family f, byte[] key) {
        try {
            return db.get(handle(f), key);
        } catch (RocksDBException e) {
            throw StorageException.from("read " + f.cfName(), e);
        }
    }

    /**
     * Writes a batch; with {@code sync} the WAL is fsynced before this returns. A replicated store
     * hands it to the replica group instead, whose log is the durability point.
     */
    public void write(WriteBatch batch, boolean sync) {
        if (replicator != null) {
            try {
                replicator.replicate(batch.data());
            } catch (RocksDBException e) {
                throw StorageException.from("serialize a batch for the replica group", e);
            }
            return;
        }
        try {
            db.write(sync ? syncedWrite : unsyncedWrite, batch);
        } catch (RocksDBException e) {
            throw StorageException.from("write", e);
        }
    }

    /** Whether this store's writes go to a replica group (a replica's store) rather than to RocksDB. */
    public boolean replicated() {
        return replicator != null;
    }

    /**
     * Proposes several batches ({@link WriteBatch#data()}, built in this order) to the replica
     * group as one entry, applied atomically as one batch on every replica: one Raft round for a
     * commit group instead of one per transaction.
     */
    public void replicate(List<byte[]> batches) {
        if (replicator == null) {
            throw new IllegalStateException("store " + dir + " is not replicated");
        }
        replicator.replicate(batches.size() == 1 ? batches.get(0) : concat(batches));
    }

    /**
     * As {@link #replicate(List)}, without waiting for the round: the future completes once the
     * entry is committed and applied to this store (see {@link Replicator#propose}). The entry
     * belongs to no commit group: it is applied whatever was applied before it.
     */
    public java.util.concurrent.CompletableFuture<Void> propose(List<byte[]> batches) {
        if (replicator == null) {
            throw new IllegalStateException("store " + dir + " is not replicated");
        }
        return replicator.propose(batches.size() == 1 ? batches.get(0) : concat(batches));
    }

    /**
     * Proposes {@code batches} as the entry of commit group {@code group}, built on the writes of
     * group {@code group - 1} (its parent): every replica applies it only if that is the last group
     * it applied, and otherwise applies nothing of it ({@link #applyEntry}), and the round fails
     * with a {@link dev.tributary.node.errors.TributaryException#notApplied()} error. So an entry
     * whose parent never entered the log (refused at once while it was accepted) cannot rest on
     * writes that never happened.
     */
    public java.util.concurrent.CompletableFuture<Void> propose(long group, List<byte[]> batches) {
        if (replicator == null) {
            throw new IllegalStateException("store " + dir + " is not replicated");
        }
        if (group <= 0) {
            throw new IllegalArgumentException("a commit group's id must be positive, got " + group);
        }
        byte[] entry = concat(batches); // a copy even of one batch: its header is about to name the group
        ByteBuffer.wrap(entry, 0, 8).order(ByteOrder.LITTLE_ENDIAN).putLong(group);
        return replicator.propose(entry);
    }

    /**
     * The commit group a replica group's entry belongs to, 0 for none. An entry is a serialized
     * WriteBatch; its header's 8-byte sequence number is overwritten by RocksDB when it writes the
     * batch, so it carries nothing of its own and names the group instead: 0 for an entry resting
     * only on what the store had applied when it was built (a capture's append, a transaction
     * written alone, the committer's barrier, a batch built by {@code new WriteBatch()}), else the
     * group's id, one more than its parent's — one number names both, at no cost to the entry.
     */
    public static long groupOf(byte[] entry) {
        return entry.length < BATCH_HEADER ? 0 : ByteBuffer.wrap(entry, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** The last commit group this replica's store applied, 0 for none (see {@link #propose(long, List)}). */
    public long lastAppliedGroup() {
        return lastAppliedGroup;
    }

    /**
     * Applies a replica group's entry ({@link #groupOf}) with one more put (the replica's applied
     * index), in one atomic write. An entry of commit group g is applied only if g − 1 is the last
     * group this store applied, and then g becomes it; otherwise it was built on writes this store
     * does not hold, and only the put is written. Every replica applies the same log from the same
     * state, so every one decides the same. Whether the entry's writes were applied.
     */
    public boolean applyEntry(byte[] entry, Family f, byte[] key, byte[] value) {
        long group = groupOf(entry);
        if (group != 0 && group - 1 != lastAppliedGroup) {
            writeReplicatedPut(f, key, value);
            return false;
        }
        try (WriteBatch b = new WriteBatch(entry)) {
            b.put(handle(f), key, value);
            if (group != 0) {
                b.put(handle(Family.META), LAST_GROUP_KEY, ByteBuffer.allocate(8).putLong(group).array());
            }
            db.write(unsyncedWrite, b);
        } catch (RocksDBException e) {
            throw StorageException.from("apply a replicated entry", e);
        }
        if (group != 0) {
            lastAppliedGroup = group;
        }
        return true;
    }

    /**
     * One serialized WriteBatch holding the records of {@code batches} in order, as RocksDB's
     * {@code WriteBatchInternal::Append} joins them: the 12-byte header (sequence number, then the
     * record count, little-endian) once, with the counts summed, then each batch's records.
     */
    static byte[] concat(List<byte[]> batches) {
        int size = BATCH_HEADER;
        long count = 0;
        for (byte[] b : batches) {
            size += b.length - BATCH_HEADER;
            count += ByteBuffer.wrap(b, 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xffffffffL;
        }
        byte[] out = new byte[size];
        ByteBuffer.wrap(out, 8, 4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) count);
        int at = BATCH_HEADER;
        for (byte[] b : batches) {
            System.arraycopy(b, BATCH_HEADER, out, at, b.length - BATCH_HEADER);
            at += b.length - BATCH_HEADER;
        }
        return out;
    }

    /** As {@link #writeReplicated} for an entry with no writes of its own: only the replica's put. */
    public void writeReplicatedPut(Family f, byte[] key, byte[] value) {
        writeReplicated(EMPTY_BATCH, f, key, value);
    }

    /**
     * Applies a batch built against another replica's store ({@link WriteBatch#data()}) together
     * with one more put, in one atomic write. The batch names column families by id, and every
     * store creates its families in {@link Family} order, so the ids agree across replicas.
     */
    public void writeReplicated(byte[] batchData, Family f, byte[] key, byte[] value) {
        try (WriteBatch b = new WriteBatch(batchData)) {
            b.put(handle(f), key, value);
            db.write(unsyncedWrite, b);
        } catch (RocksDBException e) {
            throw StorageException.from("apply a replicated batch", e);
        }
    }

    /**
     * Writes a consistent copy of the store to {@code target}, which must not exist: RocksDB
     * flushes the memtables and hard-links the SST files, so this is cheap and leaves the store
     * serving.
     */
    public void checkpoint(Path target) {
        try (org.rocksdb.Checkpoint c = org.rocksdb.Checkpoint.create(db)) {
            c.createCheckpoint(target.toString());
        } catch (RocksDBException e) {
            throw StorageException.from("checkpoint to " + target, e);
        }
    }

    /** Fsyncs the WAL: every write that returned before this call is durable after it. */
    public void syncWal() {
        if (replicator != null) {
            return; // a replicated write is durable on a majority once write() returned
        }
        try {
            PowerLoss.beforeSync();
            if (PowerLoss.SIMULATED) {
                db.flushWal(true); // the WAL lives in this process until here: a SIGKILL drops it, as a power loss would
            } else {
                db.syncWal();
            }
        } catch (RocksDBException e) {
            throw StorageException.from("sync WAL", e);
        }
    }

    public void put(Family f, byte[] key, byte[] value, boolean sync) {
        try (WriteBatch b = new WriteBatch()) {
            b.put(handle(f), key, value);
            write(b, sync);
        } catch (RocksDBException e) {
            throw StorageException.from("write " + f.cfName(), e);
        }
    }

    /** Deletes one key of one column family (a prefix range would take its longer neighbours too). */
    public void delete(Family f, byte[] key, boolean sync) {
        try (WriteBatch b = new WriteBatch()) {
            b.delete(handle(f), key);
            write(b, sync);
        } catch (RocksDBException e) {
            throw StorageException.from("delete from " + f.cfName(), e);
        }
    }

    /** Deletes the keys in [from, to) of one column family. */
    public void deleteRange(Family f, byte[] from, byte[] to, boolean sync) {
        try (WriteBatch b = new WriteBatch()) {
            b.deleteRange(handle(f), from, to);
            write(b, sync);
        } catch (RocksDBException e) {
            throw StorageException.from("delete range of " + f.cfName(), e);
        }
    }

    /** An iterator over one column family; the caller closes it. */
    public StoreIterator iterator(Family f) {
        return new StoreIterator(db.newIterator(handle(f)), f);
    }

    /**
     * Every META record whose name starts with {@code prefix}, in key order: {@code f} gets the rest
     * of the name (after the prefix) and the value. How capture and apply processes keep their
     * definitions and bookkeeping.
     */
    public void scanMeta(String prefix, java.util.function.BiConsumer<String, byte[]> f) {
        byte[] p = Keys.meta(prefix);
        try (StoreIterator it = iterator(Family.META)) {
            for (it.seek(p); it.isValid() && Keys.hasPrefix(it.key(), p); it.next()) {
                f.accept(new String(it.key(), p.length, it.key().length - p.length, java.nio.charset.StandardCharsets.UTF_8),
                        it.value());
            }
        }
    }

    public StoreIterator iterator(Family f, ReadOptions options) {
        return new StoreIterator(db.newIterator(handle(f), options), f);
    }

    /**
     * A consistent view of the store as it is now: iterators opened with its
     * {@link Snapshot#readOptions()} see nothing written after. The caller closes it.
     */
    public Snapshot snapshot() {
        return new Snapshot(db);
    }

    /** A RocksDB snapshot and the read options that read through it. */
    public static final class Snapshot implements AutoCloseable {
        private final RocksDB db;
        private final org.rocksdb.Snapshot snapshot;
        private final ReadOptions options;

        private Snapshot(RocksDB db) {
            this.db = db;
            this.snapshot = db.getSnapshot();
            this.options = new ReadOptions().setSnapshot(snapshot);
        }

        public ReadOptions readOptions() {
            return options;
        }

        @Override
        public void close() {
            options.close();
            db.releaseSnapshot(snapshot);
        }
    }

    @Override
    public void close() {
        unsyncedWrite.close();
        syncedWrite.close();
        for (int i = handles.size() - 1; i >= 0; i--) {
            handles.get(i).close();
        }
        try {
            if (PowerLoss.SIMULATED) {
                db.flushWal(true);
            } else {
                db.syncWal();
            }
        } catch (RocksDBException ignored) {
            // closing anyway: the WAL was synced by every acknowledged batch-mode write
        }
        db.close();
        cfOptions.close();
        dbOptions.close();
        sstFiles.close();
        memory.release();
    }

    /**
     * Sets the space the SST files may take (0: no limit). Raising it lets a store that hit the
     * limit take writes again: RocksDB resumes by itself once it sees the room.
     */
    public void setMaxDiskBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("max_disk_bytes must not be negative, got " + bytes);
        }
        sstFiles.setMaxAllowedSpaceUsage(bytes);
        maxDiskBytes = bytes;
    }

    /** The space the SST files may take (0: no limit), as last set. */
    public long maxDiskBytes() {
        return maxDiskBytes;
    }

    /** The bytes the SST files take now. */
    public long diskBytes() {
        return sstFiles.getTotalSize();
    }

    /** A RocksDB integer property summed over the column families (rocksdb.estimate-pending-compaction-bytes...). */
    public long property(String name) {
        try {
            return db.getAggregatedLongProperty(name);
        } catch (org.rocksdb.RocksDBException e) {
            throw StorageException.from("read " + name, e);
        }
    }

    /**
     * RocksDB's estimate of the keys in one column family ({@code rocksdb.estimate-num-keys}): good
     * for a progress total, not for a count (deletes and overwrites not yet compacted skew it).
     */
    public long estimatedKeys(Family f) {
        try {
            return db.getLongProperty(handle(f), "rocksdb.estimate-num-keys");
        } catch (org.rocksdb.RocksDBException e) {
            throw StorageException.from("read " + f.cfName() + "'s estimated key count", e);
        }
    }

    /** What the store holds, as nodetool's load: its SST files and its memtables (not yet flushed). */
    public long load() {
        try {
            return sstFiles.getTotalSize() + db.getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables");
        } catch (org.rocksdb.RocksDBException e) {
            throw StorageException.from("read the memtables' size", e);
        }
    }
}
