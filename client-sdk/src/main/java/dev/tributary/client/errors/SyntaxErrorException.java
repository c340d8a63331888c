package dev.tributary.client.errors;

/** The statement text does not parse (code SYNTAX_ERROR). Fix the statement; retrying it unchanged fails again. */
public class SyntaxErrorException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public SyntaxErrorException(String code, String message) {
        super(code, message);
    }

    public SyntaxErrorException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
