package dev.tributary.client;

import dev.tributary.protocol.v1.BatchStatement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Collects the statements of a {@link Batch}: statement texts with optional positional values
 * (sent by their Java class; the server types them) and bound prepared statements (sent as their
 * text and values). Each distinct text goes on the wire once per batch. Not thread-safe;
 * {@link #build()} gives an immutable batch.
 */
public final class BatchBuilder {
    private final Session session;
    private final List<BatchStatement> statements = new ArrayList<>();
    // statements name their text by index into texts
    private final List<String> texts = new ArrayList<>();
    private final Map<String, Integer> textIndex = new HashMap<>();
    private final List<dev.tributary.client.internal.RoutingKey> routingKeys = new ArrayList<>();
    private String idempotencyKey;

    BatchBuilder(Session session) {
        this.session = session;
    }

    /** Adds a statement text with values for its {@code ?} markers. */
    public BatchBuilder add(String statement, Object... values) {
        Objects.requireNonNull(statement, "statement");
        BatchStatement.Builder b = BatchStatement.newBuilder().setTextIndex(indexOf(statement));
        Object[] vs = values == null ? new Object[] {null} : values;
        for (int i = 0; i < vs.length; i++) {
            b.addBoundValues(ValueCodec.encode(vs[i], null, "value " + i + " of batch statement '" + statement + "'"));
        }
        statements.add(b.build());
        routingKeys.add(null);
        return this;
    }

    /** Adds a bound prepared statement. */
    public BatchBuilder add(BoundStatement bound) {
        Objects.requireNonNull(bound, "bound");
        statements.add(BatchStatement.newBuilder().setTextIndex(indexOf(bound.prepared().statement()))
                .addAllBoundValues(bound.wireValues()).build());
        routingKeys.add(bound.routingKey());
        return this;
    }

    private int indexOf(String text) {
        return textIndex.computeIfAbsent(text, t -> {
            texts.add(t);
            return texts.size() - 1;
        });
    }

    /** Sends the batch with this idempotency key (see {@link BoundStatement#withIdempotencyKey}). */
    public BatchBuilder idempotencyKey(String key) {
        Objects.requireNonNull(key, "key");
        if (key.isBlank()) {
            throw new IllegalArgumentException("an idempotency key must not be blank");
        }
        this.idempotencyKey = key;
        return this;
    }

    /**
     * The batch so far.
     *
     * @throws IllegalStateException when no statement was added
     */
    public Batch build() {
        if (statements.isEmpty()) {
            throw new IllegalStateException("a batch needs at least one statement");
        }
        return new Batch(texts, statements, routingKeys, idempotencyKey);
    }

    /** Builds the batch and runs it in the session this builder came from. */
    public ResultSet execute() {
        return session.execute(build());
    }
}
