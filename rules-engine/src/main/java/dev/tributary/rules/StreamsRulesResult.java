package dev.tributary.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What add_table_rules, add_schema_rules and add_global_rules made: the DML and DDL rule names
 * (Oracle's dml_rule_name and ddl_rule_name), the rule set they were added to, its role, and
 * whether that rule set was created because the client had none; if so, the caller records it
 * as the client's rule set.
 */
public record StreamsRulesResult(Optional<QualifiedName> dmlRule, Optional<QualifiedName> ddlRule,
                                 QualifiedName ruleSet, RuleSetRole role, boolean ruleSetCreated) {
    public StreamsRulesResult {
        Objects.requireNonNull(dmlRule, "dmlRule");
        Objects.requireNonNull(ddlRule, "ddlRule");
        Objects.requireNonNull(ruleSet, "ruleSet");
        Objects.requireNonNull(role, "role");
    }

    /** The rule names, DML first. */
    public List<QualifiedName> ruleNames() {
        List<QualifiedName> out = new ArrayList<>(2);
        dmlRule.ifPresent(out::add);
        ddlRule.ifPresent(out::add);
        return List.copyOf(out);
    }
}
