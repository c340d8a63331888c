package dev.tributary.cql.ast;

import java.util.Objects;

/** A column named in {@code DELETE col, col[key] FROM ...}; {@link #element()} is null for a whole column. */
public record Selection(String column, Term element) {
    public Selection {
        Objects.requireNonNull(column, "column");
    }
}
