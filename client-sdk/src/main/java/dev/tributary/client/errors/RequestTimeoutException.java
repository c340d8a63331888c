package dev.tributary.client.errors;

/**
 * The request did not finish within the client's request timeout (code DEADLINE_EXCEEDED), or the
 * node it reached forwarded it to the node owning its partitions, which did not answer within the
 * forward's deadline (code TIMEOUT; the message names that node).
 *
 * <p>A write may still have been applied. Every request carries an idempotency key; sending the
 * same request again with {@link #idempotencyKey()} (see
 * {@code BoundStatement.withIdempotencyKey} and {@code BatchBuilder.idempotencyKey}) applies it
 * at most once.
 */
public class RequestTimeoutException extends TributaryException {
    private static final long serialVersionUID = 1L;

    private final String idempotencyKey;

    public RequestTimeoutException(String code, String message, String idempotencyKey, Throwable cause) {
        super(code, message, cause);
        this.idempotencyKey = idempotencyKey;
    }

    /** The idempotency key the timed-out request was sent with, or null for reads of changes. */
    public String idempotencyKey() {
        return idempotencyKey;
    }
}
