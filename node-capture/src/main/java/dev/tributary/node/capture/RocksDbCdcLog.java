package dev.tributary.node.capture;

import dev.tributary.capture.LogSink;
import dev.tributary.capture.apply.ApplyPosition;
import dev.tributary.capture.apply.ApplyTransaction;
import dev.tributary.capture.log.LogCodec;
import dev.tributary.capture.log.LogPosition;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.generations.StreamId;
import dev.tributary.node.errors.StorageException;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.storage.StoreIterator;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CDC logs in the {@code cdc_log} column family: one log per table (log id = the table's
 * object number), partitioned by stream ID, ordered by time and batch sequence number.
 * Appends and the capture's checkpoint go in one WriteBatch. Thread-safe.
 */
public final class RocksDbCdcLog implements LogSink {
    private static final String CHECKPOINT = "ckpt/";
    private static final String TX_INDEX = "qtx/";
    private final NodeStore store;
    private final List<AppendListener> appendListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<Runnable> caughtUpListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public RocksDbCdcLog(NodeStore store) {
        this.store = store;
    }

    public static byte[] key(long logId, LogPosition p) {
        return ByteBuffer.allocate(44).putLong(logId).putLong(p.stream().high() ^ Long.MIN_VALUE).putLong(p.stream().low())
                .putLong(TimeUuids.micros(p.time())).putLong(p.time().getLeastSignificantBits())
                .putInt(p.batchSeqNo()).array();
    }

    public static LogPosition position(byte[] key) {
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
        if (logId >= CaptureProcesses.QUEUE_ID_BASE) {
            store.deleteRange(NodeStore.Family.META, transactionPrefix(logId), transactionKey(logId,
                    new ApplyPosition(dev.tributary.node.time.HybridLogicalClock.scnAt(cutoffMicros / 1000), "")), false);
        }
        return streams;
    }

    public void addAppendListener(AppendListener listener) {
        appendListeners.add(listener);
    }

    /** Told when a capture writing here has caught up further (see {@link LogSink#caughtUp}). */
    public void addCaughtUpListener(Runnable listener) {
        caughtUpListeners.add(listener);
    }

    @Override
    public void caughtUp(String captureName, long scn) {
        caughtUpListeners.forEach(Runnable::run);
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
            indexTransactions(b, records);
            b.put(store.handle(NodeStore.Family.META), Keys.meta(CHECKPOINT + captureName), Keys.scn(checkpointScn));
            store.write(b, false);
        } catch (RocksDBException e) {
            throw sinkFullIfNoSpace(StorageException.from("append to CDC log", e));
        } catch (StorageException e) {
            throw sinkFullIfNoSpace(e);
        }
    }

    /**
     * Indexes a queue's records by transaction, in the append's batch: {@code qtx/} · log id ·
     * commit SCN · transaction id → the positions of its LCRs, in enqueue order. Apply processes
     * read a queue through it in commit order — the log itself is ordered by stream and write
     * time, which a client's USING TIMESTAMP can put out of commit order. A capture appends a
     * transaction (one redo entry) whole in one append, so an entry is complete when written.
     */
    private void indexTransactions(WriteBatch b, List<LogRecord> records) throws RocksDBException {
        Map<String, List<LogRecord>> byTx = new LinkedHashMap<>();
        for (LogRecord r : records) {
            if (r.logId() >= CaptureProcesses.QUEUE_ID_BASE && r.isDelta()) {
                ApplyPosition p = ApplyPosition.of(r.lcr());
                byTx.computeIfAbsent(r.logId() + "/" + p, k -> new ArrayList<>()).add(r);
            }
        }
        for (List<LogRecord> tx : byTx.values()) {
            BinaryWriter w = new BinaryWriter(8 + tx.size() * 36);
            w.varint(tx.size());
            for (LogRecord r : tx) {
                w.raw(Arrays.copyOfRange(key(r.logId(), r.position()), 8, 44));
            }
            b.put(store.handle(NodeStore.Family.META), transactionKey(tx.get(0).logId(), ApplyPosition.of(tx.get(0).lcr())),
                    w.toByteArray());
        }
    }

    private static byte[] transactionPrefix(long logId) {
        byte[] p = Keys.meta(TX_INDEX);
        return ByteBuffer.allocate(p.length + 8).put(p).putLong(logId).array();
    }

    private static byte[] transactionKey(long logId, ApplyPosition p) {
        byte[] prefix = transactionPrefix(logId);
        byte[] tx = p.transactionId().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(prefix.length + 8 + tx.length).put(prefix).putLong(p.commitScn()).put(tx).array();
    }

    /**
     * The whole transactions of a queue after {@code after} (exclusive) in commit order, only
     * those committed at or below {@code maxScn}; at most {@code limit}.
     */
    public List<ApplyTransaction> readTransactions(long logId, ApplyPosition after, long maxScn, int limit) {
        List<ApplyTransaction> out = new ArrayList<>();
        byte[] prefix = transactionPrefix(logId);
        byte[] start = transactionKey(logId, after);
        try (StoreIterator it = store.iterator(NodeStore.Family.META)) {
            it.seek(start);
            if (it.isValid() && Arrays.equals(it.key(), start)) {
                it.next();
            }
            while (it.isValid() && Keys.hasPrefix(it.key(), prefix) && out.size() < limit) {
                ByteBuffer k = ByteBuffer.wrap(it.key(), prefix.length, it.key().length - prefix.length);
                long scn = k.getLong();
                if (scn > maxScn) {
                    break;
                }
                String txId = StandardCharsets.UTF_8.decode(k).toString();
                List<LogRecord> records = transactionRecords(logId, it.value());
                if (!records.isEmpty()) { // a retention purge took its records: nothing is left to apply
                    out.add(new ApplyTransaction(new ApplyPosition(scn, txId), records));
                }
                it.next();
            }
        }
        return out;
    }

    private List<LogRecord> transactionRecords(long logId, byte[] index) {
        BinaryReader r = new BinaryReader(index);
        int n = r.count();
        List<LogRecord> records = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] suffix = r.raw(36);
            byte[] k = ByteBuffer.allocate(44).putLong(logId).put(suffix).array();
            byte[] v = store.get(NodeStore.Family.CDC_LOG, k);
            if (v != null) {
                records.add(LogCodec.decodeBody(logId, position(k), v));
            }
        }
        return records;
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
                seekPast(it, logId, after);
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

    /** Positions {@code it} on the first record after {@code after} (a read resumes past what it returned). */
    private void seekPast(StoreIterator it, long logId, LogPosition after) {
        byte[] k = key(logId, after);
        it.seek(k);
        if (it.isValid() && java.util.Arrays.equals(it.key(), k)) {
            it.next();
        }
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
                seekPast(it, logId, after);
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
            byte[] tx = transactionPrefix(logId);
            b.deleteRange(store.handle(NodeStore.Family.META), tx, Keys.prefixEnd(tx));
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
