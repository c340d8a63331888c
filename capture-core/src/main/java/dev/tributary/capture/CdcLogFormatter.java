package dev.tributary.capture;

import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.CdcOperation;
import dev.tributary.capture.log.LogPosition;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.capture.redo.ColumnValue;
import dev.tributary.capture.redo.DdlChange;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.RowChange;
import dev.tributary.capture.redo.RowOperation;
import dev.tributary.dictionary.schema.CdcOptions;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.types.ValueCodec;
import dev.tributary.generations.Murmur3Partitioner;
import dev.tributary.generations.StreamId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Turns redo into LCRs and lays them out in a table's CDC log as ScyllaDB does: per row change
 * an optional preimage, the delta record, an optional postimage, numbered by
 * {@code cdc$batch_seq_no} within their stream and time. Stateless apart from its
 * configuration; thread-safe.
 */
public final class CdcLogFormatter {
    /** DDL LCRs of a table go to this reserved stream of its log (no token stream fits them). */
    public static final StreamId SCHEMA_STREAM = new StreamId(0L, 0L);

    private final String sourceDatabaseName;
    private final StreamRouter router;

    public CdcLogFormatter(String sourceDatabaseName, StreamRouter router) {
        this.sourceDatabaseName = sourceDatabaseName;
        this.router = router;
    }

    /** The same formatter for the redo of another database (a downstream capture's LCRs name their source). */
    public CdcLogFormatter forSource(String sourceDatabase) {
        return new CdcLogFormatter(sourceDatabase, router);
    }

    /** The row LCR of one change, resolved through {@code table} (the dictionary version at the change's SCN). */
    public RowLcr rowLcr(RedoEntry e, RowChange r, TableDef table) {
        List<LcrColumn> key = columns(table, r.key());
        List<LcrColumn> oldValues = null;
        List<LcrColumn> newValues = null;
        String command;
        switch (r.operation()) {
            case INSERT -> {
                command = RowLcr.INSERT;
                newValues = concat(key, columns(table, r.newValues()));
            }
            case UPDATE -> {
                command = RowLcr.UPDATE;
                newValues = concat(key, columns(table, r.newValues()));
                oldValues = concat(key, oldValuesFor(table, r));
            }
            case DELETE -> {
                command = RowLcr.DELETE;
                oldValues = concat(key, columns(table, r.oldValues()));
            }
            default -> throw new IllegalStateException(r.operation().toString());
        }
        return new RowLcr(sourceDatabaseName, command, table.keyspace(), table.name(), e.tag(), e.transactionId(),
                e.scn(), e.scn(), oldValues, newValues, List.of());
    }

    /** UPDATE old values: the changed columns' previous values, or the whole row with a full preimage. */
    private static List<LcrColumn> oldValuesFor(TableDef table, RowChange r) {
        if (table.options().cdc().preimage() == CdcOptions.Preimage.FULL) {
            return columns(table, r.oldValues());
        }
        java.util.Set<Integer> changed = new java.util.HashSet<>();
        for (ColumnValue c : r.newValues()) {
            changed.add(c.columnNumber());
        }
        List<ColumnValue> old = new ArrayList<>();
        for (ColumnValue c : r.oldValues()) {
            if (changed.contains(c.columnNumber())) {
                old.add(c);
            }
        }
        return columns(table, old);
    }

    /**
     * The LCR with the named columns' old values added where it lacks them (supplemental
     * logging: a subset rule reads its columns' old values even when an UPDATE did not change
     * them). The redo carries the whole old row, so nothing is read from the table.
     */
    public RowLcr withSupplementalOldValues(RowLcr lcr, RowChange r, TableDef table, java.util.Set<String> names) {
        if (lcr.oldValues() == null || names.isEmpty()) {
            return lcr;
        }
        List<LcrColumn> old = new ArrayList<>(lcr.oldValues());
        boolean added = false;
        for (ColumnValue v : r.oldValues()) {
            Optional<ColumnDef> def = table.columnByNumber(v.columnNumber());
            if (def.isPresent() && names.contains(def.get().name()) && RowLcr.find(old, def.get().name()) == null) {
                old.addAll(columns(table, List.of(v)));
                added = true;
            }
        }
        return added ? new RowLcr(lcr.sourceDatabaseName(), lcr.commandType(), lcr.objectOwner(), lcr.objectName(), lcr.tag(),
                lcr.transactionId(), lcr.scn(), lcr.commitScn(), old, lcr.newValues(), lcr.extra()) : lcr;
    }

