package dev.tributary.client.errors;

/** A row was asked for a column name or index it does not have; the message lists its columns. */
public class UnknownColumnException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnknownColumnException(String message) {
        super(message);
    }
}
