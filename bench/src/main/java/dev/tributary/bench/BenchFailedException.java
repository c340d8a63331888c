package dev.tributary.bench;

/** A run that could not complete (a write failed, the consumer stalled, a node did not start); the message says which. */
public final class BenchFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BenchFailedException(String message) {
        super(message);
    }

    public BenchFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
