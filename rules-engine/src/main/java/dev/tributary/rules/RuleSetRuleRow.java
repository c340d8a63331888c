package dev.tributary.rules;

/** Which rule set contains which rule, with DBA_RULE_SET_RULES' columns. */
public record RuleSetRuleRow(String ruleSetOwner, String ruleSetName, String ruleOwner, String ruleName,
                             String ruleSetRuleEnabled, String ruleSetRuleComment) {
}
