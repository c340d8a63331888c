package dev.tributary.dictionary.errors;

/**
 * A schema definition or change breaks a rule (a collection in a key, a counter mixed with other
 * columns, a bad table option, a key column dropped...). The message names the object and the
 * rule; the definition must be corrected before it is retried.
 */
public final class InvalidSchemaException extends DictionaryException {
    private static final long serialVersionUID = 1L;

    public InvalidSchemaException(String message) {
        super(message);
    }
}
