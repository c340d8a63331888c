package dev.tributary.cql.ast;

import java.util.Objects;

/** {@code 'text'} or {@code $$text$$}; {@link #value()} is the unescaped content. */
public record StringLit(String value) implements Term {
    public StringLit {
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String cql() {
        return "'" + value.replace("'", "''") + "'";
    }
}
