package dev.tributary.rules;

import java.util.Objects;
import java.util.Optional;

/**
 * The optional parameters of add_table_rules, add_schema_rules and add_global_rules, with
 * Oracle's defaults ({@link #DEFAULTS}): include_dml true, include_ddl false,
 * include_tagged_lcr false, source_database NULL (the local database), inclusion_rule true,
 * and_condition NULL. Immutable; change one parameter with the {@code with...} methods.
 *
 * @param sourceDatabase the global name of the source database; empty means the local one
 * @param inclusionRule true puts the rules into the positive rule set, false into the negative one
 * @param andCondition a condition on {@code :lcr} joined to each generated condition with AND
 */
public record StreamsRuleOptions(boolean includeDml, boolean includeDdl, boolean includeTaggedLcr,
                                 Optional<String> sourceDatabase, boolean inclusionRule, Optional<String> andCondition) {
    public static final StreamsRuleOptions DEFAULTS =
            new StreamsRuleOptions(true, false, false, Optional.empty(), true, Optional.empty());

    public StreamsRuleOptions {
        Objects.requireNonNull(sourceDatabase, "sourceDatabase");
        Objects.requireNonNull(andCondition, "andCondition");
    }

    public StreamsRuleOptions withDml(boolean v) {
        return new StreamsRuleOptions(v, includeDdl, includeTaggedLcr, sourceDatabase, inclusionRule, andCondition);
    }

    public StreamsRuleOptions withDdl(boolean v) {
        return new StreamsRuleOptions(includeDml, v, includeTaggedLcr, sourceDatabase, inclusionRule, andCondition);
    }

    public StreamsRuleOptions withTaggedLcr(boolean v) {
        return new StreamsRuleOptions(includeDml, includeDdl, v, sourceDatabase, inclusionRule, andCondition);
    }

    public StreamsRuleOptions withSourceDatabase(String v) {
        return new StreamsRuleOptions(includeDml, includeDdl, includeTaggedLcr, Optional.ofNullable(v), inclusionRule, andCondition);
    }

    public StreamsRuleOptions withInclusionRule(boolean v) {
        return new StreamsRuleOptions(includeDml, includeDdl, includeTaggedLcr, sourceDatabase, v, andCondition);
    }

    public StreamsRuleOptions withAndCondition(String v) {
        return new StreamsRuleOptions(includeDml, includeDdl, includeTaggedLcr, sourceDatabase, inclusionRule, Optional.ofNullable(v));
    }

    public RuleSetRole role() {
        return inclusionRule ? RuleSetRole.POSITIVE : RuleSetRole.NEGATIVE;
    }
}
