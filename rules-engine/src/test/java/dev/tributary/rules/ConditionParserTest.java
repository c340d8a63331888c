package dev.tributary.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.rules.errors.ConditionSyntaxException;
import dev.tributary.rules.eval.Truth;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConditionParserTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "((:dml.get_object_owner() = 'HR' and :dml.get_object_name() = 'EMPLOYEES')) and :dml.is_null_tag() = 'Y'"
            + " and :dml.get_source_database_name() = 'DB1'",
        ":dml.get_object_owner() = 'HR' AND :dml.get_object_name() = 'EMPLOYEES'",
        ":DML.GET_OBJECT_OWNER() IN ('HR', 'OE')",
        ":dml.get_object_owner() NOT IN ('SYS')",
        "NOT :dml.get_command_type() = 'DELETE'",
        "NOT NOT :dml.get_command_type() <> 'DELETE'",
        ":dml.get_value('NEW', 'SALARY') BETWEEN 1000 AND 2000",
        ":dml.get_value('NEW', 'SALARY') NOT BETWEEN 1000 AND 2000 OR :dml.get_command_type() != 'UPDATE'",
        ":dml.get_value('NEW','last_name') LIKE 'S%' ESCAPE '\\'",
        ":dml.get_value('NEW','last_name') NOT LIKE '%son'",
        ":dml.get_value('OLD', 'x') IS NOT NULL",
        ":dml.get_value('OLD', 'x') IS NULL",
        "(:dml.get_value('NEW','a') + 1) * 2 > 10",
        "((:dml.get_value('NEW','a') = 1)) IS NOT TRUE",
        "(:dml.get_value('NEW','a') = 1 or :dml.get_value('NEW','b') = 2) is unknown",
        ":ddl.get_object_type() = 'TABLE' or :ddl.get_base_table_name() = 'T'",
        "UPPER(:dml.get_object_name()) = 'EMP' || 'LOYEES'",
        ":dml.get_tag() = HEXTORAW('1D')",
        ":dml.get_value('NEW','\"Dept\"').AccessNumber() = 50",
        ":dml.get_value('NEW', 'd', 'N') = -5.5e2",
        "TIMESTAMP '2024-01-01 00:00:00' < :dml.get_value('NEW','ts')",
        ":dml.get_value('NEW','d') = DATE '2024-02-29' AND :dml.get_value('NEW','b') = TRUE",
        "SUBSTR(:dml.get_object_name(), 1, 3) = 'EMP' and LENGTH(:dml.get_object_name()) >= 3",
        "NVL(:dml.get_value('NEW','x'), 0) - -1 / 2 ^= 3",
        "1 = 1",
        "'O''Brien' = :dml.get_value('NEW', 'name')",
    })
    @DisplayName("valid rule conditions parse, and print back to text that parses to the same tree")
    void validConditionsRoundTrip(String text) {
        Condition c = Condition.parse(text);
        String printed = c.syntaxTree().toString();
        Condition again = Condition.parse(printed);
        assertEquals(printed, again.syntaxTree().toString(), "printing is a fixed point");
    }

    @ParameterizedTest
    @ValueSource(strings = {"department_id = 50", "\"Dept\" = 5 AND salary > 100", "UPPER(last_name) LIKE 'S%'",
        "department_id.AccessNumber() IN (10, 20)", "(salary + bonus) > 1000"})
    @DisplayName("dml_conditions name columns directly")
    void validDmlConditions(String text) {
        Condition c = Condition.parseDmlCondition(text);
        assertTrue(!c.columns().isEmpty());
        assertEquals(c.syntaxTree().toString(), Condition.parseDmlCondition(c.syntaxTree().toString()).syntaxTree().toString());
    }

    @Test
    @DisplayName("columns are CQL names: unquoted fold to lower case, quoted stay exact")
    void columnNames() {
        assertEquals(Set.of("department_id", "Dept"), Condition.parseDmlCondition("DEPARTMENT_ID = 5 and \"Dept\" = 1").columns());
        assertEquals(Set.of("salary", "Dept"),
                Condition.parse(":dml.get_value('NEW','SALARY') > 1 and :dml.get_value('OLD','\"Dept\"') = 2").columns());
    }

    @Test
    @DisplayName("the variables a condition reads are recorded")
    void variables() {
        Condition dml = Condition.parse(":dml.get_object_owner() = 'HR'");
        assertTrue(dml.readsDml() && !dml.readsDdl());
        Condition both = Condition.parse(":dml.get_object_owner() = 'HR' or :ddl.get_object_owner() = 'HR'");
        assertTrue(both.readsDml() && both.readsDdl());
        Condition none = Condition.parse("1 = 1");
        assertTrue(!none.readsDml() && !none.readsDdl());
    }

    private static ConditionSyntaxException fails(String text) {
        return assertThrows(ConditionSyntaxException.class, () -> Condition.parse(text));
    }

    private static void failsAt(String text, int position, String detailFragment) {
        ConditionSyntaxException e = fails(text);
        assertEquals(position, e.position(), () -> "position of the error in: " + text + " -> " + e.getMessage());
        assertTrue(e.getMessage().contains("position " + position), e.getMessage());
        assertTrue(e.detail().contains(detailFragment), () -> "detail '" + e.detail() + "' should mention '" + detailFragment + "'");
        assertEquals("CONDITION_SYNTAX", e.code());
        assertEquals(text, e.condition());
    }

    @Test
    @DisplayName("syntax errors name the 1-based position of the offending token")
    void invalidConditions() {
        failsAt("", 1, "empty condition");
        failsAt("   ", 4, "empty condition");
        String dangling = ":dml.get_object_owner() = ";
        failsAt(dangling, dangling.length() + 1, "expected an expression");
        String danglingAnd = ":dml.get_object_owner() = 'HR' AND";
        failsAt(danglingAnd, danglingAnd.length() + 1, "expected an expression");
        failsAt(":dml.get_object_owner( = 'HR'", 24, "expected an expression");
        failsAt(":dml.get_owner() = 'HR'", 6, "unknown method get_owner");
        failsAt(":foo.get_object_owner() = 'HR'", 1, "unknown variable :foo");
        failsAt(":dml.get_object_owner() = 'HR", 27, "unterminated string literal");
        failsAt("department_id = 50", 1, "only in a subset rule's dml_condition");
        failsAt(":dml.get_value('NEW') = 1", 6, "takes 2 or 3 arguments");
        failsAt(":dml.get_value('MID', 'x') = 1", 6, "'NEW' or 'OLD'");
        failsAt(":dml.get_value('NEW', :dml.get_object_name()) = 1", 6, "string literals");
        failsAt(":ddl.get_value('NEW','x') = 1", 6, "not a method of :ddl");
        failsAt(":dml.get_base_table_name() = 'x'", 6, "not a method of :dml");
        failsAt(":dml.get_object_owner() == 'HR'", 26, "expected an expression");
        failsAt(":dml.get_object_owner() @ 'HR'", 25, "unexpected character '@'");
        failsAt("(:dml.get_object_owner() = 'HR'", 32, "expected ')'");
        failsAt(":dml.get_object_owner() = 'HR' 'X'", 32, "expected AND, OR");
        failsAt(":dml.get_object_owner() IS TRUE", 28, "parenthesized condition");
        failsAt(":dml.get_object_owner() IS 5", 28, "expected NULL");
        failsAt(":lcr.get_object_owner() = 'X'", 1, "only in an and_condition");
        failsAt("FOO(1) = 1", 1, "unknown function FOO");
        failsAt("UPPER(1, 2) = 1", 1, "takes 1 argument");
        failsAt(":dml.get_object_name().AccessNumber() = 1", 23, "applies to a get_value result");
        failsAt(":dml.get_value('NEW','x').Frobnicate() = 1", 27, "ANYDATA accessor");
        failsAt("123abc = 1", 1, "malformed number");
        failsAt(":dml.get_object_owner()", 24, "expected a comparison operator");
        failsAt(":dml.get_object_owner() NOT 'x'", 29, "expected IN, BETWEEN or LIKE");
        failsAt(":dml.get_value('NEW','x') BETWEEN 1 OR 2", 37, "expected AND in BETWEEN");
        failsAt(":dml.get_value('NEW','x') IN 1", 30, "expected '(' after IN");
        failsAt(":dml.get_value('NEW','x') IN (1, 2", 35, "in the IN list");
        failsAt(":dml.get_value('NEW','x') LIKE 'a#b' ESCAPE '#'", 27, "escape character");
        failsAt(":dml.get_value('NEW','x') = DATE '2024-13-01'", 34, "not a valid DATE literal");
        failsAt("1 = 1 AND AND 2 = 2", 11, "expected an expression");
        failsAt(": = 1", 1, "variable name");
    }

    @Test
    @DisplayName("a dml_condition refuses variables, and its errors also name positions")
    void invalidDmlConditions() {
        ConditionSyntaxException e = assertThrows(ConditionSyntaxException.class,
                () -> Condition.parseDmlCondition("department_id = 50 and :dml.get_object_owner() = 'HR'"));
        assertEquals(24, e.position());
        assertTrue(e.detail().contains("variables"), e.detail());
        ConditionSyntaxException e2 = assertThrows(ConditionSyntaxException.class,
                () -> Condition.parseDmlCondition("department_id = = 50"));
        assertEquals(17, e2.position());
    }

    @Test
    @DisplayName("a parenthesis may open a condition or an expression; the error that got further is reported")
    void parenthesisAmbiguity() {
        assertEquals(Truth.TRUE, Condition.parse("(1 + 2) * 3 = 9").evaluate(PartialInput.dml("DB", "A", "B", "INSERT")));
        assertEquals(Truth.TRUE, Condition.parse("((1 = 1)) and (2 = 2)").evaluate(PartialInput.dml("DB", "A", "B", "INSERT")));
        ConditionSyntaxException e = fails("(1 = 1 and 2 = )");
        assertEquals(16, e.position());
    }
}
