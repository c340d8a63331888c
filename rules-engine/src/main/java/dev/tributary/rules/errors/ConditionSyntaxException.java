package dev.tributary.rules.errors;

/**
 * A rule condition that does not parse. {@link #position()} is the 1-based character position of
 * the offending token in {@link #condition()}; the message reads
 * {@code syntax error at position 17 near 'AND': expected an expression}. Fix the condition text
 * and try again.
 */
public final class ConditionSyntaxException extends RulesException {
    private final String condition;
    private final int position;
    private final String near;
    private final String detail;

    public ConditionSyntaxException(String condition, int position, String near, String detail) {
        super("CONDITION_SYNTAX", "syntax error at position " + position
                + (near == null ? " (end of condition)" : " near '" + near + "'") + ": " + detail
                + " in condition: " + condition);
        this.condition = condition;
        this.position = position;
        this.near = near;
        this.detail = detail;
    }

    public String condition() {
        return condition;
    }

    /** 1-based character position in the condition; one past the end for an unexpected end. */
    public int position() {
        return position;
    }

    /** The text of the offending token, or {@code null} at the end of the condition. */
    public String near() {
        return near;
    }

    /** What the parser expected or refused, without the position. */
    public String detail() {
        return detail;
    }
}
