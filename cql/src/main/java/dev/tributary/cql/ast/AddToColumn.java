package dev.tributary.cql.ast;

import java.util.Objects;

/**
 * {@code col = col + term} (or {@code col += term}): appends to a list, adds to a set or map, or
 * increments a counter.
 */
public record AddToColumn(String column, Term value) implements Assignment {
    public AddToColumn {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(value, "value");
    }
}
