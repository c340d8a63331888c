package dev.tributary.cql.ast;

import java.util.Objects;

/** {@code col = term}. */
public record SetColumn(String column, Term value) implements Assignment {
    public SetColumn {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(value, "value");
    }
}
