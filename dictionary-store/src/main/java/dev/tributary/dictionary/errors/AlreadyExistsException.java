package dev.tributary.dictionary.errors;

/**
 * A keyspace, table, user type or column is created under a name already in use. A statement
 * with {@code IF NOT EXISTS} turns this into a no-op.
 */
public final class AlreadyExistsException extends DictionaryException {
    private static final long serialVersionUID = 1L;

    /** What kind of object collided. */
    public enum ObjectKind { KEYSPACE, TABLE, TYPE, COLUMN }

    private final ObjectKind kind;
    private final String keyspace;
    private final String name;
    private final String column;

    private AlreadyExistsException(ObjectKind kind, String keyspace, String name, String column, String message) {
        super(message);
        this.kind = kind;
        this.keyspace = keyspace;
        this.name = name;
        this.column = column;
    }

    public static AlreadyExistsException keyspace(String keyspace) {
        return new AlreadyExistsException(ObjectKind.KEYSPACE, keyspace, null, null,
                "keyspace " + keyspace + " already exists");
    }

    public static AlreadyExistsException table(String keyspace, String table) {
        return new AlreadyExistsException(ObjectKind.TABLE, keyspace, table, null,
                "table " + keyspace + "." + table + " already exists");
    }

    public static AlreadyExistsException type(String keyspace, String type) {
        return new AlreadyExistsException(ObjectKind.TYPE, keyspace, type, null,
                "type " + keyspace + "." + type + " already exists");
    }

    public static AlreadyExistsException column(String keyspace, String table, String column) {
        return new AlreadyExistsException(ObjectKind.COLUMN, keyspace, table, column,
                "column '" + column + "' already exists in table " + keyspace + "." + table);
    }

    public ObjectKind kind() {
        return kind;
    }

    public String keyspace() {
        return keyspace;
    }

    /** The table or type name; {@code null} for a keyspace. */
    public String name() {
        return name;
    }

    /** The column name for {@link ObjectKind#COLUMN}, else {@code null}. */
    public String column() {
        return column;
    }
}
