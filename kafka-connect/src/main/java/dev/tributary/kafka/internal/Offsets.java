package dev.tributary.kafka.internal;

import dev.tributary.client.LcrPosition;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Source partitions and offsets: a partition is one CDC stream of one table, its offset the
 * position of the last LCR sent from it (its time and batch_seq_no) and the time below which the
 * stream is complete. A task resumes each stream just after its committed position.
 */
public final class Offsets {
    public static final String TABLE = "table";
    public static final String QUEUE = "queue";
    public static final String STREAM = "stream_id";
    public static final String TIME = "time";
    public static final String BATCH_SEQ_NO = "batch_seq_no";
    public static final String THROUGH_MICROS = "through_micros";
    /** The 100-ns intervals between the Gregorian epoch of time UUIDs and the Unix epoch. */
    private static final long UUID_EPOCH_OFFSET = 0x01B21DD213814000L;

    private Offsets() {
    }

    /** A stream of a table's CDC log. */
    public static Map<String, String> partition(String table, ByteBuffer streamId) {
        return partition(TABLE, table, streamId);
    }

    /**
     * A stream of a table's CDC log ({@link #TABLE}, "ks.t") or of a capture queue ({@link #QUEUE}, its
     * name). Its entries always iterate in this order: the worker finds a committed offset by the
     * partition's serialized bytes (the key converter writes a map's entries as they iterate), and
     * {@code Map.of} iterates in an order chosen per JVM, so a task on another worker asked for
     * different bytes, found no offset, and sent its streams again from the start.
     */
    public static Map<String, String> partition(String kind, String log, ByteBuffer streamId) {
        Map<String, String> p = new LinkedHashMap<>(4);
        p.put(kind, log);
        p.put(STREAM, hex(streamId));
        return Collections.unmodifiableMap(p);
    }

    public static final String SNAPSHOT = "snapshot";
    public static final String COMMIT_SCN = "commit_scn";
    public static final String TRANSACTION_ID = "transaction_id";

    /**
     * A capture queue read whole: {@code {"queue": "q1"}}. Its offset is the last transaction sent
     * ({@link #queueOffset}): the queue's transactions go out in commit order, so one point says
     * what was sent across all of its streams.
     */
    public static Map<String, String> queuePartition(String queue) {
        Map<String, String> p = new LinkedHashMap<>(2);
        p.put(QUEUE, queue);
        return Collections.unmodifiableMap(p);
    }

    /** Every transaction up to and including {@code through} (commit SCN, then id) is sent. */
    public static Map<String, Object> queueOffset(TransactionBuffer.TxKey through) {
        Map<String, Object> o = new LinkedHashMap<>(4);
        o.put(COMMIT_SCN, through.commitScn());
        o.put(TRANSACTION_ID, through.transactionId());
        return Collections.unmodifiableMap(o);
    }

    /** The last transaction a committed queue offset says was sent; {@link TransactionBuffer.TxKey#NONE} without one. */
    public static TransactionBuffer.TxKey queueThrough(Map<String, Object> offset) {
        if (offset == null || !(offset.get(COMMIT_SCN) instanceof Number scn)) {
            return TransactionBuffer.TxKey.NONE;
        }
        Object id = offset.get(TRANSACTION_ID);
        return new TransactionBuffer.TxKey(scn.longValue(), id == null ? "" : id.toString());
    }

    /**
     * The initial snapshot of a table: {@code {"table": "ks.t", "snapshot": "initial"}}, entries in
     * this order (see {@link #partition(String, String, ByteBuffer)}); its offset is a
     * {@link SnapshotProgress}.
     */
    public static Map<String, String> snapshotPartition(String table) {
        Map<String, String> p = new LinkedHashMap<>(4);
        p.put(TABLE, table);
        p.put(SNAPSHOT, "initial");
        return Collections.unmodifiableMap(p);
    }

    /** The offset after sending {@code last}; complete through its time. */
    public static Map<String, Object> offset(LcrPosition last) {
        return offset(last, micros(last.time()));
    }

    public static Map<String, Object> offset(LcrPosition last, long throughMicros) {
        if (last == null) {
            return Map.of(THROUGH_MICROS, throughMicros);
        }
        return Map.of(TIME, last.time().toString(), BATCH_SEQ_NO, last.batchSeqNo(), THROUGH_MICROS, throughMicros);
    }

    /** The position to resume after, from a committed offset. */
    public static Optional<LcrPosition> position(ByteBuffer streamId, Map<String, Object> offset) {
        if (offset == null || offset.get(TIME) == null) {
            return Optional.empty();
        }
        return Optional.of(new LcrPosition(streamId, UUID.fromString((String) offset.get(TIME)),
                ((Number) offset.get(BATCH_SEQ_NO)).intValue()));
    }

    public static long throughMicros(Map<String, Object> offset) {
        return offset == null || offset.get(THROUGH_MICROS) == null ? Long.MIN_VALUE
                : ((Number) offset.get(THROUGH_MICROS)).longValue();
    }

    /** A time UUID's timestamp in Unix microseconds. */
    public static long micros(UUID timeUuid) {
        return Math.floorDiv(timeUuid.timestamp() - UUID_EPOCH_OFFSET, 10);
    }

    public static String hex(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        byte[] bytes = new byte[d.remaining()];
        d.get(bytes);
        return hex(bytes);
    }

    public static String hex(byte[] b) {
        return "0x" + HexFormat.of().formatHex(b);
    }
}
