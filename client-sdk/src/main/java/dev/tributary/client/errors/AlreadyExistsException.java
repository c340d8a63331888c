package dev.tributary.client.errors;

/** The object a CREATE names already exists (code ALREADY_EXISTS); use IF NOT EXISTS to make the statement idempotent. */
public class AlreadyExistsException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public AlreadyExistsException(String code, String message) {
        super(code, message);
    }

    public AlreadyExistsException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
