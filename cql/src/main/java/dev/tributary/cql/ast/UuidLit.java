package dev.tributary.cql.ast;

import java.util.Objects;
import java.util.UUID;

/** An unquoted UUID constant such as {@code 123e4567-e89b-12d3-a456-426614174000}. */
public record UuidLit(UUID value) implements Term {
    public UuidLit {
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String cql() {
        return value.toString();
    }
}
