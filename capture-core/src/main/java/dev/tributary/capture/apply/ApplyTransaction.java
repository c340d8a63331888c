package dev.tributary.capture.apply;

import dev.tributary.capture.lcr.Lcr;
import dev.tributary.capture.log.LogRecord;
import java.util.List;

/**
 * One source transaction as its queue holds it: its LCRs (the delta records, in the order the
 * capture enqueued them) under one commit SCN and transaction id. An apply process applies it
 * whole, as one destination transaction, or sends it whole to the error queue.
 */
public record ApplyTransaction(ApplyPosition position, List<LogRecord> records) {
    public ApplyTransaction {
        records = List.copyOf(records);
        if (records.isEmpty()) {
            throw new IllegalArgumentException("a transaction has at least one LCR");
        }
    }

    public List<Lcr> lcrs() {
        return records.stream().map(LogRecord::lcr).toList();
    }

    public String sourceDatabase() {
        return records.get(0).lcr().sourceDatabaseName();
    }

    /** The same transaction with only these of its records (what instantiation leaves to apply). */
    public ApplyTransaction with(List<LogRecord> kept) {
        return new ApplyTransaction(position, kept);
    }

    /**
     * The id the error queue knows it by (DBA_APPLY_ERROR.LOCAL_TRANSACTION_ID): unique within
     * a queue, since it is the transaction's place in commit order.
     */
    public String localTransactionId() {
        return position.commitScn() + "." + position.transactionId();
    }
}
