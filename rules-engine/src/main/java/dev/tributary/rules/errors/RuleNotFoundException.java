package dev.tributary.rules.errors;

/** A named rule does not exist. Check the name (and owner) against the rules view. */
public final class RuleNotFoundException extends RulesException {
    private final String ruleName;

    public RuleNotFoundException(String ruleName) {
        super("RULE_NOT_FOUND", "rule " + ruleName + " does not exist");
        this.ruleName = ruleName;
    }

    public String ruleName() {
        return ruleName;
    }
}
