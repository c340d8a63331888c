package dev.tributary.rules;

/** A row of the {@code rule_sets} view, with DBA_RULE_SETS' columns; null stands for a NULL column. */
public record RuleSetRow(String ruleSetOwner, String ruleSetName, String ruleSetEvalContextOwner,
                         String ruleSetEvalContextName, String ruleSetComment) {
}
