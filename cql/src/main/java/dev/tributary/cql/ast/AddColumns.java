package dev.tributary.cql.ast;

import java.util.List;

/** {@code ADD col type [STATIC]} or {@code ADD (col type, ...)}; names are distinct. */
public record AddColumns(List<ColumnSpec> columns) implements AlterAction {
    public AddColumns {
        columns = List.copyOf(columns);
    }
}
