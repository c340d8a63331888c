package dev.tributary.dictionary.errors;

/** A statement or dictionary change names a keyspace the dictionary does not hold. */
public final class UnknownKeyspaceException extends DictionaryException {
    private static final long serialVersionUID = 1L;
    private final String keyspace;

    public UnknownKeyspaceException(String keyspace) {
        super("unknown keyspace " + keyspace);
        this.keyspace = keyspace;
    }

    public String keyspace() {
        return keyspace;
    }
}
