package dev.tributary.cql.ast;

import java.util.Objects;

/** A single column. */
public record ColumnLhs(String column) implements Lhs {
    public ColumnLhs {
        Objects.requireNonNull(column, "column");
    }
}
