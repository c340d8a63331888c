package dev.tributary.capture.redo;

/** A redo log written in a format version this database cannot read (CAP-DS-4); the message says which. */
public final class UnsupportedRedoFormatException extends RuntimeException {
    public UnsupportedRedoFormatException(String message) {
        super(message);
    }
}
