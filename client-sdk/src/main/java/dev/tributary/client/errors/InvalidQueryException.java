package dev.tributary.client.errors;

/** The statement parses but cannot run as written (code INVALID_REQUEST, or gRPC INVALID_ARGUMENT): wrong types, missing key columns, no keyspace selected, and the like. */
public class InvalidQueryException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public InvalidQueryException(String code, String message) {
        super(code, message);
    }

    public InvalidQueryException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
