package dev.tributary.cql.ast;

import java.util.Map;
import java.util.Objects;

/**
 * {@code CREATE KEYSPACE [IF NOT EXISTS] name WITH replication = {...} [AND tablets = {...}]}.
 * {@link #properties()} maps each lowercased property name to its value term (usually a
 * {@link MapLit} or a {@link BooleanLit}), in the order written.
 */
public record CreateKeyspace(boolean ifNotExists, String name, Map<String, Term> properties) implements Statement {
    public CreateKeyspace {
        Objects.requireNonNull(name, "name");
        properties = Properties.copy(properties);
    }
}
