package dev.tributary.rules;

/**
 * A row of the {@code streams_rules} view, with DBA_STREAMS_RULES' columns: one per rule in a
 * Streams client's rule set. Columns that describe how a system-made rule was generated are
 * null for custom rules; null stands for a NULL column.
 */
public record StreamsRuleRow(String streamsType, String streamsName, String ruleSetOwner, String ruleSetName,
                             String ruleOwner, String ruleName, String ruleType, String ruleSetType,
                             String streamsRuleType, String schemaName, String objectName, String subsettingOperation,
                             String dmlCondition, String includeTaggedLcr, String sourceDatabase, String ruleCondition,
                             String originalRuleCondition, String sameRuleCondition) {
}
