package dev.tributary.cql.ast;

import java.util.Objects;

/** {@code DROP TABLE [IF EXISTS] [ks.]t}. */
public record DropTable(boolean ifExists, QualifiedName name) implements Statement {
    public DropTable {
        Objects.requireNonNull(name, "name");
    }
}
