package dev.tributary.rules.errors;

/** An argument to a rules procedure is not acceptable; the message says which and why. */
public final class InvalidRuleArgumentException extends RulesException {
    public InvalidRuleArgumentException(String message) {
        super("INVALID_ARGUMENT", message);
    }
}
