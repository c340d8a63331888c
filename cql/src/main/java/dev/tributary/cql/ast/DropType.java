package dev.tributary.cql.ast;

import java.util.Objects;

/** {@code DROP TYPE [IF EXISTS] [ks.]name}. */
public record DropType(boolean ifExists, QualifiedName name) implements Statement {
    public DropType {
        Objects.requireNonNull(name, "name");
    }
}
