package dev.tributary.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Full evaluation against positive and negative rule sets, with system-made rules. */
class RuleSetEvaluationTest {
    private final RuleCatalog catalog = new RuleCatalog("DB1", "strmadmin");
    private StreamsClient capture = StreamsClient.capture("CAPTURE_HR", Optional.empty(), Optional.empty());

    private StreamsRulesResult add(StreamsRulesResult r) {
        capture = capture.withRuleSet(r.role(), r.ruleSet());
        return r;
    }

    private static LcrInput row(String owner, String table, String command) {
        return LcrInput.builder().sourceDatabaseName("DB1").object(owner, table).commandType(command)
                .newValue("id", 1).build();
    }

    @Test
    @DisplayName("CAP-R-1 the negative rule set is evaluated first: a TRUE negative rule discards whatever the positive set says")
    void negativeFirst() {
        // seed: CAP-R-1
        add(catalog.addSchemaRules(capture, "hr", StreamsRuleOptions.DEFAULTS));
        add(catalog.addTableRules(capture, "hr.salaries", StreamsRuleOptions.DEFAULTS.withInclusionRule(false)));
        CompiledRuleSets sets = catalog.compile(capture);
        assertTrue(sets.evaluate(row("HR", "EMPLOYEES", "INSERT")).keep());
        EvaluationResult salaries = sets.evaluate(row("HR", "SALARIES", "INSERT"));
        assertFalse(salaries.keep());
        assertEquals(DiscardReason.NEGATIVE_RULE, salaries.discardReason().orElseThrow());
        assertEquals(PrefilterDecision.DISCARD, sets.decide(PartialInput.dml("DB1", "HR", "SALARIES", "INSERT")));
        assertEquals(PrefilterDecision.CONVERT, sets.decide(PartialInput.dml("DB1", "HR", "EMPLOYEES", "INSERT")));
    }

    @Test
    @DisplayName("CAP-R-1 with a positive set, a change no positive rule selects is discarded")
    void positiveSetSelects() {
        // seed: CAP-R-1
        add(catalog.addTableRules(capture, "hr.employees", StreamsRuleOptions.DEFAULTS));
        CompiledRuleSets sets = catalog.compile(capture);
        assertTrue(sets.evaluate(row("HR", "EMPLOYEES", "DELETE")).keep());
        assertEquals(DiscardReason.NO_POSITIVE_RULE, sets.evaluate(row("HR", "JOBS", "DELETE")).discardReason().orElseThrow());
        assertEquals(DiscardReason.NO_POSITIVE_RULE, sets.evaluate(row("OE", "EMPLOYEES", "DELETE")).discardReason().orElseThrow());
    }

    @Test
    @DisplayName("CAP-R-1 with only a negative set, everything it does not discard is kept")
    void negativeOnly() {
        // seed: CAP-R-1
        add(catalog.addSchemaRules(capture, "scratch", StreamsRuleOptions.DEFAULTS.withInclusionRule(false)));
        CompiledRuleSets sets = catalog.compile(capture);
        assertFalse(sets.hasPositive());
        assertTrue(sets.evaluate(row("HR", "EMPLOYEES", "INSERT")).keep());
        assertFalse(sets.evaluate(row("SCRATCH", "T", "INSERT")).keep());
    }

    @Test
    @DisplayName("CAP-R-2 table, schema and global rules, each for DML or DDL")
    void levels() {
        // seed: CAP-R-2
        add(catalog.addTableRules(capture, "hr.employees", StreamsRuleOptions.DEFAULTS.withDdl(true).withDml(false)));
        add(catalog.addSchemaRules(capture, "oe", StreamsRuleOptions.DEFAULTS));
        CompiledRuleSets sets = catalog.compile(capture);
        LcrInput ddlOnEmployees = LcrInput.builder().ddl(true).sourceDatabaseName("DB1").object("HR", "EMPLOYEES")
                .commandType("ALTER TABLE").objectType("TABLE").build();
        LcrInput indexOnEmployees = LcrInput.builder().ddl(true).sourceDatabaseName("DB1").object("HR", "EMP_IDX")
                .commandType("CREATE INDEX").objectType("INDEX").baseTable("HR", "EMPLOYEES").build();
        assertTrue(sets.evaluate(ddlOnEmployees).keep(), "the DDL table rule takes DDL on the table");
        assertTrue(sets.evaluate(indexOnEmployees).keep(), "and DDL whose base table it is");
        assertEquals(PrefilterDecision.CONVERT_FOR_FURTHER_EVALUATION,
                sets.decide(PartialInput.ddl("DB1", "HR", "EMP_IDX", "CREATE INDEX")), "prefiltering lacks the base table");
        assertFalse(sets.evaluate(row("HR", "EMPLOYEES", "INSERT")).keep(), "but no row changes of it");
        assertTrue(sets.evaluate(row("OE", "ORDERS", "INSERT")).keep(), "the DML schema rule takes rows of any OE table");
        assertFalse(sets.evaluate(LcrInput.builder().ddl(true).sourceDatabaseName("DB1").object("OE", "ORDERS")
                .commandType("DROP TABLE").build()).keep(), "but no DDL");

        RuleCatalog other = new RuleCatalog("DB1", "strmadmin");
        StreamsRulesResult global = other.addGlobalRules(StreamsClient.capture("C", Optional.empty(), Optional.empty()),
                StreamsRuleOptions.DEFAULTS.withDdl(true));
        CompiledRuleSets all = other.compile(Optional.of(global.ruleSet()), Optional.empty());
        assertTrue(all.evaluate(row("ANY", "THING", "UPDATE")).keep());
        assertTrue(all.evaluate(ddlOnEmployees).keep());
        assertFalse(all.evaluate(LcrInput.builder().sourceDatabaseName("DB2").object("ANY", "THING").build()).keep(),
                "the source database is part of the rule");
    }

    @Test
    @DisplayName("tagged changes are not captured unless include_tagged_lcr")
    void tags() {
        add(catalog.addTableRules(capture, "hr.employees", StreamsRuleOptions.DEFAULTS));
        CompiledRuleSets sets = catalog.compile(capture);
        LcrInput tagged = row("HR", "EMPLOYEES", "INSERT").toBuilder().tag(new byte[] {0x11}).build();
        assertFalse(sets.evaluate(tagged).keep());
        assertEquals(PrefilterDecision.DISCARD, sets.decide(tagged.toPartial()), "the tag is known when prefiltering");

        RuleCatalog other = new RuleCatalog("DB1", "strmadmin");
        StreamsRulesResult r = other.addTableRules(StreamsClient.capture("C", Optional.empty(), Optional.empty()),
                "hr.employees", StreamsRuleOptions.DEFAULTS.withTaggedLcr(true));
        assertTrue(other.compile(Optional.of(r.ruleSet()), Optional.empty()).evaluate(tagged).keep());
    }

    @Test
    @DisplayName("matched positive rules are reported in rule order, each once")
    void matchedRules() {
        StreamsRulesResult schema = add(catalog.addSchemaRules(capture, "hr", StreamsRuleOptions.DEFAULTS));
        StreamsRulesResult table = add(catalog.addTableRules(capture, "hr.employees", StreamsRuleOptions.DEFAULTS));
        EvaluationResult r = catalog.compile(capture).evaluate(row("HR", "EMPLOYEES", "UPDATE"));
        List<QualifiedName> names = r.matchedRules().stream().map(Rule::qualifiedName).toList();
        assertEquals(List.of(table.dmlRule().orElseThrow(), schema.dmlRule().orElseThrow()).stream().sorted().toList(), names);
        assertEquals(RowMigration.NONE, r.migration());
    }
}
