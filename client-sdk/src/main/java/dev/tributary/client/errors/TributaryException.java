package dev.tributary.client.errors;

/**
 * A request the server (or the client, on the server's behalf) refused or could not complete.
 *
 * <p>{@link #code()} is the stable reason code: the server's {@code tributary-error-code} trailer
 * (SYNTAX_ERROR, INVALID_REQUEST, NOT_FOUND, ALREADY_EXISTS, NO_CDC_STREAM,
 * WRITE_TIMESTAMP_OUT_OF_RANGE, VALUE_TOO_LARGE, UNAVAILABLE, UNAUTHENTICATED, PERMISSION_DENIED,
 * INTERNAL, ...) or, when the server sent none, the name of the gRPC status code (UNAVAILABLE, DEADLINE_EXCEEDED, INTERNAL, ...).
 * {@link #getMessage()} is the server's human message. Subclasses group the codes by what a caller
 * does next; a code this client does not know arrives as a plain {@code TributaryException}.
 */
public class TributaryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;

    public TributaryException(String code, String message) {
        this(code, message, null);
    }

    public TributaryException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** The stable reason code, e.g. {@code SYNTAX_ERROR}. */
    public String code() {
        return code;
    }
}
