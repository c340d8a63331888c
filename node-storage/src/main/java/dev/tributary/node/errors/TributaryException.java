package dev.tributary.node.errors;

/** A node-level error with a stable reason code; the gRPC layer maps it to a Status. */
public class TributaryException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final ErrorCode code;
    private final boolean notApplied;

    public TributaryException(ErrorCode code, String message) {
        this(code, message, null, false);
    }

    public TributaryException(ErrorCode code, String message, Throwable cause) {
        this(code, message, cause, false);
    }

    private TributaryException(ErrorCode code, String message, Throwable cause, boolean notApplied) {
        super(message, cause);
        this.code = code;
        this.notApplied = notApplied;
    }

    /**
     * An error raised before the request changed anything (a check ahead of the commit): whatever
     * its code says about retrying, a client knows the request was not applied.
     */
    public static TributaryException beforeApplying(ErrorCode code, String message) {
        return new TributaryException(code, message, null, true);
    }

    /** Whether the request was certainly not applied ({@link #beforeApplying}). */
    public boolean notApplied() {
        return notApplied;
    }

    public ErrorCode code() {
        return code;
    }
}
