package dev.tributary.cql.errors;

/**
 * Base of the errors the statement language raises. Each subclass is a distinct reaction for the
 * caller: a {@link CqlSyntaxException} means the text is not CQL (the CLI exits with status 2),
 * a {@link CqlInvalidException} means the statement is well-formed but makes no sense, and a
 * {@link CqlTypeException} means a value does not fit its column's type.
 */
public abstract sealed class CqlException extends RuntimeException
        permits CqlSyntaxException, CqlInvalidException, CqlTypeException, CqlLimitException {
    private static final long serialVersionUID = 1L;

    protected CqlException(String message) {
        super(message);
    }
}
