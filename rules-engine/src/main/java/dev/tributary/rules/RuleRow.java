package dev.tributary.rules;

/** A row of the {@code rules} view, with DBA_RULES' columns; null stands for a NULL column. */
public record RuleRow(String ruleOwner, String ruleName, String ruleCondition, String ruleEvaluationContextOwner,
                      String ruleEvaluationContextName, String ruleActionContext, String ruleComment) {
}
