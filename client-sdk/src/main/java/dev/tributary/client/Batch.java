package dev.tributary.client;

import dev.tributary.protocol.v1.BatchStatement;
import java.util.List;

/**
 * Several statements run as one transaction (one transaction id, one commit SCN), built with
 * {@link BatchBuilder}. Immutable and thread-safe; each execution carries the idempotency key set
 * on the builder, or a fresh one.
 */
public final class Batch {
    private final List<String> texts;
    private final List<BatchStatement> statements;
    private final List<dev.tributary.client.internal.RoutingKey> routingKeys;
    private final String idempotencyKey;

    /**
     * @param texts       the distinct statement texts, which the statements name by index
     * @param routingKeys per statement, its serialized partition key or null (a text statement, or not routable)
     */
    Batch(List<String> texts, List<BatchStatement> statements, List<dev.tributary.client.internal.RoutingKey> routingKeys,
            String idempotencyKey) {
        this.texts = List.copyOf(texts);
        this.statements = List.copyOf(statements);
        this.routingKeys = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(routingKeys));
        this.idempotencyKey = idempotencyKey;
    }

    public int size() {
        return statements.size();
    }

    /** The statement texts, in order. */
    public List<String> statements() {
        return statements.stream().map(s -> texts.get(s.getTextIndex())).toList();
    }

    /** The fixed idempotency key, or null (a fresh key per execution). */
    public String idempotencyKey() {
        return idempotencyKey;
    }

    List<String> wireTexts() {
        return texts;
    }

    List<BatchStatement> wireStatements() {
        return statements;
    }

    List<dev.tributary.client.internal.RoutingKey> routingKeys() {
        return routingKeys;
    }

    @Override
    public String toString() {
        return "Batch" + statements();
    }
}
