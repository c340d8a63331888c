package dev.tributary.client;

import dev.tributary.protocol.v1.Value;
import java.util.List;
import java.util.Objects;

/**
 * A prepared statement with its values bound, ready to run with {@code execute} or to add to a
 * batch. Immutable and thread-safe.
 *
 * <p>Each execution carries an idempotency key: a fresh random one, unless one was set with
 * {@link #withIdempotencyKey}. Running the same bound statement with the same key twice applies a
 * write once, which is what makes a retry after a timeout safe.
 */
public final class BoundStatement {
    private final PreparedStatement prepared;
    private final List<Value> values;
    private final String idempotencyKey;

    BoundStatement(PreparedStatement prepared, List<Value> values, String idempotencyKey) {
        this.prepared = prepared;
        this.values = List.copyOf(values);
        this.idempotencyKey = idempotencyKey;
    }

    public PreparedStatement prepared() {
        return prepared;
    }

    /** The key set with {@link #withIdempotencyKey}, or null (a fresh key per execution). */
    public String idempotencyKey() {
        return idempotencyKey;
    }

    /** This statement with a fixed idempotency key. */
    public BoundStatement withIdempotencyKey(String key) {
        Objects.requireNonNull(key, "key");
        if (key.isBlank()) {
            throw new IllegalArgumentException("an idempotency key must not be blank");
        }
        return new BoundStatement(prepared, values, key);
    }

    List<Value> wireValues() {
        return values;
    }

    /** The table and serialized partition key, or null when this statement is not routed. */
    dev.tributary.client.internal.RoutingKey routingKey() {
        return prepared.routingKey(values);
    }

    @Override
    public String toString() {
        return "BoundStatement[" + prepared.statement() + ", " + values.size() + " values]";
    }
}
