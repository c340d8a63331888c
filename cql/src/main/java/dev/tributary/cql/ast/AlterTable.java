package dev.tributary.cql.ast;

import java.util.Objects;

/** {@code ALTER TABLE [ks.]t ADD ... | DROP ... | WITH ...}. */
public record AlterTable(QualifiedName name, AlterAction action) implements Statement {
    public AlterTable {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(action, "action");
    }
}
