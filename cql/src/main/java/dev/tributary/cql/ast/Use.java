package dev.tributary.cql.ast;

import java.util.Objects;

/** {@code USE keyspace}. */
public record Use(String keyspace) implements Statement {
    public Use {
        Objects.requireNonNull(keyspace, "keyspace");
    }
}
