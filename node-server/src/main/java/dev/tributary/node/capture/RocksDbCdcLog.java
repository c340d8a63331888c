package dev.tributary.node.capture;

import dev.tributary.capture.LogSink;
import dev.tributary.capture.log.LogCodec;
import dev.tributary.capture.log.LogPosition;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.capture.log.TimeUuids;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.generations.StreamId;
import dev.tributary.node.errors.StorageException;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.RocksDBException;
import dev.tributary.node.storage.StoreIterator;
import org.rocksdb.WriteBatch;

/**
 * The CDC logs in the {@code cdc_log} column family: one log per table (log id = the table's
 * object number), partitioned by stream ID, ordered by time and batch sequence number.
 * Appends and the capture's checkpoint go in one WriteBatch. Thread-safe.
 */
public final class RocksDbCdcLog implements LogSink {
    private static final String CHECKPOINT = "ckpt/";
    private final NodeStore store;
    private final List<AppendListener> appendListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public RocksDbCdcLog(NodeStore store) {
        this.store = store;
    }

    public static byte[] key(long logId, LogPosition p) {
        return ByteBuffer.allocate(44).putLong(logId).putLong(p.stream().high() ^ Long.MIN_VALUE).putLong(p.stream().low())
                .putLong(TimeUuids.micros(p.time())).putLong(p.time().getLeastSignificantBits())
                .putInt(p.batchSeqNo()).array();
    }

    static LogPosition position(byte[] key) {
        ByteBuffer b = ByteBuffer.wrap(key);
        b.getLong();
        StreamId stream = new StreamId(b.getLong() ^ Long.MIN_VALUE, b.getLong());
        long micros = b.getLong();
        long lsb = b.getLong();
        return new LogPosition(stream, TimeUuids.of(micros, lsb), b.getInt());
    }

    /** Told of each (log, stream) an append wrote to, after the write; must be quick and not block. */
    @FunctionalInterface
    public interface AppendListener {
        void appended(long logId, StreamId stream);
    }

    /**
     * Deletes the entries of a log whose time is below {@code cutoffMicros}, in every stream: per
     * stream one range delete, since a stream's entries sort by time.
     *
     * @return how many streams had entries to delete
     */
    public int purgeBefore(long logId, long cutoffMicros) {
        byte[] prefix = ByteBuffer.allocate(8).putLong(logId).array();
        int streams = 0;
        try (StoreIterator it = store.iterator(NodeStore.Family.CDC_LOG)) {
            it.seek(prefix);
            while (it.isValid() && Keys.hasPrefix(it.key(), prefix)) {
                byte[] stream = java.util.Arrays.copyOf(it.key(), 24);
                long micros = ByteBuffer.wrap(it.key(), 24, 8).getLong();
                if (micros < cutoffMicros) {
                    byte[] to = ByteBuffer.allocate(32).put(stream).putLong(cutoffMicros).array();
                    store.deleteRange(NodeStore.Family.CDC_LOG, stream, to, false);
                    streams++;
                }
                it.seek(Keys.prefixEnd(stream));
            }
        }
        return streams;
    }

    public void addAppendListener(AppendListener listener) {
        appendListeners.add(listener);
    }

    @Override
    public void append(String captureName, List<LogRecord> records, long checkpointScn) {
        write(captureName, records, checkpointScn);
        if (!records.isEmpty() && !appendListeners.isEmpty()) {
            java.util.Set<java.util.Map.Entry<Long, StreamId>> streams = new java.util.HashSet<>();
            for (LogRecord r : records) {
                streams.add(java.util.Map.entry(r.logId(), r.position().stream()));
            }
            for (java.util.Map.Entry<Long, StreamId> s : streams) {
                for (AppendListener l : appendListeners) {
                    l.appended(s.getKey(), s.getValue());
                }
            }
        }
    }

    private void write(String captureName, List<LogRecord> records, long checkpointScn) {
        // Keys are positions and values are deterministic, so re-appending after a crash between
        // capture and checkpoint rewrites the same bytes: enqueue is idempotent on the position.
        try (WriteBatch b = new WriteBatch()) {
            BinaryWriter scratch = new BinaryWriter(1024);
            for (LogRecord r : records) {
                b.put(store.handle(NodeStore.Family.CDC_LOG), key(r.logId(), r.position()), LogCodec.encodeBody(r, scratch));
            }
            b.put(store.handle(NodeStore.Family.META), Keys.meta(CHECKPOINT + captureName), Keys.scn(checkpointScn));
            store.write(b, false);
        } catch (RocksDBException e) {
            throw sinkFullIfNoSpace(StorageException.from("append to CDC log", e));
        } catch (StorageException e) {
            throw sinkFullIfNoSpace(e);
        }
    }

