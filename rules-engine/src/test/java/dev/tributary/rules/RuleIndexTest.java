package dev.tributary.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.rules.Condition;
import dev.tributary.rules.PartialInput;
import dev.tributary.rules.Rule;
import dev.tributary.rules.RuleCatalog;
import dev.tributary.rules.StreamsClient;
import dev.tributary.rules.StreamsRuleOptions;
import dev.tributary.rules.StreamsRulesResult;
import dev.tributary.rules.eval.Truth;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Where rules are filed: only rules no key can be derived from are evaluated for every change. */
class RuleIndexTest {

    private static Rule custom(String name, String condition) {
        return Rule.custom("S", name, Condition.parse(condition), "");
    }

    @Test
    @DisplayName("table, schema and subset rules are indexed; only global and free-form rules fall back")
    void fallbackHoldsOnlyUnindexableRules() {
        RuleCatalog catalog = new RuleCatalog("DB1", "s");
        StreamsClient client = StreamsClient.capture("C", Optional.empty(), Optional.empty());
        StreamsRulesResult first = catalog.addTableRules(client, "hr.t0", StreamsRuleOptions.DEFAULTS);
        client = client.withRuleSet(first.role(), first.ruleSet());
        for (int i = 1; i < 2000; i++) {
            catalog.addTableRules(client, "hr.t" + i, StreamsRuleOptions.DEFAULTS);
        }
        catalog.addSchemaRules(client, "oe", StreamsRuleOptions.DEFAULTS);
        catalog.addSubsetRules(client, "hr.t5", "department_id = 50", false, Optional.empty());
        List<Rule> rules = new ArrayList<>(catalog.rulesOf(first.ruleSet()));
        RuleIndex indexed = RuleIndex.build(rules);
        assertEquals(0, indexed.fallbackSize(false, true));
        assertEquals(0, indexed.fallbackSize(false, false));

        rules.add(custom("GLOBALISH", ":dml.is_null_tag() = 'Y'"));
        rules.add(custom("NEGATED", "NOT (:dml.get_object_owner() = 'HR')"));
        rules.add(custom("BY_COMMAND", ":dml.get_command_type() = 'DELETE'"));
        rules.add(custom("BY_NAME", ":dml.get_object_name() IN ('A', 'B')"));
        RuleIndex mixed = RuleIndex.build(rules);
        assertEquals(3, mixed.fallbackSize(false, true), "the name-only rule has its own key; the others fall back");
        assertEquals(0, mixed.fallbackSize(true, true), "none of these is a DDL rule");
    }

    @Test
    @DisplayName("DDL table rules are found by base table with full information, and are MAYBE without it")
    void ddlBaseTables() {
        Rule ddl = custom("DDL_T", "(:ddl.get_object_owner() = 'HR' and :ddl.get_object_name() = 'T')"
                + " or (:ddl.get_base_table_owner() = 'HR' and :ddl.get_base_table_name() = 'T')");
        RuleIndex index = RuleIndex.build(List.of(ddl));
        assertEquals(0, index.fallbackSize(true, false));
        assertEquals(1, index.fallbackSize(true, true), "prefiltering cannot use the base table");
        assertEquals(Truth.MAYBE, index.truth(PartialInput.ddl("DB1", "HR", "T_IDX", "CREATE INDEX")));
        assertEquals(Truth.TRUE, index.truth(PartialInput.ddl("DB1", "HR", "T", "ALTER TABLE")));
        assertEquals(Truth.FALSE, index.truth(PartialInput.dml("DB1", "HR", "T", "INSERT")));
    }

    @Test
    @DisplayName("command types restrict a rule within its key")
    void commandTypes() {
        Rule r = custom("INS", ":dml.get_object_owner() = 'HR' and :dml.get_command_type() IN ('INSERT', 'UPDATE')");
        RuleIndex index = RuleIndex.build(List.of(r));
        assertEquals(Truth.TRUE, index.truth(PartialInput.dml("DB1", "HR", "X", "UPDATE")));
        assertEquals(Truth.FALSE, index.truth(PartialInput.dml("DB1", "HR", "X", "DELETE")));
        assertEquals(Truth.FALSE, index.truth(PartialInput.dml("DB1", "OE", "X", "INSERT")));
    }

    @Test
    @DisplayName("contradictory keys file a rule nowhere: it can never be TRUE")
    void contradictions() {
        Rule r = custom("NEVER", ":dml.get_object_owner() = 'HR' and :dml.get_object_owner() = 'OE'");
        RuleIndex index = RuleIndex.build(List.of(r));
        assertEquals(0, index.fallbackSize(false, true));
        assertEquals(Truth.FALSE, index.truth(PartialInput.dml("DB1", "HR", "X", "INSERT")));
        assertEquals(Truth.FALSE, index.truth(PartialInput.dml("DB1", "OE", "X", "INSERT")));
    }
}
