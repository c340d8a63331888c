package dev.tributary.cql.ast;

import java.util.Objects;

/** {@code col[key] = term}: a map entry, or a list element by index. */
public record SetElement(String column, Term key, Term value) implements Assignment {
    public SetElement {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }
}
