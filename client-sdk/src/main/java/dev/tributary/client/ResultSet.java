package dev.tributary.client;

import dev.tributary.protocol.v1.ColumnSpec;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Value;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The answer to one statement or batch: the rows of a SELECT (all of them, read when the answer
 * arrived), or, for a write, its commit SCN and transaction id; and the warnings the statement
 * produced. Immutable and thread-safe.
 */
public final class ResultSet implements Iterable<Row> {
    private final Columns columns;
    private final List<Row> rows;
    private final boolean hasRows;
    private final long commitScn;
    private final String transactionId;
    private final List<String> warnings;

    private ResultSet(Columns columns, List<Row> rows, boolean hasRows, long commitScn, String transactionId,
            List<String> warnings) {
        this.columns = columns;
        this.rows = List.copyOf(rows);
        this.hasRows = hasRows;
        this.commitScn = commitScn;
        this.transactionId = transactionId;
        this.warnings = List.copyOf(warnings);
    }

    static ResultSet of(ExecuteResponse response) {
        List<ColumnDefinition> defs = new ArrayList<>(response.getColumnsCount());
        for (ColumnSpec c : response.getColumnsList()) {
            defs.add(new ColumnDefinition(c.getName(), c.getType()));
        }
        Columns columns = new Columns(defs);
        List<Row> rows = new ArrayList<>(response.getRowsCount());
        int rowNumber = 0;
        for (dev.tributary.protocol.v1.Row r : response.getRowsList()) {
            if (r.getValuesCount() != defs.size()) {
                throw new dev.tributary.client.errors.ValueConversionException("row " + rowNumber + " has "
                        + r.getValuesCount() + " values but the result has " + defs.size() + " columns");
            }
            Object[] values = new Object[defs.size()];
            for (int i = 0; i < values.length; i++) {
                Value v = r.getValues(i);
                values[i] = ValueCodec.decode(v, defs.get(i).cqlType(), "column '" + defs.get(i).name() + "'");
            }
            rows.add(new Row(columns, values));
            rowNumber++;
        }
        boolean hasRows = response.getHasRows() || response.getRowsCount() > 0;
        String tx = response.getTransactionId().isEmpty() ? null : response.getTransactionId();
        return new ResultSet(columns, rows, hasRows, response.getCommitScn(), tx, response.getWarningsList());
    }

    /** Whether the statement returns rows (a SELECT that matched nothing does, with none). */
    public boolean hasRows() {
        return hasRows;
    }

    public List<ColumnDefinition> columns() {
        return columns.definitions();
    }

    @Override
    public Iterator<Row> iterator() {
        return rows.iterator();
    }

    /** The first row, or null when there is none. */
    public Row one() {
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** All rows, unmodifiable. */
    public List<Row> all() {
        return rows;
    }

    public int size() {
        return rows.size();
    }

    /** The commit SCN a write was given; 0 for statements that write nothing. */
    public long commitScn() {
        return commitScn;
    }

    /** The transaction id a write was given, or null for statements that write nothing. */
    public String transactionId() {
        return transactionId;
    }

    public List<String> warnings() {
        return warnings;
    }

    @Override
    public String toString() {
        return hasRows ? "ResultSet[" + rows.size() + " rows]" : "ResultSet[commitScn=" + commitScn + ", tx=" + transactionId + "]";
    }
}
