package dev.tributary.capture.redo;

import java.util.Arrays;
import java.util.List;

/**
 * One committed transaction in the node's redo thread, written in the same RocksDB WriteBatch
 * as the base-row changes it describes, keyed by its commit SCN. A batch is one entry.
 *
 * @param scn            the commit SCN (a hybrid-logical-clock value)
 * @param transactionId  the transaction's id
 * @param tag            the session tag ({@code dbms_streams.set_tag}), or null
 * @param session        who made the change
 * @param rows           the changed rows, in statement order
 * @param ddl            the DDL statement, for a DDL entry (then {@code rows} is empty)
 * @param build          a part of a dictionary build, for a build entry (then {@code rows} is
 *                       empty and {@code ddl} null)
 */
public record RedoEntry(long scn, String transactionId, byte[] tag, SessionInfo session,
        List<RowChange> rows, DdlChange ddl, DictionaryBuildPart build) {
    public RedoEntry {
        rows = List.copyOf(rows);
    }

    /** A row or DDL entry. */
    public RedoEntry(long scn, String transactionId, byte[] tag, SessionInfo session, List<RowChange> rows, DdlChange ddl) {
        this(scn, transactionId, tag, session, rows, ddl, null);
    }

    public boolean isBuild() {
        return build != null;
    }

    public boolean isDdl() {
        return ddl != null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RedoEntry e && e.scn == scn && java.util.Objects.equals(e.transactionId, transactionId)
                && Arrays.equals(e.tag, tag) && java.util.Objects.equals(e.session, session) && e.rows.equals(rows)
                && java.util.Objects.equals(e.ddl, ddl) && java.util.Objects.equals(e.build, build);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(scn);
    }
}
