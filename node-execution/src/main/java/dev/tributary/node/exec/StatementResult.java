package dev.tributary.node.exec;

import java.util.List;

/**
 * What a statement returns: rows (for SELECT and CALLs that return something), the session
 * after it, and for writes the commit SCN and transaction id.
 */
public record StatementResult(List<ResultColumn> columns, List<List<Object>> rows, boolean hasRows,
        SessionContext session, long commitScn, String transactionId, List<String> warnings) {
    public static StatementResult of(SessionContext s) {
        return new StatementResult(List.of(), List.of(), false, s, 0, "", List.of());
    }

    public static StatementResult rows(List<ResultColumn> columns, List<List<Object>> rows, SessionContext s,
            List<String> warnings) {
        return new StatementResult(columns, rows, true, s, 0, "", warnings);
    }

    public static StatementResult committed(SessionContext s, long scn, String txId) {
        return new StatementResult(List.of(), List.of(), false, s, scn, txId, List.of());
    }
}
