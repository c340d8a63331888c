package dev.tributary.capture.apply;

/**
 * The destination cannot be reached or lost the connection (a restarted PostgreSQL, a network
 * fault): nothing is wrong with the transaction, so the apply waits and tries again, first asking
 * the destination how far it got — a commit whose answer was lost may have happened.
 */
public final class DestinationUnavailableException extends RuntimeException {
    public DestinationUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
