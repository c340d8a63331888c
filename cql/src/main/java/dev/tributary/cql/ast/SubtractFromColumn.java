package dev.tributary.cql.ast;

import java.util.Objects;

/**
 * {@code col = col - term} (or {@code col -= term}): removes elements from a list or set, keys
 * (given as a set) from a map, or decrements a counter.
 */
public record SubtractFromColumn(String column, Term value) implements Assignment {
    public SubtractFromColumn {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(value, "value");
    }
}
