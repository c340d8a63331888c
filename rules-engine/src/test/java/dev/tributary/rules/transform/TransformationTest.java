package dev.tributary.rules.transform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.rules.CompiledRuleSets;
import dev.tributary.rules.EvaluationResult;
import dev.tributary.rules.LcrInput;
import dev.tributary.rules.Rule;
import dev.tributary.rules.RuleCatalog;
import dev.tributary.rules.StreamsClient;
import dev.tributary.rules.StreamsRuleOptions;
import dev.tributary.rules.StreamsRulesResult;
import dev.tributary.rules.TransformationRunner;
import dev.tributary.rules.errors.InvalidRuleArgumentException;
import dev.tributary.rules.errors.TransformationException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TransformationTest {

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static final TransformableLcr UPDATE = new TransformableLcr("hr", "employees", "UPDATE",
            map("id", 7, "salary", 100, "ssn", "123"), map("salary", 200, "ssn", "123"));
    private static final TransformableLcr INSERT = new TransformableLcr("hr", "employees", "INSERT", null,
            map("id", 8, "salary", 300));
    private static final TransformableLcr OTHER = new TransformableLcr("oe", "orders", "INSERT", null, map("id", 1));

    @Test
    @DisplayName("rename schema acts on LCRs of that schema only")
    void renameSchema() {
        RenameSchema t = new RenameSchema("hr", "hr_copy", 0);
        assertEquals("hr_copy", t.apply(UPDATE).objectOwner());
        assertEquals("employees", t.apply(UPDATE).objectName());
        assertSame(OTHER, t.apply(OTHER));
    }

    @Test
    @DisplayName("rename table acts on LCRs of that table only")
    void renameTable() {
        RenameTable t = new RenameTable("hr", "employees", "archive", "staff", 0);
        TransformableLcr out = t.apply(UPDATE);
        assertEquals("archive", out.objectOwner());
        assertEquals("staff", out.objectName());
        assertEquals(UPDATE.newValues(), out.newValues());
        assertSame(OTHER, t.apply(OTHER));
    }

    @Test
    @DisplayName("rename column in the chosen images, keeping the column's position")
    void renameColumn() {
        TransformableLcr both = new RenameColumn("hr", "employees", "salary", "pay", ValueType.BOTH, 0).apply(UPDATE);
        assertEquals(List.of("id", "pay", "ssn"), List.copyOf(both.oldValues().keySet()));
        assertEquals(map("pay", 200, "ssn", "123"), both.newValues());
        TransformableLcr oldOnly = new RenameColumn("hr", "employees", "salary", "pay", ValueType.OLD, 0).apply(UPDATE);
        assertTrue(oldOnly.oldValues().containsKey("pay"));
        assertTrue(oldOnly.newValues().containsKey("salary"));
        TransformableLcr replacing = new RenameColumn("hr", "employees", "salary", "id", ValueType.OLD, 0).apply(UPDATE);
        assertEquals(map("id", 100, "ssn", "123"), replacing.oldValues());
        assertSame(OTHER, new RenameColumn("hr", "employees", "id", "x", ValueType.BOTH, 0).apply(OTHER));
    }

    @Test
    @DisplayName("add column with a value, to the images the LCR has, without overwriting")
    void addColumn() {
        TransformableLcr out = new AddColumn("hr", "employees", "source", "db1", ValueType.NEW, 0).apply(INSERT);
        assertEquals(map("id", 8, "salary", 300, "source", "db1"), out.newValues());
        assertNull(out.oldValues(), "an INSERT has no old image to add to");
        TransformableLcr both = new AddColumn("hr", "employees", "flag", null, ValueType.BOTH, 0).apply(UPDATE);
        assertTrue(both.oldValues().containsKey("flag") && both.oldValues().get("flag") == null);
        assertTrue(both.newValues().containsKey("flag"));
        TransformableLcr kept = new AddColumn("hr", "employees", "salary", 0, ValueType.NEW, 0).apply(INSERT);
        assertEquals(300, kept.newValues().get("salary"));
    }

    @Test
    @DisplayName("delete column from the chosen images")
    void deleteColumn() {
        TransformableLcr out = new DeleteColumn("hr", "employees", "ssn", ValueType.BOTH, 0).apply(UPDATE);
        assertEquals(map("id", 7, "salary", 100), out.oldValues());
        assertEquals(map("salary", 200), out.newValues());
        TransformableLcr newOnly = new DeleteColumn("hr", "employees", "ssn", ValueType.NEW, 0).apply(UPDATE);
        assertTrue(newOnly.oldValues().containsKey("ssn"));
        assertSame(OTHER, new DeleteColumn("hr", "employees", "id", ValueType.BOTH, 0).apply(OTHER));
    }

    @Test
    @DisplayName("order: step number, then delete, rename column, add column, rename table, rename schema")
    void ordering() {
        DeclarativeTransformation renameTable = new RenameTable("hr", "employees", "hr", "staff", 0);
        DeclarativeTransformation renameColumn = new RenameColumn("hr", "employees", "salary", "pay", ValueType.BOTH, 0);
        DeclarativeTransformation renameSchema = new RenameSchema("hr", "hr2", 0);
        DeclarativeTransformation delete = new DeleteColumn("hr", "employees", "ssn", ValueType.BOTH, 0);
        DeclarativeTransformation add = new AddColumn("hr", "employees", "x", 1, ValueType.NEW, 0);
        RuleTransformations ts = new RuleTransformations(List.of(renameSchema, renameTable, add, renameColumn, delete), Optional.empty());
        assertEquals(List.of(delete, renameColumn, add, renameTable, renameSchema), ts.declarative());

        // by default the column transformations still see the original table name
        TransformableLcr out = UPDATE;
        for (DeclarativeTransformation t : ts.declarative()) {
            out = t.apply(out);
        }
        assertEquals("hr2", out.objectOwner());
        assertEquals("staff", out.objectName());
        assertEquals(map("pay", 200, "x", 1), out.newValues());

        // a rename table at an earlier step hides the table from the later column rename
        RuleTransformations stepped = new RuleTransformations(List.of(
                new RenameColumn("hr", "employees", "salary", "pay", ValueType.BOTH, 2),
                new RenameTable("hr", "employees", "hr", "staff", 1)), Optional.empty());
        TransformableLcr s = UPDATE;
        for (DeclarativeTransformation t : stepped.declarative()) {
            s = t.apply(s);
        }
        assertTrue(s.newValues().containsKey("salary"));
    }

    @Test
    @DisplayName("custom transformations are found through ServiceLoader")
    void serviceLoader() {
        TransformationRegistry registry = TransformationRegistry.load(getClass().getClassLoader());
        assertEquals(List.of("HR.MASK_SALARY", "TEST.ALWAYS_FAILS"), registry.names());
        assertTrue(registry.find("HR.Mask_Salary").isPresent(), "names are case-insensitive");
        assertThrows(InvalidRuleArgumentException.class,
                () -> TransformationRegistry.of(List.of(new MaskSalaryTransformation(), new MaskSalaryTransformation())));
    }

    @Test
    @DisplayName("CAP-R-6 the capture runs the transformations of the rules that select an LCR: declarative, then custom")
    void capturRunsRuleTransformations() {
        // seed: CAP-R-6
        RuleCatalog catalog = new RuleCatalog("DB1", "strmadmin");
        StreamsRulesResult r = catalog.addTableRules(StreamsClient.capture("CAP", Optional.empty(), Optional.empty()),
                "hr.employees", StreamsRuleOptions.DEFAULTS);
        String rule = r.dmlRule().orElseThrow().toString();
        catalog.addTransformation(rule, new RenameColumn("hr", "employees", "salary", "pay", ValueType.BOTH, 0));
        catalog.addTransformation(rule, new RenameTable("hr", "employees", "hr", "staff", 0));
        catalog.setCustomTransformation(rule, Optional.of("hr.mask_salary"));
        CompiledRuleSets sets = catalog.compile(Optional.of(r.ruleSet()), Optional.empty());

        EvaluationResult result = sets.evaluate(LcrInput.builder().sourceDatabaseName("DB1").object("HR", "EMPLOYEES")
                .commandType("UPDATE").oldValues(UPDATE.oldValues()).newValues(UPDATE.newValues()).build());
        TransformationRunner runner = new TransformationRunner(TransformationRegistry.load(getClass().getClassLoader()));
        TransformableLcr out = runner.apply(result, UPDATE);
        assertEquals("staff", out.objectName());
        assertEquals(map("id", 7, "pay", null, "ssn", "123"), out.oldValues(), "renamed, then masked by the custom one");
        assertEquals(map("pay", null, "ssn", "123"), out.newValues());

        assertThrows(IllegalArgumentException.class, () -> runner.apply(EvaluationResult.discard(
                dev.tributary.rules.DiscardReason.NO_POSITIVE_RULE), UPDATE));
        Rule ruleObject = catalog.rule(rule).orElseThrow();
        assertEquals("STREAMS$_TRANSFORM_FUNCTION=hr.mask_salary; STREAMS$_INTERNAL_TRANS=2", ruleObject.actionContext().orElseThrow());
        catalog.removeTransformation(rule, new RenameTable("hr", "employees", "hr", "staff", 0));
        assertEquals(1, catalog.rule(rule).orElseThrow().transformations().declarative().size());
        assertThrows(InvalidRuleArgumentException.class,
                () -> catalog.removeTransformation(rule, new RenameTable("hr", "employees", "hr", "staff", 0)));
    }

    @Test
    @DisplayName("a failing or unknown custom transformation is a TransformationException naming rule and transformation")
    void customFailures() {
        Rule base = Rule.custom("STRMADMIN", "R1", dev.tributary.rules.Condition.parse(":dml.get_object_owner() = 'HR'"), "");
        TransformationRunner runner = new TransformationRunner(TransformationRegistry.load(getClass().getClassLoader()));
        Rule failing = base.withTransformations(RuleTransformations.NONE.withCustom(Optional.of("test.always_fails")));
        TransformationException e = assertThrows(TransformationException.class, () -> runner.apply(failing, UPDATE));
        assertEquals("TRANSFORMATION_FAILED", e.code());
        assertTrue(e.getMessage().contains("STRMADMIN.R1") && e.getMessage().contains("test.always_fails"), e.getMessage());
        Rule unknown = base.withTransformations(RuleTransformations.NONE.withCustom(Optional.of("no.such")));
        assertEquals("UNKNOWN_TRANSFORMATION", assertThrows(TransformationException.class, () -> runner.apply(unknown, UPDATE)).code());
    }

    @Test
    @DisplayName("transformations attach to DML rules only")
    void dmlRulesOnly() {
        RuleCatalog catalog = new RuleCatalog("DB1", "strmadmin");
        StreamsRulesResult r = catalog.addTableRules(StreamsClient.capture("CAP", Optional.empty(), Optional.empty()),
                "hr.employees", StreamsRuleOptions.DEFAULTS.withDml(false).withDdl(true));
        String ddlRule = r.ddlRule().orElseThrow().toString();
        assertThrows(InvalidRuleArgumentException.class,
                () -> catalog.addTransformation(ddlRule, new RenameSchema("hr", "x", 0)));
        assertThrows(InvalidRuleArgumentException.class,
                () -> catalog.setCustomTransformation(ddlRule, Optional.of("hr.mask_salary")));
        catalog.createRule("neither", "1 = 1", null);
        assertThrows(InvalidRuleArgumentException.class, () -> catalog.addTransformation("neither", new RenameSchema("hr", "x", 0)));
    }

    @Test
    void valueTypes() {
        assertEquals(ValueType.BOTH, ValueType.parse("*"));
        assertEquals(ValueType.OLD, ValueType.parse("old"));
        assertEquals("*", ValueType.BOTH.sql());
        assertThrows(InvalidRuleArgumentException.class, () -> ValueType.parse("both"));
    }
}
