package dev.tributary.client.errors;

/** The write was refused before it was applied: its timestamp is too far from the node's clock (code WRITE_TIMESTAMP_OUT_OF_RANGE) or a value is larger than the node accepts (code VALUE_TOO_LARGE). */
public class WriteRejectedException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public WriteRejectedException(String code, String message) {
        super(code, message);
    }

    public WriteRejectedException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
