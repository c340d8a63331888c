package dev.tributary.cql.ast;

import java.util.Objects;

/** {@code col = term + col}: prepends to a list. */
public record PrependToColumn(String column, Term value) implements Assignment {
    public PrependToColumn {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(value, "value");
    }
}
