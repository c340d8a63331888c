package dev.tributary.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.rules.transform.TransformableLcr;
import dev.tributary.rules.transform.TransformationRegistry;
import dev.tributary.rules.TransformationRunner;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Subset rules: the seed's department_id example, row migration and supplemental logging. */
class SubsetRulesTest {
    private RuleCatalog catalog;
    private SubsetRulesResult subset;
    private CompiledRuleSets sets;

    @BeforeEach
    void setUp() {
        catalog = new RuleCatalog("DB1", "strmadmin");
        subset = catalog.addSubsetRules(StreamsClient.capture("CAPTURE_HR", Optional.empty(), Optional.empty()),
                "hr.employees", "department_id = 50", false, Optional.empty());
        sets = catalog.compile(Optional.of(subset.ruleSet()), Optional.empty());
    }

    private static LcrInput.Builder change(String command) {
        return LcrInput.builder().sourceDatabaseName("DB1").object("HR", "EMPLOYEES").commandType(command);
    }

    private static LcrInput update(Object oldDept, Object newDept) {
        return change("UPDATE").oldValue("employee_id", 145).oldValue("department_id", oldDept)
                .newValue("department_id", newDept).newValue("salary", 4000).build();
    }

    @Test
    @DisplayName("CAP-R-5 an UPDATE of hr.employees is converted for further evaluation; a change to another table is not converted")
    void seedExamplePrefiltering() {
        // seed: CAP-R-5, CAP-R-4
        assertEquals(PrefilterDecision.CONVERT_FOR_FURTHER_EVALUATION, sets.decide(PartialInput.dml("DB1", "HR", "EMPLOYEES", "UPDATE")));
        assertEquals(PrefilterDecision.DISCARD, sets.decide(PartialInput.dml("DB1", "HR", "JOBS", "UPDATE")));
        assertEquals(PrefilterDecision.DISCARD, sets.decide(PartialInput.dml("DB1", "OE", "EMPLOYEES", "UPDATE")));
    }

    @Test
    @DisplayName("CAP-R-5 each row of a 50-row UPDATE is kept if department_id is 50, discarded if it is not or is missing")
    void seedExampleFiltering() {
        // seed: CAP-R-5 — one UPDATE statement, 50 row changes
        int kept = 0;
        for (int row = 0; row < 50; row++) {
            LcrInput.Builder b = change("UPDATE").oldValue("employee_id", row).newValue("salary", 1000 + row);
            switch (row % 3) {
                case 0 -> b.oldValue("department_id", 50);
                case 1 -> b.oldValue("department_id", 30);
                default -> { } // department_id missing from the LCR
            }
            EvaluationResult r = sets.evaluate(b.build());
            assertEquals(row % 3 == 0, r.keep(), "row " + row);
            if (r.keep()) {
                kept++;
                assertEquals(RowMigration.NONE, r.migration());
                assertEquals(List.of(subset.updateRule()), r.matchedRules().stream().map(Rule::qualifiedName).toList());
            } else {
                assertEquals(DiscardReason.NO_POSITIVE_RULE, r.discardReason().orElseThrow());
            }
        }
        assertEquals(17, kept);
    }

    @Test
    @DisplayName("an UPDATE moving a row into the subset becomes an INSERT")
    void migrationIntoSubset() {
        EvaluationResult r = sets.evaluate(update(30, 50));
        assertTrue(r.keep());
        assertEquals(RowMigration.TO_INSERT, r.migration());
        assertEquals("INSERT", r.commandType("UPDATE"));
        assertEquals(List.of(subset.insertRule()), r.matchedRules().stream().map(Rule::qualifiedName).toList());
        assertEquals(RowMigration.TO_INSERT, sets.evaluate(update(null, 50)).migration(), "NULL is outside the subset");
    }

    @Test
    @DisplayName("an UPDATE moving a row out of the subset becomes a DELETE")
    void migrationOutOfSubset() {
        EvaluationResult r = sets.evaluate(update(50, 30));
        assertTrue(r.keep());
        assertEquals(RowMigration.TO_DELETE, r.migration());
        assertEquals("DELETE", r.commandType("UPDATE"));
        assertEquals(List.of(subset.deleteRule()), r.matchedRules().stream().map(Rule::qualifiedName).toList());
        assertEquals(RowMigration.TO_DELETE, sets.evaluate(update(50, null)).migration());
    }

    @Test
    @DisplayName("updates within the subset stay updates; updates outside it are discarded")
    void updatesWithinAndOutside() {
        assertEquals(RowMigration.NONE, sets.evaluate(update(50, 50)).migration());
        assertTrue(sets.evaluate(update(50, 50)).keep());
        assertFalse(sets.evaluate(update(30, 40)).keep());
        assertFalse(sets.evaluate(update(null, null)).keep());
        LcrInput unchangedDept = change("UPDATE").oldValue("department_id", 50).newValue("salary", 1).build();
        assertEquals(RowMigration.NONE, sets.evaluate(unchangedDept).migration(), "the new value defaults to the old one");
        assertTrue(sets.evaluate(unchangedDept).keep());
    }

