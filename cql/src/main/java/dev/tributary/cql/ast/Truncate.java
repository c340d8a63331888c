package dev.tributary.cql.ast;

import java.util.Objects;

/** {@code TRUNCATE [TABLE] [ks.]t}. */
public record Truncate(QualifiedName name) implements Statement {
    public Truncate {
        Objects.requireNonNull(name, "name");
    }
}
