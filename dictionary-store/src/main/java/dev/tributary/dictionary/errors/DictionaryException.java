package dev.tributary.dictionary.errors;

/**
 * Root of the dictionary-store errors: schema lookups, schema validation, value validation and
 * the dictionary's binary codec. Every message names the keyspace, table, column or type
 * concerned, so a caller can show it as is.
 */
public abstract class DictionaryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    protected DictionaryException(String message) {
        super(message);
    }

    protected DictionaryException(String message, Throwable cause) {
        super(message, cause);
    }
}
