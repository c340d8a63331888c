package dev.tributary.rules.errors;

/**
 * Base of every error the rules engine raises. {@link #code()} is a stable reason code that the
 * node maps to its error responses ({@code ERROR <CODE>: <message>}); the message names the
 * rule, rule set, condition or token concerned.
 */
public abstract class RulesException extends RuntimeException {
    private final String code;

    protected RulesException(String code, String message) {
        super(message);
        this.code = code;
    }

    protected RulesException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** A stable, upper-case reason code such as {@code RULE_NOT_FOUND}. */
    public String code() {
        return code;
    }
}
