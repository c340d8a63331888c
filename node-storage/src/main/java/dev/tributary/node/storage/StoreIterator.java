package dev.tributary.node.storage;

import dev.tributary.node.errors.StorageException;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * A RocksDB iterator that tells an error from the end of the data. RocksDB ends an iteration that
 * hits a damaged block or an I/O error by becoming invalid, as at the end; only its status says
 * which. {@link #isValid()} checks it, so a scan over a bad block fails (CORRUPTION naming the
 * file) instead of returning what came before it as if it were everything.
 */
public final class StoreIterator implements AutoCloseable {
    private final RocksIterator it;
    private final NodeStore.Family family;

    StoreIterator(RocksIterator it, NodeStore.Family family) {
        this.it = it;
        this.family = family;
    }

    /** Whether it is at an entry; false at the end. @throws StorageException if the iteration failed */
    public boolean isValid() {
        if (it.isValid()) {
            return true;
        }
        try {
            it.status();
        } catch (RocksDBException e) {
            throw StorageException.from("read " + family.cfName(), e);
        }
        return false;
    }

    public void seek(byte[] key) {
        it.seek(key);
    }

    public void seekToFirst() {
        it.seekToFirst();
    }

    public void seekToLast() {
        it.seekToLast();
    }

    public void next() {
        it.next();
    }

    public byte[] key() {
        return it.key();
    }

    public byte[] value() {
        return it.value();
    }

    @Override
    public void close() {
        it.close();
    }
}
