package dev.tributary.node.errors;

/** A node-level error with a stable reason code; the gRPC layer maps it to a Status. */
public class TributaryException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final ErrorCode code;

    public TributaryException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public TributaryException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