    public DdlLcr ddlLcr(RedoEntry e) {
        DdlChange d = e.ddl();
        return new DdlLcr(sourceDatabaseName, d.commandType(), d.objectOwner(), d.objectName(), d.objectType(),
                d.ddlText(), e.session().username(), d.currentSchema(), d.baseTableOwner(), d.baseTableName(),
                e.tag(), e.transactionId(), e.scn(), List.of());
    }

    /**
     * Where in time a change is logged: at its write timestamp, but never before its commit. A
     * write {@code USING TIMESTAMP} in the past keeps that timestamp as its cells' write time (last
     * write wins is unchanged) and is logged at the commit SCN's time, so every record a commit
     * adds lies at or above that SCN's time: a consumer's safe time is then the capture's caught-up
     * SCN itself, with no window for late client timestamps to trail it by. A timestamp in the
     * future is kept: its record waits, above the safe time, until the time comes.
     */
    public static long logMicros(long writeTimeMicros, long commitScn) {
        return Math.max(writeTimeMicros, Scns.micros(commitScn));
    }

    /**
     * The log records of the row changes of {@code e} that belong to {@code table}, in order.
     * Records of one transaction sharing a stream and a time are numbered 0, 1, ... and the last
     * one ends the batch.
     */
    public List<LogRecord> rowRecords(RedoEntry e, TableDef table, List<RowChange> changes) {
        CdcOptions cdc = table.options().cdc();
        List<LogRecord> out = new ArrayList<>();
        Map<StreamAndTime, Integer> seq = new HashMap<>();
        Map<StreamAndTime, Integer> lastIndex = new LinkedHashMap<>();
        for (RowChange r : changes) {
            RowLcr lcr = rowLcr(e, r, table);
            long token = Murmur3Partitioner.token(r.partitionKey());
            long micros = logMicros(r.writeTimeMicros(), e.scn());
            StreamId stream = router.streamFor(table, token, Math.floorDiv(micros, 1000));
            UUID time = TimeUuids.of(micros, lsbOf(e));
            StreamAndTime st = new StreamAndTime(stream, time);
            List<LcrColumn> key = columns(table, r.key());
            boolean existed = r.operation() != RowOperation.INSERT;
            if (cdc.preimage() != CdcOptions.Preimage.OFF && existed) {
                List<LcrColumn> pre = cdc.preimage() == CdcOptions.Preimage.FULL
                        ? concat(key, columns(table, r.oldValues())) : lcr.oldValues();
                out.add(record(table.objectNumber(), st, seq, lastIndex, out.size(), CdcOperation.PREIMAGE, r, lcr, pre));
            }
            CdcOperation op = switch (r.operation()) {
                case INSERT -> CdcOperation.INSERT;
                case UPDATE -> CdcOperation.UPDATE;
                case DELETE -> CdcOperation.ROW_DELETE;
            };
            List<LcrColumn> deltaImage = cdc.delta() == CdcOptions.Delta.KEYS ? key : null;
            out.add(record(table.objectNumber(), st, seq, lastIndex, out.size(), op, r, lcr, deltaImage));
            if (cdc.postimage() && r.operation() != RowOperation.DELETE) {
                out.add(record(table.objectNumber(), st, seq, lastIndex, out.size(), CdcOperation.POSTIMAGE, r, lcr,
                        postimage(table, r)));
            }
        }
        markEndsOfBatch(out, lastIndex);
        return out;
    }

    /** A row change a capture's rules kept, with the LCR they made of it (possibly transformed). */
    public record KeptChange(RowChange change, TableDef table, RowLcr lcr) {
    }

    /**
     * The records of kept row LCRs in a queue: one record per LCR (no images), in the stream of
     * the change's partition key, numbered within stream and time like the table logs. A change
     * made before the table's first stream set (a table without CDC takes writes from the start,
     * and USING TIMESTAMP may reach back) is placed at that set's start: a table's log refuses
     * such a write, but a capture must not stop at it; its LCR keeps its own SCN.
     */
    public List<LogRecord> queueRecords(RedoEntry e, long queueId, List<KeptChange> kept) {
        List<LogRecord> out = new ArrayList<>();
        Map<StreamAndTime, Integer> seq = new HashMap<>();
        Map<StreamAndTime, Integer> lastIndex = new LinkedHashMap<>();
        for (KeptChange k : kept) {
            RowChange r = k.change();
            long token = Murmur3Partitioner.token(r.partitionKey());
            long micros = logMicros(r.writeTimeMicros(), e.scn());
            java.util.OptionalLong first = router.firstMillis(k.table());
            if (first.isPresent() && micros < first.getAsLong() * 1000) {
                micros = first.getAsLong() * 1000;
            }
            StreamId stream = router.streamFor(k.table(), token, Math.floorDiv(micros, 1000));
            StreamAndTime st = new StreamAndTime(stream, TimeUuids.of(micros, lsbOf(e)));
            CdcOperation op = switch (k.lcr().commandType()) {
                case RowLcr.INSERT -> CdcOperation.INSERT;
                case RowLcr.DELETE -> CdcOperation.ROW_DELETE;
                default -> CdcOperation.UPDATE;
            };
            out.add(record(queueId, st, seq, lastIndex, out.size(), op, r, k.lcr(), null));
        }
        markEndsOfBatch(out, lastIndex);
        return out;
    }

