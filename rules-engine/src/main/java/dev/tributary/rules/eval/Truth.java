package dev.tributary.rules.eval;

/**
 * The result of evaluating a rule or a rule set: {@code TRUE}, {@code FALSE} or {@code MAYBE}.
 *
 * <p>{@code MAYBE} means the information given was not enough to decide: during prefiltering
 * (a {@link PartialInput} knows no column values, object type or base table) or, during full
 * evaluation, when a column the condition reads is absent from the LCR. The operations are
 * Kleene's strong three-valued logic, with {@code MAYBE} as the unknown value. Only
 * {@code TRUE} counts as satisfying a rule: {@code MAYBE} is never treated as {@code TRUE}.
 *
 * <p>SQL {@code NULL} inside a condition (a comparison with a NULL value) is a different thing:
 * it is known, and a rule whose condition is NULL is {@code FALSE}, as a SQL WHERE clause
 * rejects a row whose condition is unknown.
 */
public enum Truth {
    TRUE,
    FALSE,
    MAYBE;

    /** Kleene conjunction: FALSE if either is FALSE, else MAYBE if either is MAYBE, else TRUE. */
    public Truth and(Truth other) {
        if (this == FALSE || other == FALSE) {
            return FALSE;
        }
        if (this == MAYBE || other == MAYBE) {
            return MAYBE;
        }
        return TRUE;
    }

    /** Kleene disjunction: TRUE if either is TRUE, else MAYBE if either is MAYBE, else FALSE. */
    public Truth or(Truth other) {
        if (this == TRUE || other == TRUE) {
            return TRUE;
        }
        if (this == MAYBE || other == MAYBE) {
            return MAYBE;
        }
        return FALSE;
    }

    /** Kleene negation: TRUE and FALSE swap, MAYBE stays MAYBE. */
    public Truth not() {
        return switch (this) {
            case TRUE -> FALSE;
            case FALSE -> TRUE;
            case MAYBE -> MAYBE;
        };
    }

    public static Truth of(boolean b) {
        return b ? TRUE : FALSE;
    }
}
