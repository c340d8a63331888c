package dev.tributary.capture.lcr;

import java.util.List;

/**
 * A Logical Change Record: one change, described in logical terms (names, not numbers).
 * Immutable. See {@link RowLcr} and {@link DdlLcr}.
 */
public sealed interface Lcr permits RowLcr, DdlLcr {
    String sourceDatabaseName();

    String commandType();

    String objectOwner();

    String objectName();

    /** The tag of the session that made the change, or null. */
    byte[] tag();

    String transactionId();

    long scn();

    /** Extra attributes (row_id, serial#, session#, thread#, tx_name, username) that were included. */
    List<LcrColumn> extra();
}
