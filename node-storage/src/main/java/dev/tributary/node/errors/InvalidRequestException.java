package dev.tributary.node.errors;

/** A statement that is well-formed but cannot be run as written. */
public final class InvalidRequestException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public InvalidRequestException(String message) {
        super(ErrorCode.INVALID_REQUEST, message);
    }

    public InvalidRequestException(ErrorCode code, String message) {
        super(code, message);
    }
}
