package dev.tributary.node.apply;

import dev.tributary.capture.apply.ApplyDestination;
import dev.tributary.capture.apply.ApplyPolicy;
import java.util.List;

/**
 * An apply's destination as the node uses it: besides applying, it keeps the apply's error
 * queue, which lives in the destination so that a transaction enters it in the same destination
 * transaction that moves the progress past it.
 */
interface Destination extends ApplyDestination {
    /** The transactions in an apply's error queue, in commit order. */
    List<ErrorTransaction> errors(String apply);

    /**
     * Runs an error transaction again and removes it from the error queue, in one destination
     * transaction (dbms_apply_adm.execute_error); conflicts are resolved as the apply would.
     *
     * @return false when the error queue has no such transaction
     * @throws dev.tributary.capture.apply.ApplyErrorException when it fails again; it stays in the error queue
     */
    boolean executeError(String apply, String localTransactionId, ApplyPolicy policy);

    /** Removes a transaction from the error queue (dbms_apply_adm.delete_error); false when it is not there. */
    boolean deleteError(String apply, String localTransactionId);

    /**
     * dbms_streams_adm.instantiate_table's copy: creates the table when the destination has none,
     * with the source's columns and primary key, and writes every row, replacing a row the
     * destination holds under the same key.
     *
     * @return the rows written
     */
    long copyTable(String owner, String name, List<CopyColumn> columns, java.util.Iterator<java.util.Map<String, Object>> rows);
}
