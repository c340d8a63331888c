package dev.tributary.rules.errors;

import java.util.List;

/**
 * A rule cannot be dropped because rule sets still contain it. Remove it from them first, or
 * drop it with {@code force}.
 */
public final class RuleInUseException extends RulesException {
    private final List<String> ruleSets;

    public RuleInUseException(String ruleName, List<String> ruleSets) {
        super("RULE_IN_USE", "rule " + ruleName + " is in rule set(s) " + String.join(", ", ruleSets)
                + "; remove it from them or drop it with force");
        this.ruleSets = List.copyOf(ruleSets);
    }

    /** The rule sets that still contain the rule. */
    public List<String> ruleSets() {
        return ruleSets;
    }
}
