package dev.tributary.rules;

/**
 * How a rule came about: the system-made rules of dbms_streams_adm (table, subset, schema,
 * global) or a rule created directly with dbms_rule_adm (custom).
 */
public enum RuleKind {
    TABLE, SUBSET, SCHEMA, GLOBAL, CUSTOM
}
