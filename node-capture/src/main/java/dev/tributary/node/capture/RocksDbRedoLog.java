package dev.tributary.node.capture;

import dev.tributary.capture.RedoSource;
import dev.tributary.capture.redo.RedoCodec;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.dictionary.io.CorruptRecordException;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import java.util.ArrayList;
import java.util.List;
import dev.tributary.node.storage.StoreIterator;

/**
 * The node's redo thread in the {@code redo} column family, keyed by commit SCN. The committer
 * calls {@link #signal()} after each durable group so waiting captures wake at once instead of
 * polling.
 */
public final class RocksDbRedoLog implements RedoSource {
    private final NodeStore store;
    private final Object monitor = new Object();
    private long generation;
    private volatile java.util.function.LongSupplier completeness;

    public RocksDbRedoLog(NodeStore store) {
        this.store = store;
    }

    /** The stored bytes of the entries with SCNs in [fromScn, toScn): an archived log's contents, for log transport. */
    public List<byte[]> rawRange(long fromScn, long toScn) {
        return raw(fromScn, toScn, Integer.MAX_VALUE);
    }

    /** At most {@code max} stored entries after {@code afterScn}, as stored (for a reader on another node). */
    public List<byte[]> rawAfter(long afterScn, int max) {
        long durable = readableThrough();
        return durable <= afterScn ? List.of() : raw(afterScn + 1, durable == Long.MAX_VALUE ? durable : durable + 1, max);
    }

    private List<byte[]> raw(long fromScn, long toScn, int max) {
        List<byte[]> out = new ArrayList<>();
        try (StoreIterator it = store.iterator(NodeStore.Family.REDO)) {
            for (it.seek(Keys.scn(fromScn)); it.isValid() && Keys.scnOf(it.key()) < toScn && out.size() < max; it.next()) {
                out.add(it.value());
            }
        }
        return out;
    }

    @Override
    public List<RedoEntry> readAfter(long afterScn, int max) {
        List<RedoEntry> out = new ArrayList<>();
        // only what is durable: an entry written but not yet fsynced (or not yet held by a
        // majority) would reach consumers that a power loss then contradicts
        long durable = readableThrough();
        if (durable <= afterScn) {
            return out;
        }
        try (StoreIterator it = store.iterator(NodeStore.Family.REDO)) {
            it.seek(Keys.scn(afterScn + 1));
            while (it.isValid() && out.size() < max && Keys.scnOf(it.key()) <= durable) {
                RedoEntry e;
                try {
                    e = RedoCodec.decode(it.value());
                } catch (CorruptRecordException c) {
                    if (out.isEmpty()) {
                        throw c;
                    }
                    break; // the entries before it first; the next read starts with it and fails
                }
                out.add(e);
                it.next();
            }
        }
        return out;
    }

    /** The highest SCN in the redo thread, or 0 when it is empty. */
    public long lastScn() {
        try (StoreIterator it = store.iterator(NodeStore.Family.REDO)) {
            it.seekToLast();
            return it.isValid() ? Keys.scnOf(it.key()) : 0;
        }
    }

    @Override
    public void awaitNewer(long afterScn, long timeoutMillis) throws InterruptedException {
        synchronized (monitor) {
            long seen = generation;
            if (Math.min(lastScn(), readableThrough()) > afterScn) {
                return;
            }
            long deadline = System.currentTimeMillis() + timeoutMillis;
            while (generation == seen) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    return;
                }
                monitor.wait(left);
            }
        }
    }

    /** Where {@link #completeThrough()} comes from: the commit pipeline writing this redo thread. */
    public void completeness(java.util.function.LongSupplier completeThrough) {
        this.completeness = completeThrough;
    }

    @Override
    public long completeThrough() {
        java.util.function.LongSupplier c = completeness;
        return c == null ? Long.MIN_VALUE : c.getAsLong();
    }

    /** The highest SCN a read may hand out: the durable end, or anything when no pipeline writes this thread. */
    private long readableThrough() {
        java.util.function.LongSupplier c = completeness;
        return c == null ? Long.MAX_VALUE : c.getAsLong();
    }

    public void signal() {
        synchronized (monitor) {
            generation++;
            monitor.notifyAll();
        }
    }
}
