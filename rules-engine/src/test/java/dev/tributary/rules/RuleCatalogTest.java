package dev.tributary.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.rules.errors.ConditionSyntaxException;
import dev.tributary.rules.errors.InvalidRuleArgumentException;
import dev.tributary.rules.errors.ObjectExistsException;
import dev.tributary.rules.errors.RuleInUseException;
import dev.tributary.rules.errors.RuleMembershipException;
import dev.tributary.rules.errors.RuleNotFoundException;
import dev.tributary.rules.errors.RuleSetNotFoundException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RuleCatalogTest {
    private final RuleCatalog catalog = new RuleCatalog("db1", "strmadmin");
    private final StreamsClient fresh = StreamsClient.capture("CAPTURE_HR", Optional.empty(), Optional.empty());

    // ------------------------------------------------------------------ dbms_rule_adm

    @Test
    @DisplayName("create_rule_set, create_rule, add_rule, remove_rule, drop_rule, drop_rule_set")
    void ruleAdm() {
        long v0 = catalog.version();
        QualifiedName set = catalog.createRuleSet("hr_rules", "for hr");
        assertEquals(new QualifiedName("STRMADMIN", "HR_RULES"), set);
        Rule rule = catalog.createRule("strmadmin.emp_rule", ":dml.get_object_owner() = 'HR'", "employees");
        assertEquals(RuleKind.CUSTOM, rule.kind());
        assertEquals(Optional.of(DmlOrDdl.DML), rule.ruleType(), "inferred from :dml");
        catalog.addRule("emp_rule", "hr_rules");
        assertEquals(List.of(rule), catalog.rulesOf(set));
        assertTrue(catalog.version() > v0);

        assertThrows(RuleInUseException.class, () -> catalog.dropRule("emp_rule", false));
        catalog.removeRule("EMP_RULE", "HR_RULES");
        assertTrue(catalog.rulesOf(set).isEmpty());
        assertTrue(catalog.rule("emp_rule").isPresent(), "remove_rule keeps the rule");
        catalog.dropRule("emp_rule", false);
        assertTrue(catalog.rule("emp_rule").isEmpty());
        catalog.dropRuleSet("hr_rules", false);
        assertTrue(catalog.ruleSet("hr_rules").isEmpty());
    }

    @Test
    @DisplayName("names: unquoted upper-cased, quoted exact, unqualified owned by the default owner")
    void names() {
        catalog.createRuleSet("\"Mixed\"", null);
        assertTrue(catalog.ruleSet("\"Mixed\"").isPresent());
        assertTrue(catalog.ruleSet("mixed").isEmpty());
        catalog.createRule("other.r1", "1 = 1", null);
        assertTrue(catalog.rule("OTHER.R1").isPresent());
        assertTrue(catalog.rule("r1").isEmpty(), "r1 alone is STRMADMIN.R1");
        assertEquals(Optional.empty(), catalog.rule("r1").map(Rule::ruleType).orElse(Optional.empty()));
        assertEquals(Optional.empty(), catalog.rule("other.r1").orElseThrow().ruleType(), "reads neither variable");
    }

    @Test
    @DisplayName("dbms_rule_adm errors name the object and carry a reason code")
    void ruleAdmErrors() {
        catalog.createRuleSet("s", null);
        catalog.createRule("r", "1 = 1", null);
        ObjectExistsException exists = assertThrows(ObjectExistsException.class, () -> catalog.createRuleSet("S", null));
        assertEquals("RULE_SET_EXISTS", exists.code());
        assertTrue(exists.getMessage().contains("STRMADMIN.S"));
        assertEquals("RULE_EXISTS", assertThrows(ObjectExistsException.class, () -> catalog.createRule("r", "1 = 1", null)).code());
        assertEquals("RULE_NOT_FOUND", assertThrows(RuleNotFoundException.class, () -> catalog.addRule("nope", "s")).code());
        assertEquals("RULE_SET_NOT_FOUND", assertThrows(RuleSetNotFoundException.class, () -> catalog.addRule("r", "nope")).code());
        catalog.addRule("r", "s");
        assertEquals("RULE_ALREADY_IN_RULE_SET", assertThrows(RuleMembershipException.class, () -> catalog.addRule("r", "s")).code());
        catalog.removeRule("r", "s");
        assertEquals("RULE_NOT_IN_RULE_SET", assertThrows(RuleMembershipException.class, () -> catalog.removeRule("r", "s")).code());
        ConditionSyntaxException syntax = assertThrows(ConditionSyntaxException.class,
                () -> catalog.createRule("bad", ":dml.get_object_owner() = ", null));
        assertEquals(27, syntax.position());
        assertTrue(catalog.rule("bad").isEmpty(), "a failed create changes nothing");
        assertThrows(RuleSetNotFoundException.class, () -> catalog.dropRuleSet("nope", true));
        assertThrows(RuleNotFoundException.class, () -> catalog.dropRule("nope", true));
    }

    @Test
    @DisplayName("drop_rule with force removes the rule from its rule sets; drop_rule_set with delete_rules keeps shared rules")
    void forceAndDeleteRules() {
        catalog.createRuleSet("a", null);
        catalog.createRuleSet("b", null);
        catalog.createRule("shared", "1 = 1", null);
        catalog.createRule("only_a", "1 = 1", null);
        catalog.addRule("shared", "a");
        catalog.addRule("shared", "b");
        catalog.addRule("only_a", "a");
        RuleInUseException inUse = assertThrows(RuleInUseException.class, () -> catalog.dropRule("shared", false));
        assertEquals(List.of("STRMADMIN.A", "STRMADMIN.B"), inUse.ruleSets());
        catalog.dropRuleSet("a", true);
        assertTrue(catalog.rule("only_a").isEmpty());
        assertTrue(catalog.rule("shared").isPresent());
        catalog.dropRule("shared", true);
        assertTrue(catalog.rulesOf(catalog.resolve("b")).isEmpty());
    }

    // ------------------------------------------------------------------ dbms_streams_adm

    @Test
    @DisplayName("CAP-R-2 add_table_rules makes a DML and a DDL rule named after the table, in a new positive rule set")
    void addTableRules() {
        // seed: CAP-R-2, CAP-CRE-1 (the rule set is created when the capture has none)
        StreamsRulesResult r = catalog.addTableRules(fresh, "hr.employees",
                StreamsRuleOptions.DEFAULTS.withDdl(true).withSourceDatabase("db1"));
        assertTrue(r.ruleSetCreated());
        assertEquals(RuleSetRole.POSITIVE, r.role());
        assertEquals(new QualifiedName("STRMADMIN", "RULESET$_1"), r.ruleSet());
        assertEquals("EMPLOYEES2", r.dmlRule().orElseThrow().name());
        assertEquals("EMPLOYEES3", r.ddlRule().orElseThrow().name());
        Rule dml = catalog.rule("employees2").orElseThrow();
        assertEquals("((:dml.get_object_owner() = 'HR' and :dml.get_object_name() = 'EMPLOYEES'))"
                + " and :dml.is_null_tag() = 'Y' and :dml.get_source_database_name() = 'DB1'", dml.condition().text());
        assertEquals(RuleKind.TABLE, dml.kind());
        Rule ddl = catalog.rule("employees3").orElseThrow();
        assertEquals("((:ddl.get_object_owner() = 'HR' and :ddl.get_object_name() = 'EMPLOYEES')"
                + " or (:ddl.get_base_table_owner() = 'HR' and :ddl.get_base_table_name() = 'EMPLOYEES'))"
                + " and :ddl.is_null_tag() = 'Y' and :ddl.get_source_database_name() = 'DB1'", ddl.condition().text());
        assertEquals(Optional.of(DmlOrDdl.DDL), ddl.ruleType());

        StreamsClient client = fresh.withRuleSet(r.role(), r.ruleSet());
        StreamsRulesResult again = catalog.addTableRules(client, "hr.jobs", StreamsRuleOptions.DEFAULTS);
        assertFalse(again.ruleSetCreated());
        assertEquals(r.ruleSet(), again.ruleSet());
        assertEquals(List.of("JOBS4"), again.ruleNames().stream().map(QualifiedName::name).toList());
        assertEquals(3, catalog.rulesOf(r.ruleSet()).size());
    }

    @Test
    @DisplayName("adding the same table rules twice returns the rules already there")
    void idempotentGeneration() {
        StreamsRulesResult r = catalog.addTableRules(fresh, "hr.employees", StreamsRuleOptions.DEFAULTS);
        StreamsClient client = fresh.withRuleSet(r.role(), r.ruleSet());
        StreamsRulesResult again = catalog.addTableRules(client, "HR.EMPLOYEES", StreamsRuleOptions.DEFAULTS);
        assertEquals(r.ruleNames(), again.ruleNames());
        assertEquals(1, catalog.rulesOf(r.ruleSet()).size());
    }

    @Test
    @DisplayName("inclusion_rule false puts the rules into a new negative rule set")
    void negativeRules() {
        StreamsRulesResult r = catalog.addSchemaRules(fresh, "hr", StreamsRuleOptions.DEFAULTS.withInclusionRule(false));
        assertEquals(RuleSetRole.NEGATIVE, r.role());
        assertTrue(r.ruleSetCreated());
        assertEquals("HR2", r.dmlRule().orElseThrow().name());
        assertEquals("((:dml.get_object_owner() = 'HR')) and :dml.is_null_tag() = 'Y' and :dml.get_source_database_name() = 'DB1'",
                catalog.rule("hr2").orElseThrow().condition().text());
    }

    @Test
    @DisplayName("schema and global rule conditions, with include_tagged_lcr and source_database")
    void schemaAndGlobal() {
        StreamsRulesResult s = catalog.addSchemaRules(fresh, "hr",
                StreamsRuleOptions.DEFAULTS.withDml(false).withDdl(true).withTaggedLcr(true).withSourceDatabase("dbs2.net"));
        assertEquals("((:ddl.get_object_owner() = 'HR') or (:ddl.get_base_table_owner() = 'HR'))"
                + " and :ddl.get_source_database_name() = 'DBS2.NET'",
                catalog.rule(s.ddlRule().orElseThrow().toString()).orElseThrow().condition().text());
        StreamsRulesResult g = catalog.addGlobalRules(fresh, StreamsRuleOptions.DEFAULTS);
        Rule global = catalog.rule(g.dmlRule().orElseThrow().toString()).orElseThrow();
        assertEquals("(:dml.is_null_tag() = 'Y' and :dml.get_source_database_name() = 'DB1')", global.condition().text());
        assertEquals(RuleKind.GLOBAL, global.kind());
        assertTrue(global.name().startsWith("DB1"), global.name());
    }

    @Test
    @DisplayName("quoted CQL names keep their case in the generated conditions")
    void quotedNames() {
        StreamsRulesResult r = catalog.addTableRules(fresh, "\"MyKs\".\"Orders\"", StreamsRuleOptions.DEFAULTS);
        Rule rule = catalog.rule(r.dmlRule().orElseThrow().toString()).orElseThrow();
        assertTrue(rule.condition().text().startsWith("((:dml.get_object_owner() = 'MyKs' and :dml.get_object_name() = 'Orders'))"));
        assertEquals("ORDERS2", rule.name());
    }

    @Test
    @DisplayName("and_condition is joined with AND, :lcr becoming :dml or :ddl")
    void andCondition() {
        StreamsRulesResult r = catalog.addTableRules(fresh, "hr.employees", StreamsRuleOptions.DEFAULTS.withDdl(true)
                .withAndCondition(":lcr.get_command_type() != 'DELETE'"));
        assertTrue(catalog.rule(r.dmlRule().orElseThrow().toString()).orElseThrow().condition().text()
                .endsWith(") and (:dml.get_command_type() != 'DELETE')"));
        assertTrue(catalog.rule(r.ddlRule().orElseThrow().toString()).orElseThrow().condition().text()
                .endsWith(") and (:ddl.get_command_type() != 'DELETE')"));
        CompiledRuleSets sets = catalog.compile(Optional.of(r.ruleSet()), Optional.empty());
        LcrInput.Builder lcr = LcrInput.builder().sourceDatabaseName("DB1").object("HR", "EMPLOYEES");
        assertTrue(sets.evaluate(lcr.commandType("INSERT").build()).keep());
        assertFalse(sets.evaluate(lcr.commandType("DELETE").build()).keep());

        assertThrows(InvalidRuleArgumentException.class, () -> catalog.addTableRules(fresh, "hr.x",
                StreamsRuleOptions.DEFAULTS.withDdl(true).withAndCondition(":lcr.get_value('NEW', 'a') = 1")),
                "the DDL rule has no get_value");
        assertThrows(ConditionSyntaxException.class, () -> catalog.addTableRules(fresh, "hr.x",
                StreamsRuleOptions.DEFAULTS.withAndCondition(":lcr.get_command_type( = 1")));
        assertTrue(catalog.rule("x5").isEmpty() && catalog.ruleSetRows().size() == 1, "failed calls add nothing");
    }

    @Test
    @DisplayName("generator argument errors")
    void generatorErrors() {
        assertThrows(InvalidRuleArgumentException.class, () -> catalog.addTableRules(fresh, "employees", StreamsRuleOptions.DEFAULTS));
        assertThrows(InvalidRuleArgumentException.class,
                () -> catalog.addTableRules(fresh, "hr.employees", StreamsRuleOptions.DEFAULTS.withDml(false)));
        assertThrows(InvalidRuleArgumentException.class, () -> catalog.addSchemaRules(fresh, "hr.x", StreamsRuleOptions.DEFAULTS));
        StreamsClient ghost = StreamsClient.capture("C", Optional.of(new QualifiedName("STRMADMIN", "GONE")), Optional.empty());
        assertThrows(RuleSetNotFoundException.class, () -> catalog.addTableRules(ghost, "hr.t", StreamsRuleOptions.DEFAULTS));
        assertThrows(InvalidRuleArgumentException.class,
                () -> catalog.addSubsetRules(fresh, "hr.t", "1 = 1", false, Optional.empty()), "no column named");
        assertThrows(ConditionSyntaxException.class,
                () -> catalog.addSubsetRules(fresh, "hr.t", "department_id = = 1", false, Optional.empty()));
        assertTrue(catalog.ruleRows().isEmpty());
        assertTrue(catalog.ruleSetRows().isEmpty());
    }

    @Test
    @DisplayName("dbms_streams_adm.remove_rule removes one or all rules of a client's set, dropping unused ones")
    void removeStreamsRules() {
        StreamsRulesResult r = catalog.addTableRules(fresh, "hr.employees", StreamsRuleOptions.DEFAULTS.withDdl(true));
        StreamsClient client = fresh.withRuleSet(r.role(), r.ruleSet());
        List<QualifiedName> removed = catalog.removeStreamsRules(client, Optional.of("employees2"), true, true);
        assertEquals(List.of(r.dmlRule().orElseThrow()), removed);
        assertTrue(catalog.rule("employees2").isEmpty());
        catalog.removeStreamsRules(client, Optional.empty(), false, true);
        assertTrue(catalog.rulesOf(r.ruleSet()).isEmpty());
        assertTrue(catalog.rule("employees3").isPresent(), "not dropped without drop_unused_rule");
        assertThrows(InvalidRuleArgumentException.class, () -> catalog.removeStreamsRules(client, Optional.empty(), true, false));
        assertThrows(RuleMembershipException.class, () -> catalog.removeStreamsRules(client, Optional.of("employees3"), true, true));
    }

    // ------------------------------------------------------------------ views

    @Test
    @DisplayName("rules, rule_sets and streams_rules view rows carry the DBA_* column values")
    void viewRows() {
        StreamsRulesResult t = catalog.addTableRules(fresh, "hr.employees", StreamsRuleOptions.DEFAULTS);
        StreamsClient client = fresh.withRuleSet(t.role(), t.ruleSet());
        SubsetRulesResult s = catalog.addSubsetRules(client, "hr.employees", "department_id = 50", true, Optional.of("db2"));
        catalog.createRule("custom1", ":ddl.get_object_type() = 'TABLE'", "my rule");
        catalog.addRule("custom1", t.ruleSet().toString());
        StreamsRulesResult neg = catalog.addSchemaRules(client, "scratch", StreamsRuleOptions.DEFAULTS.withInclusionRule(false));
        client = client.withRuleSet(neg.role(), neg.ruleSet());

        List<RuleSetRow> sets = catalog.ruleSetRows();
        assertEquals(2, sets.size());
        assertEquals(new RuleSetRow("STRMADMIN", "RULESET$_1", "SYS", "STREAMS$_EVALUATION_CONTEXT", "streams name is CAPTURE_HR"),
                sets.get(0));

        RuleRow insertRow = catalog.ruleRows().stream().filter(r -> r.ruleName().equals(s.insertRule().name())).findFirst().orElseThrow();
        assertEquals("STREAMS$_ROW_SUBSET=INSERT", insertRow.ruleActionContext());
        assertEquals("SYS", insertRow.ruleEvaluationContextOwner());
        assertNull(insertRow.ruleComment());
        RuleRow customRow = catalog.ruleRows().stream().filter(r -> r.ruleName().equals("CUSTOM1")).findFirst().orElseThrow();
        assertEquals("my rule", customRow.ruleComment());
        assertNull(customRow.ruleActionContext());

        List<StreamsRuleRow> rows = catalog.streamsRuleRows(List.of(client));
        assertEquals(6, rows.size());
        StreamsRuleRow table = rows.get(0);
        assertEquals(new StreamsRuleRow("CAPTURE", "CAPTURE_HR", "STRMADMIN", "RULESET$_1", "STRMADMIN", "EMPLOYEES2", "DML",
                "POSITIVE", "TABLE", "HR", "EMPLOYEES", null, null, "NO", "DB1",
                catalog.rule("employees2").orElseThrow().condition().text(),
                catalog.rule("employees2").orElseThrow().condition().text(), "YES"), table);
        StreamsRuleRow subsetRow = rows.get(1);
        assertEquals("INSERT", subsetRow.subsettingOperation());
        assertEquals("department_id = 50", subsetRow.dmlCondition());
        assertEquals("YES", subsetRow.includeTaggedLcr());
        assertEquals("DB2", subsetRow.sourceDatabase());
        assertEquals("TABLE", subsetRow.streamsRuleType());
        StreamsRuleRow custom = rows.get(4);
        assertEquals("CUSTOM1", custom.ruleName());
        assertNull(custom.streamsRuleType());
        assertEquals("DDL", custom.ruleType());
        StreamsRuleRow negative = rows.get(5);
        assertEquals("NEGATIVE", negative.ruleSetType());
        assertEquals("SCHEMA", negative.streamsRuleType());
        assertNull(negative.objectName());

        assertEquals(6, catalog.ruleSetRuleRows().size());
        assertEquals("ENABLED", catalog.ruleSetRuleRows().get(0).ruleSetRuleEnabled());
    }

    @Test
    @DisplayName("compile follows the catalog: a new version after every change")
    void compileFollowsChanges() {
        StreamsRulesResult r = catalog.addTableRules(fresh, "hr.employees", StreamsRuleOptions.DEFAULTS);
        StreamsClient client = fresh.withRuleSet(r.role(), r.ruleSet());
        PartialInput jobs = PartialInput.dml("DB1", "HR", "JOBS", "INSERT");
        assertEquals(PrefilterDecision.DISCARD, catalog.compile(client).decide(jobs));
        long v = catalog.version();
        catalog.addTableRules(client, "hr.jobs", StreamsRuleOptions.DEFAULTS);
        assertTrue(catalog.version() > v);
        assertEquals(PrefilterDecision.CONVERT, catalog.compile(client).decide(jobs));
    }
}
