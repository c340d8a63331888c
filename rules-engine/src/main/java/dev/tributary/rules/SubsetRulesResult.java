package dev.tributary.rules;

import java.util.List;
import java.util.Objects;

/**
 * What add_subset_rules made: the insert, update and delete rules (Oracle's insert_rule_name,
 * update_rule_name, delete_rule_name), the positive rule set they are in, and whether that rule
 * set was created because the client had none.
 */
public record SubsetRulesResult(QualifiedName insertRule, QualifiedName updateRule, QualifiedName deleteRule,
                                QualifiedName ruleSet, boolean ruleSetCreated) {
    public SubsetRulesResult {
        Objects.requireNonNull(insertRule, "insertRule");
        Objects.requireNonNull(updateRule, "updateRule");
        Objects.requireNonNull(deleteRule, "deleteRule");
        Objects.requireNonNull(ruleSet, "ruleSet");
    }

    public List<QualifiedName> ruleNames() {
        return List.of(insertRule, updateRule, deleteRule);
    }
}
