package dev.tributary.dictionary.errors;

/**
 * Bytes read as an encoded dictionary change or dictionary build are corrupt, truncated, of an
 * unknown format, or describe an inconsistent schema. The redo that carried them cannot be used
 * to rebuild the dictionary; a capture must start from another dictionary build.
 */
public final class DictionaryCodecException extends DictionaryException {
    private static final long serialVersionUID = 1L;

    public DictionaryCodecException(String message) {
        super(message);
    }

    public DictionaryCodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
