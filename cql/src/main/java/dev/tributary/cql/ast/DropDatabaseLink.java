package dev.tributary.cql.ast;

import java.util.Objects;

/** {@code DROP DATABASE LINK [IF EXISTS] name}. */
public record DropDatabaseLink(boolean ifExists, String name) implements Statement {
    public DropDatabaseLink {
        Objects.requireNonNull(name, "name");
    }
}
