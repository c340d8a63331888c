package dev.tributary.cql.errors;

import java.util.Objects;

/**
 * A value does not fit the type it is assigned to, e.g.
 * {@code Invalid STRING constant ('x') for "v" of type int} or
 * {@code value 3000000000 out of range for int column "v"}. Carries the column (as named in
 * messages; nested values read {@code value(v)}, {@code key(v)} or {@code v.field}), the CQL type
 * and the offending literal as CQL text (or a description of a bound Java value).
 */
public final class CqlTypeException extends CqlException {
    private static final long serialVersionUID = 1L;

    private final String column;
    private final String type;
    private final String literal;

    public CqlTypeException(String column, String type, String literal, String message) {
        super(message);
        this.column = Objects.requireNonNull(column, "column");
        this.type = Objects.requireNonNull(type, "type");
        this.literal = Objects.requireNonNull(literal, "literal");
    }

    public String column() {
        return column;
    }

    public String type() {
        return type;
    }

    public String literal() {
        return literal;
    }
}
