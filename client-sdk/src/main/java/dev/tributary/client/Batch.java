package dev.tributary.client;

import dev.tributary.protocol.v1.BatchStatement;
import java.util.List;

/**
 * Several statements run as one transaction (one transaction id, one commit SCN), built with
 * {@link BatchBuilder}. Immutable and thread-safe; each execution carries the idempotency key set
 * on the builder, or a fresh one.
 */
public final class Batch {
    private final List<BatchStatement> statements;
    private final String idempotencyKey;

    Batch(List<BatchStatement> statements, String idempotencyKey) {
        this.statements = List.copyOf(statements);
        this.idempotencyKey = idempotencyKey;
    }

    public int size() {
        return statements.size();
    }

    /** The statement texts, in order. */
    public List<String> statements() {
        return statements.stream().map(BatchStatement::getStatement).toList();
    }

    /** The fixed idempotency key, or null (a fresh key per execution). */
    public String idempotencyKey() {
        return idempotencyKey;
    }

    List<BatchStatement> wireStatements() {
        return statements;
    }

    @Override
    public String toString() {
        return "Batch" + statements();
    }
}
