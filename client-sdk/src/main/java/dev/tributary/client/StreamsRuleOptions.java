package dev.tributary.client;

/**
 * The options of {@code dbms_streams_adm.add_table_rules}, {@code add_schema_rules} and
 * {@code add_global_rules}, with Oracle's defaults in {@link #DEFAULTS}. Immutable; each
 * {@code with...} method returns a new value.
 *
 * @param includeDml       make a DML rule ({@code include_dml}, default true)
 * @param includeDdl       make a DDL rule ({@code include_ddl}, default false)
 * @param includeTaggedLcr whether the rules also select changes made with a non-NULL session
 *                         tag ({@code include_tagged_lcr}, default false: only untagged changes)
 * @param inclusionRule    true puts the rules in the capture's positive rule set, false in its
 *                         negative one ({@code inclusion_rule}, default true)
 * @param andCondition     a condition ANDed to each rule's ({@code and_condition}), or null
 */
public record StreamsRuleOptions(
        boolean includeDml, boolean includeDdl, boolean includeTaggedLcr, boolean inclusionRule, String andCondition) {

    /** Oracle's defaults: DML only, untagged changes only, positive rule set, no extra condition. */
    public static final StreamsRuleOptions DEFAULTS = new StreamsRuleOptions(true, false, false, true, null);

    public StreamsRuleOptions withIncludeDml(boolean include) {
        return new StreamsRuleOptions(include, includeDdl, includeTaggedLcr, inclusionRule, andCondition);
    }

    public StreamsRuleOptions withIncludeDdl(boolean include) {
        return new StreamsRuleOptions(includeDml, include, includeTaggedLcr, inclusionRule, andCondition);
    }

    public StreamsRuleOptions withIncludeTaggedLcr(boolean include) {
        return new StreamsRuleOptions(includeDml, includeDdl, include, inclusionRule, andCondition);
    }

    public StreamsRuleOptions withInclusionRule(boolean inclusion) {
        return new StreamsRuleOptions(includeDml, includeDdl, includeTaggedLcr, inclusion, andCondition);
    }

    /** The condition ANDed to each rule's, on {@code :lcr}, e.g. {@code ":lcr.get_command_type() != 'DELETE'"}; null for none. */
    public StreamsRuleOptions withAndCondition(String condition) {
        return new StreamsRuleOptions(includeDml, includeDdl, includeTaggedLcr, inclusionRule, condition);
    }
}
