package dev.tributary.cql.ast;

import java.util.List;

/** {@code DROP col} or {@code DROP (col, ...)}; names are distinct. */
public record DropColumns(List<String> columns) implements AlterAction {
    public DropColumns {
        columns = List.copyOf(columns);
    }
}
