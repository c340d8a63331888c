package dev.tributary.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tributary.rules.errors.InvalidRuleArgumentException;
import dev.tributary.rules.eval.RuleNames;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RuleNamesTest {

    @Test
    @DisplayName("rule form: plain CQL names upper-cased, case-sensitive names kept")
    void ruleForm() {
        assertEquals("HR", RuleNames.ruleForm("hr"));
        assertEquals("EMPLOYEES_2", RuleNames.ruleForm("employees_2"));
        assertEquals("MyTable", RuleNames.ruleForm("MyTable"));
        assertEquals("has space", RuleNames.ruleForm("has space"));
        assertNull(RuleNames.ruleForm(null));
    }

    @Test
    void identifiers() {
        assertEquals("employees", RuleNames.cqlIdentifier("Employees"));
        assertEquals("Employees", RuleNames.cqlIdentifier("\"Employees\""));
        assertEquals("a\"b", RuleNames.cqlIdentifier("\"a\"\"b\""));
        assertEquals("JOBS12", RuleNames.oracleIdentifier("jobs12"));
        assertEquals("jobs12", RuleNames.oracleIdentifier("\"jobs12\""));
        assertEquals(List.of("\"My.Ks\"", "t"), RuleNames.splitQualified("\"My.Ks\".t"));
        assertThrows(InvalidRuleArgumentException.class, () -> RuleNames.splitQualified("a.b.c"));
        assertThrows(InvalidRuleArgumentException.class, () -> RuleNames.splitQualified("a."));
        assertThrows(InvalidRuleArgumentException.class, () -> RuleNames.cqlIdentifier(""));
    }

    @Test
    void columnReferences() {
        assertEquals("DEPARTMENT_ID", RuleNames.columnReference("department_id"));
        assertEquals("\"Dept\"", RuleNames.columnReference("Dept"));
        assertEquals("department_id", RuleNames.columnFromReference("DEPARTMENT_ID"));
        assertEquals("Dept", RuleNames.columnFromReference("\"Dept\""));
        assertEquals("'O''Brien'", RuleNames.literal("O'Brien"));
    }

    @Test
    void qualifiedNames() {
        assertEquals(new QualifiedName("STRMADMIN", "JOBS12"), QualifiedName.parse("strmadmin.jobs12", "X"));
        assertEquals(new QualifiedName("X", "JOBS12"), QualifiedName.parse("jobs12", "X"));
        assertEquals("STRMADMIN.\"Mixed\"", QualifiedName.parse("strmadmin.\"Mixed\"", "X").toString());
        assertEquals("STRMADMIN.RULESET$_1", new QualifiedName("STRMADMIN", "RULESET$_1").toString());
    }
}
