package dev.tributary.dictionary.io;

/** A stored record (redo, log, row, dictionary) that cannot be decoded: the store is damaged or of another format. */
public final class CorruptRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CorruptRecordException(String message) {
        super(message);
    }
}
