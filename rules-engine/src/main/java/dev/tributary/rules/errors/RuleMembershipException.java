package dev.tributary.rules.errors;

/** Adding a rule already in a rule set, or removing one that is not in it. */
public final class RuleMembershipException extends RulesException {
    public RuleMembershipException(String ruleName, String ruleSetName, boolean alreadyMember) {
        super(alreadyMember ? "RULE_ALREADY_IN_RULE_SET" : "RULE_NOT_IN_RULE_SET",
                "rule " + ruleName + (alreadyMember ? " is already in rule set " : " is not in rule set ") + ruleSetName);
    }
}
