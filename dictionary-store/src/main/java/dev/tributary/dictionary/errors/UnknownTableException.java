package dev.tributary.dictionary.errors;

/**
 * A table is not in the dictionary (version) consulted: looked up by name, or by the object
 * number a redo record carries.
 */
public final class UnknownTableException extends DictionaryException {
    private static final long serialVersionUID = 1L;
    private final String keyspace;
    private final String table;
    private final long objectNumber;

    public UnknownTableException(String keyspace, String table) {
        super("unknown table " + keyspace + "." + table);
        this.keyspace = keyspace;
        this.table = table;
        this.objectNumber = -1;
    }

    public UnknownTableException(long objectNumber) {
        super("unknown table with object number " + objectNumber);
        this.keyspace = null;
        this.table = null;
        this.objectNumber = objectNumber;
    }

    /** The keyspace looked up, or {@code null} for a lookup by object number. */
    public String keyspace() {
        return keyspace;
    }

    /** The table looked up, or {@code null} for a lookup by object number. */
    public String table() {
        return table;
    }

    /** The object number looked up, or -1 for a lookup by name. */
    public long objectNumber() {
        return objectNumber;
    }
}
