package dev.tributary.bench;

import dev.tributary.capture.CdcLogFormatter;
import dev.tributary.capture.CdcTableCapture;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.CdcOperation;
import dev.tributary.capture.log.LogCodec;
import dev.tributary.capture.log.LogPosition;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.capture.redo.ColumnValue;
import dev.tributary.capture.redo.RedoCodec;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.RowChange;
import dev.tributary.capture.redo.RowOperation;
import dev.tributary.capture.redo.SessionInfo;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.ValueCodec;
import dev.tributary.generations.Murmur3Partitioner;
import dev.tributary.generations.StreamId;
import dev.tributary.generations.VnodeTokens;
import dev.tributary.node.capture.RocksDbCdcLog;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.storage.StoredRow;
import dev.tributary.node.time.HybridLogicalClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The limit a node is measured against: the records a node writes for each row, written
 * straight into RocksDB from one thread, with no gRPC, no statement parsing, no capture reading
 * the redo back and no consumer.
 *
 * <p>It opens its store with {@link NodeStore#openSeparate} (the node's own DB and column-family
 * options and memory budget; a budget of its own, as the node, still open, holds part of the
 * process's) and encodes with the node's own formats ({@link StoredRow}, {@link RedoCodec}, {@link LogCodec},
 * {@link Keys}, {@link RocksDbCdcLog#key}), so the bytes are those of the node for the bench table:
 * per batch of K rows, one WriteBatch with K base rows and one redo record holding the K row
 * changes (the commit), then one WriteBatch with the K CDC log entries and the capture checkpoint
 * (the capture's append). {@link Durability#BATCH} fsyncs the WAL after every commit batch, as
 * the committer does; {@link Durability#PERIODIC} never fsyncs. With {@code updates} the rows are
 * preloaded first (not timed), then each is read and updated once, as the committer reads the old
 * row to log its old values. Warm-up rows (keys {@code rows ..}) are written first, untimed, as
 * the node's run writes them, so both stores hold the same records. Single-threaded.
 */
public final class RocksDbBaseline {
    /** The table's object number in the baseline store; any number works, the key layout is the same. */
    static final long OBJECT_NUMBER = 1_000;
    static final int PK_COLUMN = 0;
    static final int BUCKET_COLUMN = 1;
    static final int V_COLUMN = 2;
    private static final CqlType BIGINT = CqlType.of(CqlType.Kind.BIGINT);
    private static final CqlType INT = CqlType.of(CqlType.Kind.INT);
    private static final CqlType BLOB = CqlType.of(CqlType.Kind.BLOB);
    private static final byte[] CHECKPOINT_KEY = Keys.meta("ckpt/" + CdcTableCapture.NAME);
    private static final int THREAD_NUMBER = 1;

    /**
     * What to write.
     *
     * @param keyspace  the LCRs' object owner
     * @param table     the LCRs' object name
     * @param numTokens vnodes whose streams the log entries spread over, as a node's generation
     */
    public record Spec(long rows, long warmupRows, int rowBytes, int batch, Durability durability, boolean updates, int numTokens,
            String sourceDatabase, String keyspace, String table) {
    }

    /** The timed phase: rows written, in how many commit batches, how long it took. */
    public record Result(long rows, long transactions, long nanos) {
        public double seconds() {
            return nanos / 1e9;
        }

        public double rowsPerSecond() {
            return rows / seconds();
        }
    }

    private final Spec spec;
    private final long[] vnodeEnds;
    private final StreamId[] streams;
    private final SessionInfo session = new SessionInfo("anonymous", 1, 0, THREAD_NUMBER);
    private final HybridLogicalClock clock = HybridLogicalClock.system();

    public RocksDbBaseline(Spec spec) {
        this.spec = spec;
        SplittableRandom random = new SplittableRandom(42);
        List<Long> tokens = new ArrayList<>(VnodeTokens.pick(spec.numTokens(), random, new HashSet<>()));
        tokens.sort(null);
        vnodeEnds = tokens.stream().mapToLong(Long::longValue).toArray();
        streams = new StreamId[vnodeEnds.length];
        for (int i = 0; i < streams.length; i++) {
            // a stream's token lies inside its vnode, as the node's generations place them
            streams[i] = StreamId.create(vnodeEnds[i], i, random);
        }
    }

    /** Writes into a new store under {@code dir}; returns the timed phase. */
    public Result run(Path dir) {
        try (NodeStore store = NodeStore.openSeparate(dir.resolve("rocksdb"))) {
            // untimed, as in the node's run: the warm-up rows (other keys), then the preload
            write(store, spec.rows(), spec.warmupRows(), false);
            if (spec.updates()) {
                write(store, 0, spec.rows(), false);
            }
            long start = System.nanoTime();
            long transactions = write(store, 0, spec.rows(), spec.updates());
            long end = System.nanoTime();
            return new Result(spec.rows(), transactions, end - start);
        }
    }

    private long write(NodeStore store, long firstRow, long rows, boolean update) {
        long transactions = 0;
        for (long first = firstRow; first < firstRow + rows; first += spec.batch()) {
            long last = Math.min(firstRow + rows, first + spec.batch());
            commitAndCapture(store, first, last, update);
            transactions++;
        }
        return transactions;
    }

    private void commitAndCapture(NodeStore store, long first, long last, boolean update) {
        long scn = clock.next();
        long micros = HybridLogicalClock.microsOf(scn);
        String txId = THREAD_NUMBER + "." + Long.toHexString(scn);
        List<RowChange> changes = new ArrayList<>((int) (last - first));
        List<LogRecord> log = new ArrayList<>((int) (last - first));
        Map<StreamId, Integer> seq = new HashMap<>();
        Map<StreamId, Integer> lastOfStream = new LinkedHashMap<>();
        UUID time = TimeUuids.of(micros, CdcLogFormatter.lsb(THREAD_NUMBER, scn));
        try (WriteBatch commit = new WriteBatch(); WriteBatch append = new WriteBatch()) {
            for (long row = first; row < last; row++) {
                byte[] pk = ValueCodec.encode(BIGINT, row);
                long token = Murmur3Partitioner.token(pk);
                byte[] key = Keys.rowKey(OBJECT_NUMBER, token, pk, List.of());
                int bucket = BenchRows.bucket(row);
                byte[] bucketBytes = ValueCodec.encode(INT, bucket);
                byte[] v = BenchRows.payload(row, update ? 1 : 0, spec.rowBytes());
                List<ColumnValue> keyColumns = List.of(new ColumnValue(PK_COLUMN, pk));
                RowLcr lcr;
                Map<Integer, StoredRow.Cell> cells = new LinkedHashMap<>();
                long marker;
                if (update) {
                    byte[] oldBytes = store.get(NodeStore.Family.ROWS, key);
                    StoredRow old = StoredRow.decode(oldBytes);
                    cells.putAll(old.cells());
                    cells.put(V_COLUMN, new StoredRow.Cell(v, micros, 0));
                    marker = old.markerWriteTime();
                    List<ColumnValue> oldValues = new ArrayList<>();
                    for (Map.Entry<Integer, StoredRow.Cell> e : old.cells().entrySet()) {
                        oldValues.add(new ColumnValue(e.getKey(), e.getValue().value()));
                    }
                    changes.add(new RowChange(OBJECT_NUMBER, RowOperation.UPDATE, pk, keyColumns,
                            List.of(new ColumnValue(V_COLUMN, v)), oldValues, micros, 0));
                    LcrColumn pkColumn = new LcrColumn("pk", BIGINT, row);
                    lcr = new RowLcr(spec.sourceDatabase(), RowLcr.UPDATE, spec.keyspace(), spec.table(), null, txId, scn, scn,
                            List.of(pkColumn, new LcrColumn("v", BLOB, Blob.of(old.cells().get(V_COLUMN).value()))),
                            List.of(pkColumn, new LcrColumn("v", BLOB, Blob.of(v))), List.of());
                } else {
                    cells.put(BUCKET_COLUMN, new StoredRow.Cell(bucketBytes, micros, 0));
                    cells.put(V_COLUMN, new StoredRow.Cell(v, micros, 0));
                    marker = micros;
                    changes.add(new RowChange(OBJECT_NUMBER, RowOperation.INSERT, pk, keyColumns,
                            List.of(new ColumnValue(BUCKET_COLUMN, bucketBytes), new ColumnValue(V_COLUMN, v)), List.of(),
                            micros, 0));
                    lcr = new RowLcr(spec.sourceDatabase(), RowLcr.INSERT, spec.keyspace(), spec.table(), null, txId, scn, scn,
                            null, List.of(new LcrColumn("pk", BIGINT, row), new LcrColumn("bucket", INT, bucket),
                                    new LcrColumn("v", BLOB, Blob.of(v))), List.of());
                }
                commit.put(store.handle(NodeStore.Family.ROWS), key, new StoredRow(marker, 0, cells).encode());
                StreamId stream = streamFor(token);
                int n = seq.merge(stream, 1, Integer::sum) - 1;
                lastOfStream.put(stream, log.size());
                log.add(new LogRecord(OBJECT_NUMBER, new LogPosition(stream, time, n),
                        update ? CdcOperation.UPDATE : CdcOperation.INSERT, false, 0, lcr, null));
            }
            RedoEntry entry = new RedoEntry(scn, txId, null, session, changes, null);
            commit.put(store.handle(NodeStore.Family.REDO), Keys.scn(scn), RedoCodec.encode(entry));
            store.write(commit, false);
            if (spec.durability() == Durability.BATCH) {
                store.syncWal();
            }
            for (int idx : lastOfStream.values()) {
                LogRecord r = log.get(idx);
                log.set(idx, new LogRecord(r.logId(), r.position(), r.operation(), true, r.ttlSeconds(), r.lcr(), r.image()));
            }
            BinaryWriter scratch = new BinaryWriter(1024); // as RocksDbCdcLog encodes an append
            for (LogRecord r : log) {
                append.put(store.handle(NodeStore.Family.CDC_LOG), RocksDbCdcLog.key(r.logId(), r.position()),
                        LogCodec.encodeBody(r, scratch));
            }
            append.put(store.handle(NodeStore.Family.META), CHECKPOINT_KEY, Keys.scn(scn));
            store.write(append, false);
        } catch (RocksDBException e) {
            throw new BenchFailedException("baseline write failed: " + e.getMessage(), e);
        }
    }

    /** The stream of the vnode holding {@code token}: the first vnode end at or above it, wrapping. */
    StreamId streamFor(long token) {
        int i = Arrays.binarySearch(vnodeEnds, token);
        if (i < 0) {
            i = -i - 1;
        }
        return streams[i == vnodeEnds.length ? 0 : i];
    }
}
