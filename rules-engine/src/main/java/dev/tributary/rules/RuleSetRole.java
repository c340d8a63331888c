package dev.tributary.rules;

/** Whether a rule set is a client's positive set (what to capture) or its negative set (what to discard). */
public enum RuleSetRole {
    POSITIVE, NEGATIVE
}
