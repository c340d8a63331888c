package dev.tributary.cql.errors;

/**
 * The statement is well-formed but makes no sense on its face, for example an {@code INSERT}
 * with three columns and two values, or a {@code PRIMARY KEY} naming an undefined column. The
 * message names the statement or object and what is wrong with it.
 */
public final class CqlInvalidException extends CqlException {
    private static final long serialVersionUID = 1L;

    public CqlInvalidException(String message) {
        super(message);
    }
}
