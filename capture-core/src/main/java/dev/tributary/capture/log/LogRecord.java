package dev.tributary.capture.log;

import dev.tributary.capture.lcr.Lcr;
import dev.tributary.capture.lcr.LcrColumn;
import java.util.List;

/**
 * One record of a CDC log. Row LCRs appear as their delta record (operation INSERT, UPDATE or
 * ROW_DELETE), optionally preceded by a PREIMAGE and followed by a POSTIMAGE record, exactly
 * as ScyllaDB's log table lays them out; DDL LCRs have no operation.
 *
 * @param logId       the log (a table's object number for its {@code _scylla_cdc_log})
 * @param position    stream, time and batch sequence number
 * @param operation   the cdc$operation, or null for a DDL LCR
 * @param endOfBatch  the last record of its transaction in this stream and time
 * @param ttlSeconds  the write's TTL (cdc$ttl), 0 for none
 * @param lcr         the LCR this record belongs to
 * @param image       the columns of a PREIMAGE/POSTIMAGE record, else null
 */
public record LogRecord(long logId, LogPosition position, CdcOperation operation, boolean endOfBatch,
        long ttlSeconds, Lcr lcr, List<LcrColumn> image) {
    public LogRecord {
        image = image == null ? null : List.copyOf(image);
    }

    /** True for the record that carries the LCR itself (not an image). */
    public boolean isDelta() {
        return operation != CdcOperation.PREIMAGE && operation != CdcOperation.POSTIMAGE;
    }
}