    private static void markEndsOfBatch(List<LogRecord> out, Map<StreamAndTime, Integer> lastIndex) {
        for (int idx : lastIndex.values()) {
            LogRecord last = out.get(idx);
            out.set(idx, new LogRecord(last.logId(), last.position(), last.operation(), true, last.ttlSeconds(),
                    last.lcr(), last.image()));
        }
    }

    /** The DDL LCR record for a table's log. */
    public LogRecord ddlRecord(RedoEntry e, TableDef table) {
        return ddlRecord(e, table.objectNumber(), ddlLcr(e));
    }

    /** A DDL LCR in a log (a table's or a queue's), in the reserved schema stream. */
    public LogRecord ddlRecord(RedoEntry e, long logId, DdlLcr lcr) {
        UUID time = TimeUuids.of(Scns.micros(e.scn()), lsbOf(e));
        return new LogRecord(logId, new LogPosition(SCHEMA_STREAM, time, 0), null, true, 0, lcr, null);
    }

    private static LogRecord record(long logId, StreamAndTime st, Map<StreamAndTime, Integer> seq,
            Map<StreamAndTime, Integer> lastIndex, int index, CdcOperation op, RowChange r, RowLcr lcr,
            List<LcrColumn> image) {
        int n = seq.merge(st, 1, Integer::sum) - 1;
        lastIndex.put(st, index);
        return new LogRecord(logId, new LogPosition(st.stream, st.time, n), op, false,
                r.ttlSeconds(), lcr, image);
    }

    /** The row after the change: old row overlaid with the written columns. */
    private static List<LcrColumn> postimage(TableDef table, RowChange r) {
        Map<Integer, ColumnValue> after = new LinkedHashMap<>();
        for (ColumnValue c : r.oldValues()) {
            after.put(c.columnNumber(), c);
        }
        for (ColumnValue c : r.newValues()) {
            after.put(c.columnNumber(), c);
        }
        List<ColumnValue> ordered = new ArrayList<>();
        for (ColumnDef def : table.regularColumns()) {
            ColumnValue c = after.get(def.columnNumber());
            if (c != null) {
                ordered.add(c);
            }
        }
        return concat(columns(table, r.key()), columns(table, ordered));
    }

    /**
     * The least significant half of the records' timeuuids: unique per transaction on this node
     * and deterministic, so recapturing a transaction yields the same positions.
     */
    private static long lsbOf(RedoEntry e) {
        return lsb(e.session().threadNumber(), e.scn());
    }

    /**
     * The low half of an LCR's timeuuid: the redo thread (10 bits) and the commit SCN's low 52
     * bits. Threads are unique per node and SCNs per thread, so positions are unique in the log
     * even when two nodes commit at the same SCN; 52 bits of SCN wrap only after years, far beyond
     * the microsecond the timeuuid's high half already pins.
     */
    public static long lsb(int thread, long scn) {
        return ((thread & 0x3FFL) << 52) | (scn & ((1L << 52) - 1));
    }

    private static List<LcrColumn> columns(TableDef table, List<ColumnValue> values) {
        List<LcrColumn> out = new ArrayList<>(values.size());
        for (ColumnValue v : values) {
            ColumnDef def = table.columnByNumber(v.columnNumber()).orElseThrow(() -> new IllegalStateException(
                    "redo names column #" + v.columnNumber() + " which table " + table.qualifiedName()
                            + " does not have at that SCN"));
            out.add(new LcrColumn(def.name(), def.type(), v.value() == null ? null : ValueCodec.decode(def.type(), v.value())));
        }
        return out;
    }

    private static List<LcrColumn> concat(List<LcrColumn> a, List<LcrColumn> b) {
        List<LcrColumn> out = new ArrayList<>(a.size() + b.size());
        out.addAll(a);
        out.addAll(b);
        return out;
    }

    private record StreamAndTime(StreamId stream, UUID time) {
    }
}
