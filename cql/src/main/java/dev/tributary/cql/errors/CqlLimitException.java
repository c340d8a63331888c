package dev.tributary.cql.errors;

/**
 * The statement is valid but goes beyond a limit the node is configured with: a value larger
 * than the largest allowed, or a write timestamp too far from the node's clock. The message
 * names the value, the limit and the option that sets it.
 */
public final class CqlLimitException extends CqlException {
    private static final long serialVersionUID = 1L;

    /** Which limit: each is its own error code for the caller. */
    public enum Limit {
        /** {@code --max-value-bytes} */
        VALUE_SIZE,
        /** {@code --max-write-skew}, for USING TIMESTAMP */
        WRITE_TIMESTAMP_SKEW
    }

    private final Limit limit;

    public CqlLimitException(Limit limit, String message) {
        super(message);
        this.limit = limit;
    }

    public Limit limit() {
        return limit;
    }
}
