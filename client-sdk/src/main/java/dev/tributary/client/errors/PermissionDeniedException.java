package dev.tributary.client.errors;

/** The role lacks the permission a request needs (code PERMISSION_DENIED); the message names the permission and the object. */
public class PermissionDeniedException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public PermissionDeniedException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
