package dev.tributary.rules;

/** Why full evaluation discarded an LCR. */
public enum DiscardReason {
    /** The object is in a system keyspace, which is never captured. */
    SYSTEM_KEYSPACE,
    /** A rule in the negative rule set is TRUE. */
    NEGATIVE_RULE,
    /** There is a positive rule set and none of its rules is TRUE. */
    NO_POSITIVE_RULE
}
