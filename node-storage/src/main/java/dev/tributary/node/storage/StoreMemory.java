package dev.tributary.node.storage;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.LRUCache;
import org.rocksdb.WriteBufferManager;

/**
 * The native memory RocksDB may take outside the Java heap: one block cache, and one write buffer
 * manager that charges every memtable to that cache. Left to itself RocksDB gives each column
 * family memtables of 64 MB, two of them while one is flushed, plus a cache of its own and
 * table-reader index and filter blocks charged to nothing; that made up most of the node's
 * resident memory beyond the heap.
 *
 * <p>The stores of one process share one instance ({@link #acquireShared}): a node with
 * replication opens a store per replica group it serves, and the in-process bench may run several
 * nodes, so a budget per store would multiply. The instance is closed when the last store that
 * acquired it is closed. Its sizes come from the first store that opens it.
 */
final class StoreMemory {
    /** Data, index and filter blocks, beyond what the memtables take of the cache. */
    static final long BLOCK_CACHE_BYTES = 32L << 20;
    /** The least all memtables together may take; see {@link #writeBufferBytes}. */
    static final long MIN_WRITE_BUFFER_BYTES = 64L << 20;
    /** A whole-key filter makes a miss (an INSERT's read of the old row) cost no data block read. */
    private static final double BLOOM_BITS_PER_KEY = 10;

    private static StoreMemory shared;
    private static int sharedUsers;

    private final LRUCache cache;
    private final WriteBufferManager writeBuffers;
    private final BloomFilter bloom;
    private final boolean isShared;

    private StoreMemory(long memtableBytes, boolean isShared) {
        long writeBufferBytes = writeBufferBytes(memtableBytes);
        // The memtables are charged to the cache, so its capacity is their budget plus the blocks'.
        this.cache = new LRUCache(writeBufferBytes + BLOCK_CACHE_BYTES);
        this.writeBuffers = new WriteBufferManager(writeBufferBytes, cache);
        this.bloom = new BloomFilter(BLOOM_BITS_PER_KEY);
        this.isShared = isShared;
    }

    /**
     * All memtables together: room for the four families' memtables at {@code --memtable-bytes}
     * each, and at least {@link #MIN_WRITE_BUFFER_BYTES}. Beyond it RocksDB flushes the largest
     * memtable early.
     */
    static long writeBufferBytes(long memtableBytes) {
        return Math.max(MIN_WRITE_BUFFER_BYTES, NodeStore.Family.values().length * memtableBytes);
    }

    /** The process's instance, created by the first caller; each call needs one {@link #release}. */
    static synchronized StoreMemory acquireShared(long memtableBytes) {
        if (shared == null) {
            shared = new StoreMemory(memtableBytes, true);
        }
        sharedUsers++;
        return shared;
    }

    /** An instance no other store uses; {@link #release} closes it. */
    static StoreMemory separate(long memtableBytes) {
        return new StoreMemory(memtableBytes, false);
    }

    /** Called once per acquire, after the store using it is closed. */
    void release() {
        if (isShared) {
            synchronized (StoreMemory.class) {
                if (--sharedUsers > 0) {
                    return;
                }
                shared = null;
            }
        }
        writeBuffers.close();
        cache.close();
        bloom.close();
    }

    WriteBufferManager writeBuffers() {
        return writeBuffers;
    }

    /**
     * Blocks come from the shared cache, and so do index and filter blocks, so they count against
     * it instead of growing with the number of SST files; those of L0 stay pinned, as they are
     * read on every lookup.
     */
    BlockBasedTableConfig tableConfig() {
        return new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(bloom).setWholeKeyFiltering(true)
                .setCacheIndexAndFilterBlocks(true).setPinL0FilterAndIndexBlocksInCache(true);
    }
}
