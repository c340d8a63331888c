package dev.tributary.dictionary.errors;

/** A column name (or internal column number) is not part of the table consulted. */
public final class UnknownColumnException extends DictionaryException {
    private static final long serialVersionUID = 1L;
    private final String keyspace;
    private final String table;
    private final String column;

    public UnknownColumnException(String keyspace, String table, String column) {
        super("unknown column '" + column + "' in table " + keyspace + "." + table);
        this.keyspace = keyspace;
        this.table = table;
        this.column = column;
    }

    public String keyspace() {
        return keyspace;
    }

    public String table() {
        return table;
    }

    public String column() {
        return column;
    }
}
