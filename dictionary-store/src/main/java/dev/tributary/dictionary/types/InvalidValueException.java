package dev.tributary.dictionary.types;

import dev.tributary.dictionary.errors.DictionaryException;


/**
 * A Java value does not fit the value model for a column's CQL type (wrong class, a null inside a
 * collection, an out-of-range date, ...).
 */
public final class InvalidValueException extends DictionaryException {
    private static final long serialVersionUID = 1L;
    private final String column;
    private final transient CqlType type;

    /**
     * @param column the column the value was meant for, or {@code null} when there is none
     * @param type the column's type
     * @param detail what is wrong
     */
    public InvalidValueException(String column, CqlType type, String detail) {
        super((column == null ? "invalid value of type " + type.cql()
                : "invalid value for column '" + column + "' of type " + type.cql()) + ": " + detail);
        this.column = column;
        this.type = type;
    }

    /** The column, or {@code null}. */
    public String column() {
        return column;
    }

    public CqlType type() {
        return type;
    }
}
