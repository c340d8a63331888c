package dev.tributary.cql.ast;

import java.util.Objects;

/** {@code DROP KEYSPACE [IF EXISTS] name}. */
public record DropKeyspace(boolean ifExists, String name) implements Statement {
    public DropKeyspace {
        Objects.requireNonNull(name, "name");
    }
}
