package dev.tributary.client;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Logical Change Record as read from a change stream: the Java view of the wire {@code Lcr}.
 * Immutable; the tag is copied in and handed out as fresh read-only views. String attributes
 * the server left empty are null.
 *
 * @param lcr           {@code ROW} or {@code DDL} (other kinds a newer server sends pass through)
 * @param commandType   INSERT, UPDATE, DELETE, LOB WRITE, LOB ERASE, LOB TRIM, or a DDL command
 *                      such as {@code CREATE TABLE}
 * @param tag           the session tag of the change, or null when it had none
 * @param oldValues     column values before the change, in column order, or null (INSERT, DDL)
 * @param newValues     column values after the change, or null (DELETE, DDL). A record read from a
 *                      change stream decodes each value when it is first read, so a value the SDK
 *                      cannot decode throws {@link dev.tributary.client.errors.ValueConversionException}
 *                      there, naming the LCR and the column
 * @param position      where the LCR sits in its log, or null when the server gave none
 * @param extra         the extra attributes included for the capture (row_id, serial#, session#,
 *                      thread#, tx_name, username), possibly empty
 */
public record ChangeRecord(
        String lcr,
        String sourceDatabaseName,
        String commandType,
        String objectOwner,
        String objectName,
        ByteBuffer tag,
        String transactionId,
        long scn,
        long commitScn,
        Map<String, Object> oldValues,
        Map<String, Object> newValues,
        LcrPosition position,
        boolean endOfBatch,
        Map<String, Object> extra,
        String objectType,
        String ddlText,
        String logonUser,
        String currentSchema,
        String baseTableOwner,
        String baseTableName) {

    public ChangeRecord {
        if (tag != null) {
            ByteBuffer d = tag.duplicate();
            ByteBuffer copy = ByteBuffer.allocate(d.remaining());
            copy.put(d).flip();
            tag = copy.asReadOnlyBuffer();
        }
        oldValues = oldValues == null ? null : readOnly(oldValues);
        newValues = newValues == null ? null : readOnly(newValues);
        extra = extra == null ? Map.of() : readOnly(extra);
    }

    /** Values read from the wire are kept as they came (read-only, decoded when read); others are copied. */
    private static Map<String, Object> readOnly(Map<String, Object> values) {
        return values instanceof LazyFields ? values : Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** A fresh read-only view of the tag, or null. */
    @Override
    public ByteBuffer tag() {
        return tag == null ? null : tag.asReadOnlyBuffer();
    }

    /** {@code ChangeRecord} followed by the JSON form. */
    @Override
    public String toString() {
        return "ChangeRecord" + toJson();
    }

    public boolean isRow() {
        return "ROW".equals(lcr);
    }

    /**
     * The commit SCN's time in microseconds since the epoch (its physical milliseconds, plus its
     * logical counter up to 999 µs, as the node converts it): the earliest log time of any LCR of
     * the transaction. See {@link ChangeConsumer#wholeTransactionsBelowMicros()}.
     */
    public long commitMicros() {
        return WholeTransactions.commitMicros(commitScn);
    }

    public boolean isDdl() {
        return "DDL".equals(lcr);
    }

    /**
     * The JSON form of docs/REFERENCE.md, "LCRs", one line. A row LCR: {@code lcr,
     * source_database_name, command_type, object_owner, object_name, tag, transaction_id, scn,
     * commit_scn, old_values, new_values, stream_id, time, batch_seq_no, end_of_batch, extra}; a
     * DDL LCR: {@code lcr, source_database_name, command_type, object_owner, object_name,
     * object_type, ddl_text, logon_user, current_schema, base_table_owner, base_table_name, tag,
     * transaction_id, scn, commit_scn, stream_id, time, batch_seq_no, end_of_batch, extra}. Values
     * follow section 2; the tag and stream id are {@code 0x...} strings or null.
     */
    public String toJson() {
        return Json.object(f -> {
            f.field("lcr", lcr);
            f.field("source_database_name", sourceDatabaseName);
            f.field("command_type", commandType);
            f.field("object_owner", objectOwner);
            f.field("object_name", objectName);
            if (!isRow()) {
                f.field("object_type", objectType);
                f.field("ddl_text", ddlText);
                f.field("logon_user", logonUser);
                f.field("current_schema", currentSchema);
                f.field("base_table_owner", baseTableOwner);
                f.field("base_table_name", baseTableName);
            }
            f.field("tag", tag);
            f.field("transaction_id", transactionId);
            f.field("scn", scn);
            f.field("commit_scn", commitScn);
            if (isRow()) {
                f.field("old_values", oldValues);
                f.field("new_values", newValues);
            }
            f.field("stream_id", position == null ? null : position.streamId());
            f.field("time", position == null ? null : position.time());
            f.field("batch_seq_no", position == null ? null : position.batchSeqNo());
            f.field("end_of_batch", endOfBatch);
            f.field("extra", extra);
        });
    }
}
