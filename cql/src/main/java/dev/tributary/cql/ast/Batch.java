package dev.tributary.cql.ast;

import java.util.List;
import java.util.Objects;

/**
 * {@code BEGIN [UNLOGGED|COUNTER] BATCH [USING TIMESTAMP t] stmt; ... APPLY BATCH}. The batch is
 * one statement for bind markers (they are numbered across its members). When the batch has a
 * timestamp, no member has one; a batch never has a TTL.
 */
public record Batch(BatchKind kind, Using using, List<ModificationStatement> statements) implements Statement {
    public Batch {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(using, "using");
        statements = List.copyOf(statements);
    }
}