    /** A full disk is one the capture waits out (LogSink.SinkFullException); other failures stop it. */
    private static RuntimeException sinkFullIfNoSpace(StorageException e) {
        return e.code() == dev.tributary.node.errors.ErrorCode.DISK_FULL ? new LogSink.SinkFullException(e.getMessage(), e) : e;
    }

    @Override
    public long checkpoint(String captureName) {
        byte[] v = store.get(NodeStore.Family.META, Keys.meta(CHECKPOINT + captureName));
        return v == null ? 0 : Keys.scnOf(v);
    }

    /**
     * Reads a log in position order after {@code after} (exclusive; null = from the start),
     * at most {@code limit} records, optionally only delta records (the LCRs themselves).
     */
    public List<LogRecord> read(long logId, LogPosition after, int limit, boolean deltasOnly) {
        List<LogRecord> out = new ArrayList<>();
        byte[] prefix = Keys.tablePrefix(logId);
        try (StoreIterator it = store.iterator(NodeStore.Family.CDC_LOG)) {
            if (after == null) {
                it.seek(prefix);
            } else {
                byte[] k = key(logId, after);
                it.seek(k);
                if (it.isValid() && java.util.Arrays.equals(it.key(), k)) {
                    it.next();
                }
            }
            while (it.isValid() && Keys.hasPrefix(it.key(), prefix) && out.size() < limit) {
                LogRecord r = LogCodec.decodeBody(logId, position(it.key()), it.value());
                if (!deltasOnly || r.isDelta()) {
                    out.add(r);
                }
                it.next();
            }
        }
        return out;
    }

    /**
     * The delta records of one stream of a log in position order, after {@code after} (exclusive)
     * or, when it is null, from the first record at or after {@code fromMicros}; at most
     * {@code limit}, and only records whose time is below {@code untilMicros}. Reads only that
     * stream's key range.
     */
    public List<LogRecord> readStream(long logId, StreamId stream, LogPosition after, long fromMicros, long untilMicros,
            int limit) {
        List<LogRecord> out = new ArrayList<>();
        byte[] prefix = ByteBuffer.allocate(24).putLong(logId).putLong(stream.high() ^ Long.MIN_VALUE)
                .putLong(stream.low()).array();
        try (StoreIterator it = store.iterator(NodeStore.Family.CDC_LOG)) {
            if (after == null) {
                // time micros follow the stream in the key; negative times sort after positive ones
                // as unsigned bytes, so an unset start seeks to the stream's first key
                it.seek(fromMicros <= 0 ? prefix : ByteBuffer.allocate(32).put(prefix).putLong(fromMicros).array());
            } else {
                byte[] k = key(logId, after);
                it.seek(k);
                if (it.isValid() && java.util.Arrays.equals(it.key(), k)) {
                    it.next();
                }
            }
            while (it.isValid() && Keys.hasPrefix(it.key(), prefix) && out.size() < limit) {
                LogPosition p = position(it.key());
                if (TimeUuids.micros(p.time()) >= untilMicros) {
                    break;
                }
                LogRecord r = LogCodec.decodeBody(logId, p, it.value());
                if (r.isDelta()) {
                    out.add(r);
                }
                it.next();
            }
        }
        return out;
    }

    /** Deletes a whole log (its table was dropped). */
    public void drop(long logId) {
        byte[] prefix = Keys.tablePrefix(logId);
        try (WriteBatch b = new WriteBatch()) {
            b.deleteRange(store.handle(NodeStore.Family.CDC_LOG), prefix, Keys.prefixEnd(prefix));
            store.write(b, false);
        } catch (RocksDBException e) {
            throw StorageException.from("drop CDC log", e);
        }
    }


    /**
     * All records of a log in position order, read a page at a time (so a long log is never held
     * in memory at once); optionally only the delta records.
     */
    public java.util.Iterator<LogRecord> iterate(long logId, boolean deltasOnly) {
        return new java.util.Iterator<>() {
            private static final int PAGE = 1000;
            private List<LogRecord> page = List.of();
            private int next;
            private LogPosition after;
            private boolean exhausted;

            @Override
            public boolean hasNext() {
                while (next >= page.size() && !exhausted) {
                    page = readPage();
                    next = 0;
                }
                return next < page.size();
            }

            private List<LogRecord> readPage() {
                List<LogRecord> got = read(logId, after, PAGE, false);
                exhausted = got.size() < PAGE;
                if (!got.isEmpty()) {
                    after = got.get(got.size() - 1).position();
                }
                if (!deltasOnly) {
                    return got;
                }
                List<LogRecord> deltas = new ArrayList<>(got.size());
                for (LogRecord r : got) {
                    if (r.isDelta()) {
                        deltas.add(r);
                    }
                }
                return deltas;
            }

            @Override
            public LogRecord next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                return page.get(next++);
            }
        };
    }
}
