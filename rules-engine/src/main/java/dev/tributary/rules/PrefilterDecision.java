package dev.tributary.rules;

/**
 * What prefiltering decides about a change found in the redo, in the seed's words: convert it
 * into an LCR, convert it into an LCR for further evaluation, or discard it.
 */
public enum PrefilterDecision {
    /**
     * The change satisfies the rule sets: convert it into an LCR. Full evaluation would keep it
     * too; the capture still calls {@link CompiledRuleSets#evaluate} when it needs the matching
     * rules (for their transformations or row migration).
     */
    CONVERT,
    /**
     * MAYBE: not enough information to decide, so the change is converted into an LCR and
     * evaluated fully ({@link CompiledRuleSets#evaluate}).
     */
    CONVERT_FOR_FURTHER_EVALUATION,
    /** The change does not satisfy the rule sets: it is not converted into an LCR. */
    DISCARD;

    /** Whether the change becomes an LCR. */
    public boolean converts() {
        return this != DISCARD;
    }
}
