package dev.tributary.node.errors;

import java.time.Duration;

/**
 * A request sent on to another node was not answered within the forward's deadline (the node's
 * {@code --forward-timeout}, or less when the client's own deadline ends sooner). For a write the
 * outcome is unknown, never "not applied": the peer may have it queued, or be paused mid-commit,
 * and apply it later; a retry with the same idempotency key applies it at most once.
 */
public final class ForwardTimeoutException extends TributaryException {
    private static final long serialVersionUID = 1L;

    private final String peer;
    private final String endpoint;
    private final boolean write;

    /**
     * @param peer     the host id of the node forwarded to (or its endpoint when the ring no longer names it)
     * @param endpoint where it was asked
     * @param waited   the deadline the forward was given
     * @param write    whether the request changes data (its outcome is then unknown)
     */
    public ForwardTimeoutException(String peer, String endpoint, Duration waited, boolean write) {
        super(ErrorCode.TIMEOUT, message(peer, endpoint, waited, write));
        this.peer = peer;
        this.endpoint = endpoint;
        this.write = write;
    }

    private static String message(String peer, String endpoint, Duration waited, boolean write) {
        String asked = "node " + peer + " (" + endpoint + ")";
        return write
                ? "the forward to " + asked + ", which owns the write's partitions, was not answered within "
                        + waited.toMillis() + " ms: the write's outcome is unknown (it may still be applied there); "
                        + "retry it with the same idempotency key, which applies it at most once"
                : "the forward of the read to " + asked + " was not answered within " + waited.toMillis()
                        + " ms; retry it";
    }

    /** The node forwarded to. */
    public String peer() {
        return peer;
    }

    public String endpoint() {
        return endpoint;
    }

    /** Whether the request was a write, whose outcome is then unknown. */
    public boolean write() {
        return write;
    }
}
