package dev.tributary.rules.errors;

/** A named rule set does not exist. Check the name against the rule_sets view, or create it. */
public final class RuleSetNotFoundException extends RulesException {
    private final String ruleSetName;

    public RuleSetNotFoundException(String ruleSetName) {
        super("RULE_SET_NOT_FOUND", "rule set " + ruleSetName + " does not exist");
        this.ruleSetName = ruleSetName;
    }

    public String ruleSetName() {
        return ruleSetName;
    }
}
