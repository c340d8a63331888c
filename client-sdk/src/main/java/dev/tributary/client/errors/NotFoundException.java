package dev.tributary.client.errors;

/** A named keyspace, table, type, queue, capture, rule or stream does not exist (code NOT_FOUND). */
public class NotFoundException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public NotFoundException(String code, String message) {
        super(code, message);
    }

    public NotFoundException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