    @Test
    @DisplayName("a change whose subset column is missing from the LCR is discarded")
    void missingColumn() {
        LcrInput noOld = change("UPDATE").newValue("department_id", 50).build();
        assertFalse(sets.evaluate(noOld).keep(), "without the old value it is unknown whether the row moved");
        assertFalse(sets.evaluate(change("INSERT").newValue("salary", 1).build()).keep());
        assertFalse(sets.evaluate(change("DELETE").oldValue("salary", 1).build()).keep());
    }

    @Test
    @DisplayName("inserts and deletes are selected by their row")
    void insertsAndDeletes() {
        assertTrue(sets.evaluate(change("INSERT").newValue("department_id", 50).build()).keep());
        assertFalse(sets.evaluate(change("INSERT").newValue("department_id", 51).build()).keep());
        assertTrue(sets.evaluate(change("DELETE").oldValue("department_id", 50).build()).keep());
        assertFalse(sets.evaluate(change("DELETE").oldValue("department_id", 5).build()).keep());
        assertEquals(RowMigration.NONE, sets.evaluate(change("INSERT").newValue("department_id", 50).build()).migration());
        assertFalse(sets.evaluate(change("LOB WRITE").newValue("department_id", 50).build()).keep());
    }

    @Test
    @DisplayName("row migration rewrites the LCR: an INSERT carries old and new values, a DELETE the old row")
    void migrationRewritesLcr() {
        Map<String, Object> oldRow = new LinkedHashMap<>();
        oldRow.put("employee_id", 145);
        oldRow.put("department_id", 30);
        oldRow.put("salary", 3000);
        TransformableLcr lcr = new TransformableLcr("hr", "employees", "UPDATE", oldRow,
                Map.of("department_id", 50, "salary", 4000));
        TransformationRunner runner = new TransformationRunner(TransformationRegistry.empty());
        TransformableLcr inserted = runner.apply(sets.evaluate(update(30, 50)), lcr);
        assertEquals("INSERT", inserted.commandType());
        assertNull(inserted.oldValues());
        assertEquals(Map.of("employee_id", 145, "department_id", 50, "salary", 4000), inserted.newValues());

        TransformableLcr deleted = RowMigration.TO_DELETE.apply(lcr);
        assertEquals("DELETE", deleted.commandType());
        assertEquals(oldRow, deleted.oldValues());
        assertNull(deleted.newValues());
        assertEquals(lcr, RowMigration.NONE.apply(lcr));
    }

    @Test
    @DisplayName("another rule selecting the UPDATE as it is keeps it an UPDATE")
    void tableRuleWins() {
        StreamsClient client = StreamsClient.capture("CAPTURE_HR", Optional.of(subset.ruleSet()), Optional.empty());
        catalog.addTableRules(client, "hr.employees", StreamsRuleOptions.DEFAULTS);
        EvaluationResult r = catalog.compile(client).evaluate(update(30, 50));
        assertTrue(r.keep());
        assertEquals(RowMigration.NONE, r.migration());
        assertEquals(2, r.matchedRules().size());
    }

    @Test
    @DisplayName("subset rules need the old values of their columns: supplemental logging")
    void supplementalLogging() {
        assertEquals(Map.of(new QualifiedName("HR", "EMPLOYEES"), Set.of("department_id")), sets.supplementalLogging());
        assertEquals(sets.supplementalLogging(), catalog.supplementalLogging());
        StreamsClient client = StreamsClient.capture("CAPTURE_HR", Optional.of(subset.ruleSet()), Optional.empty());
        catalog.addSubsetRules(client, "hr.employees", "salary > 1000 AND \"Grade\" = 'A'", false, Optional.empty());
        assertEquals(Set.of("department_id", "salary", "Grade"),
                catalog.compile(client).supplementalLogging().get(new QualifiedName("HR", "EMPLOYEES")));
        assertTrue(CompiledRuleSets.positiveOnly(List.of()).supplementalLogging().isEmpty());
    }

    @Test
    @DisplayName("subset conditions are generated in Oracle's form over get_value")
    void generatedConditions() {
        String base = "((:dml.get_object_owner() = 'HR' and :dml.get_object_name() = 'EMPLOYEES'))"
                + " and :dml.is_null_tag() = 'Y' and :dml.get_source_database_name() = 'DB1'";
        Rule insert = catalog.rule(subset.insertRule().toString()).orElseThrow();
        assertEquals(base + " and :dml.get_command_type() in ('INSERT', 'UPDATE')"
                + " and (:dml.get_value('NEW', 'DEPARTMENT_ID') = 50)"
                + " and (:dml.get_command_type() = 'INSERT' or (:dml.get_value('OLD', 'DEPARTMENT_ID') = 50) is not true)",
                insert.condition().text());
        assertEquals(Optional.of(SubsetOperation.INSERT), insert.subsetOperation());
        assertEquals(RuleKind.SUBSET, insert.kind());
        assertEquals(base + " and :dml.get_command_type() = 'UPDATE' and (:dml.get_value('OLD', 'DEPARTMENT_ID') = 50)"
                + " and (:dml.get_value('NEW', 'DEPARTMENT_ID') = 50)",
                catalog.rule(subset.updateRule().toString()).orElseThrow().condition().text());
        assertEquals(List.of("EMPLOYEES2", "EMPLOYEES3", "EMPLOYEES4"), subset.ruleNames().stream().map(QualifiedName::name).toList());
        assertEquals("RULESET$_1", subset.ruleSet().name());
        assertTrue(subset.ruleSetCreated());
    }
}
