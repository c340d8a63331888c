package dev.tributary.rules;

import dev.tributary.rules.eval.Truth;
import static dev.tributary.rules.eval.Truth.FALSE;
import static dev.tributary.rules.eval.Truth.MAYBE;
import static dev.tributary.rules.eval.Truth.TRUE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.rules.eval.RuleInput;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ConditionEvaluationTest {

    private static LcrInput.Builder row() {
        return LcrInput.builder().sourceDatabaseName("DB1").object("HR", "EMPLOYEES").commandType("INSERT");
    }

    private static Truth eval(String condition, RuleInput in) {
        return Condition.parse(condition).evaluate(in);
    }

    private static Truth evalNew(String condition, Object salary) {
        return eval(condition, row().newValue("salary", salary).build());
    }

    @Test
    @DisplayName("LCR attributes through :dml")
    void dmlAttributes() {
        LcrInput in = row().commandType("UPDATE").tag(new byte[] {0x1d}).build();
        assertEquals(TRUE, eval(":dml.get_object_owner() = 'HR' and :dml.get_object_name() = 'EMPLOYEES'", in));
        assertEquals(TRUE, eval(":dml.get_command_type() = 'UPDATE'", in));
        assertEquals(TRUE, eval(":dml.get_source_database_name() = 'DB1'", in));
        assertEquals(TRUE, eval(":dml.is_null_tag() = 'N'", in));
        assertEquals(TRUE, eval(":dml.get_tag() = HEXTORAW('1D')", in));
        assertEquals(TRUE, eval(":dml.is_null_tag() = 'Y'", row().build()));
        assertEquals(TRUE, eval(":dml.get_tag() IS NULL", row().build()));
        assertEquals(FALSE, eval(":dml.get_object_owner() = 'hr'", in), "names compare exactly, in rule form");
    }

    @Test
    @DisplayName("LCR attributes through :ddl; :dml is NULL for a DDL LCR and the other way round")
    void ddlAttributes() {
        LcrInput ddl = LcrInput.builder().ddl(true).sourceDatabaseName("DB1").object("HR", "EMP_IDX")
                .commandType("CREATE INDEX").objectType("INDEX").baseTable("HR", "EMPLOYEES").build();
        assertEquals(TRUE, eval(":ddl.get_object_type() = 'INDEX' and :ddl.get_base_table_name() = 'EMPLOYEES'"
                + " and :ddl.get_base_table_owner() = 'HR' and :ddl.get_command_type() = 'CREATE INDEX'", ddl));
        assertEquals(FALSE, eval(":dml.get_object_owner() = 'HR'", ddl));
        assertEquals(FALSE, eval("not (:dml.get_object_owner() = 'HR')", ddl), "NOT of NULL is NULL, not TRUE");
        assertEquals(TRUE, eval(":dml.get_object_owner() IS NULL", ddl));
        assertEquals(FALSE, eval(":ddl.get_object_owner() = 'HR'", row().build()));
        PartialInput partialDdl = PartialInput.ddl("DB1", "HR", "EMP_IDX", "CREATE INDEX");
        assertEquals(MAYBE, eval(":ddl.get_base_table_name() = 'EMPLOYEES'", partialDdl), "prefiltering does not know the base table");
        assertEquals(MAYBE, eval(":ddl.get_object_type() = 'INDEX'", partialDdl));
        assertEquals(TRUE, eval(":ddl.get_object_name() = 'EMP_IDX'", partialDdl));
    }

    @Test
    @DisplayName("numbers compare by value across classes")
    void numbersAcrossClasses() {
        for (Object fifty : new Object[] {50, 50L, (short) 50, (byte) 50, new BigDecimal("50.00"), BigInteger.valueOf(50), 50.0, 50.0f, "50"}) {
            assertEquals(TRUE, evalNew(":dml.get_value('NEW','salary') = 50", fifty), () -> fifty.getClass().getSimpleName());
            assertEquals(TRUE, evalNew(":dml.get_value('NEW','salary') < 50.5", fifty), () -> fifty.getClass().getSimpleName());
            assertEquals(FALSE, evalNew(":dml.get_value('NEW','salary') > 50", fifty), () -> fifty.getClass().getSimpleName());
        }
        assertEquals(TRUE, evalNew(":dml.get_value('NEW','salary') = 0.1", 0.1f), "a float compares as a float");
        assertEquals(TRUE, evalNew(":dml.get_value('NEW','salary') = 12345678901234567890123", new BigInteger("12345678901234567890123")));
        assertEquals(FALSE, evalNew(":dml.get_value('NEW','salary') = 9223372036854775807", Long.MIN_VALUE));
        assertEquals(FALSE, evalNew(":dml.get_value('NEW','salary') = 50", "fifty"), "an unconvertible string is NULL, so not TRUE");
    }

    @Test
    @DisplayName("other value types: timestamps, dates, UUIDs, booleans, blobs")
    void otherTypes() {
        Instant t = Instant.parse("2024-01-01T10:00:00Z");
        assertEquals(TRUE, evalNew(":dml.get_value('NEW','salary') = TIMESTAMP '2024-01-01 10:00:00'", t));
        assertEquals(TRUE, evalNew(":dml.get_value('NEW','salary') > '2023-12-31T00:00:00Z'", t));
        assertEquals(TRUE, evalNew(":dml.get_value('NEW','salary') = DATE '2024-02-29'", LocalDate.of(2024, 2, 29)));
        UUID u = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        assertEquals(TRUE, evalNew(":dml.get_value('NEW','salary') = '123e4567-e89b-12d3-a456-426614174000'", u));
        assertEquals(TRUE, evalNew(":dml.get_value('NEW','salary') = TRUE", Boolean.TRUE));
        assertEquals(TRUE, evalNew(":dml.get_value('NEW','salary') = 'true'", Boolean.TRUE));
        assertEquals(TRUE, evalNew(":dml.get_value('NEW','salary') = HEXTORAW('CAFE')", new byte[] {(byte) 0xca, (byte) 0xfe}));
        assertEquals(FALSE, evalNew(":dml.get_value('NEW','salary') = 5", t), "incomparable types are NULL");
        assertEquals(FALSE, evalNew("not (:dml.get_value('NEW','salary') = 5)", t), "and so is their negation");
    }

    @Test
    @DisplayName("present NULL is SQL NULL; an absent column is unknown (MAYBE)")
    void nullAndAbsent() {
        LcrInput withNull = row().newValue("salary", null).build();
        assertEquals(FALSE, eval(":dml.get_value('NEW','salary') = 50", withNull));
        assertEquals(FALSE, eval("not (:dml.get_value('NEW','salary') = 50)", withNull));
        assertEquals(TRUE, eval(":dml.get_value('NEW','salary') IS NULL", withNull));
        assertEquals(TRUE, eval("(:dml.get_value('NEW','salary') = 50) IS NOT TRUE", withNull));
        assertEquals(TRUE, eval("(:dml.get_value('NEW','salary') = 50) IS UNKNOWN", withNull));

        LcrInput without = row().newValue("other", 1).build();
        assertEquals(MAYBE, eval(":dml.get_value('NEW','salary') = 50", without));
        assertEquals(MAYBE, eval(":dml.get_value('NEW','salary') IS NULL", without));
        assertEquals(MAYBE, eval("(:dml.get_value('NEW','salary') = 50) IS NOT TRUE", without));
        assertEquals(FALSE, eval(":dml.get_object_owner() = 'OE' and :dml.get_value('NEW','salary') = 50", without),
                "FALSE AND unknown is FALSE");
        assertEquals(TRUE, eval(":dml.get_object_owner() = 'HR' or :dml.get_value('NEW','salary') = 50", without),
                "TRUE OR unknown is TRUE");
    }

    @Test
    @DisplayName("get_value('NEW') falls back to the old value when the new image lacks the column, unless use_old is 'N'")
    void useOld() {
        LcrInput update = row().commandType("UPDATE").oldValue("department_id", 50).oldValue("salary", 10)
                .newValue("salary", 20).build();
        assertEquals(TRUE, eval(":dml.get_value('NEW','department_id') = 50", update));
        assertEquals(TRUE, eval(":dml.get_value('NEW','DEPARTMENT_ID', 'Y') = 50", update));
        assertEquals(MAYBE, eval(":dml.get_value('NEW','department_id', 'N') = 50", update));
        assertEquals(TRUE, eval(":dml.get_value('NEW','salary') = 20 and :dml.get_value('OLD','salary') = 10", update));
        assertEquals(MAYBE, eval(":dml.get_value('OLD','missing') = 1", update));
    }

    @Test
    @DisplayName("column names in get_value: unquoted are case-insensitive, quoted exact")
    void columnNameCase() {
        LcrInput in = row().newValue("dept", 1).newValue("Dept", 2).build();
        assertEquals(TRUE, eval(":dml.get_value('NEW','DEPT') = 1", in));
        assertEquals(TRUE, eval(":dml.get_value('NEW','dept') = 1", in));
        assertEquals(TRUE, eval(":dml.get_value('NEW','\"Dept\"') = 2", in));
        assertEquals(TRUE, eval(":dml.get_value('NEW','\"Dept\"').AccessNumber() = 2", in));
    }

    @Test
    @DisplayName("prefiltering: column values, object type and base table are unknown")
    void partialInputs() {
        PartialInput p = PartialInput.dml("DB1", "HR", "EMPLOYEES", "UPDATE");
        assertEquals(MAYBE, eval(":dml.get_value('NEW','salary') > 10", p));
        assertEquals(TRUE, eval(":dml.get_object_owner() = 'HR' and :dml.get_command_type() = 'UPDATE'", p));
        assertEquals(FALSE, eval(":dml.get_object_owner() = 'HR' and :dml.get_command_type() = 'INSERT' and :dml.get_value('NEW','x') = 1", p));
        assertEquals(MAYBE, eval("NVL(:dml.get_value('NEW','salary'), 0) = 0", p));
        assertEquals(TRUE, eval(":dml.is_null_tag() = 'Y'", p));
        assertEquals(TRUE, eval(":dml.is_null_tag() = 'N'", p.withTag(new byte[] {1})));
    }

    @Test
    @DisplayName("IN, BETWEEN and LIKE follow SQL, NULLs included")
    void predicates() {
        LcrInput in = row().newValue("n", 2).newValue("s", "Smith_50%").newValue("z", null).build();
        assertEquals(TRUE, eval(":dml.get_value('NEW','n') IN (1, 2, 3)", in));
        assertEquals(FALSE, eval(":dml.get_value('NEW','n') IN (1, NULL)", in), "no match and a NULL item is NULL");
        assertEquals(FALSE, eval(":dml.get_value('NEW','n') NOT IN (1, NULL)", in), "NOT IN with a NULL item is never TRUE");
        assertEquals(TRUE, eval(":dml.get_value('NEW','n') IN (2, NULL)", in));
        assertEquals(TRUE, eval(":dml.get_value('NEW','n') NOT IN (5, 6)", in));
        assertEquals(TRUE, eval(":dml.get_value('NEW','n') BETWEEN 2 AND 3", in));
        assertEquals(FALSE, eval(":dml.get_value('NEW','n') BETWEEN 3 AND 4", in));
        assertEquals(TRUE, eval(":dml.get_value('NEW','n') NOT BETWEEN 3 AND 4", in));
        assertEquals(FALSE, eval(":dml.get_value('NEW','z') BETWEEN 3 AND 4", in));
        assertEquals(FALSE, eval(":dml.get_value('NEW','z') NOT BETWEEN 3 AND 4", in));
        assertEquals(TRUE, eval(":dml.get_value('NEW','s') LIKE 'S%'", in));
        assertEquals(TRUE, eval(":dml.get_value('NEW','s') LIKE 'Smit__50%'", in));
        assertEquals(FALSE, eval(":dml.get_value('NEW','s') LIKE 's%'", in), "LIKE is case-sensitive");
        assertEquals(TRUE, eval(":dml.get_value('NEW','s') LIKE '%\\_50\\%' ESCAPE '\\'", in));
        assertEquals(FALSE, eval(":dml.get_value('NEW','s') LIKE '%\\_5\\%' ESCAPE '\\'", in));
        assertEquals(FALSE, eval(":dml.get_value('NEW','z') NOT LIKE 'x%'", in));
        assertEquals(TRUE, eval(":dml.get_value('NEW','n') LIKE '2'", in), "LIKE converts a number to text");
        assertEquals(TRUE, eval(":dml.get_value('NEW','s') LIKE :dml.get_value('NEW','s')", in), "a pattern may be an expression");
    }

    @Test
    @DisplayName("arithmetic, concatenation and functions")
    void expressions() {
        LcrInput in = row().newValue("salary", 1200).newValue("bonus", new BigDecimal("0.5")).newValue("name", "  King ")
                .newValue("z", null).newValue("big", Long.MAX_VALUE).build();
        assertEquals(TRUE, eval(":dml.get_value('NEW','salary') * 2 - 400 = 2000", in));
        assertEquals(TRUE, eval(":dml.get_value('NEW','salary') * :dml.get_value('NEW','bonus') = 600", in));
        assertEquals(TRUE, eval(":dml.get_value('NEW','salary') / 7 > 171.4", in));
        assertEquals(TRUE, eval("(:dml.get_value('NEW','salary') / 0) IS NULL", in), "division by zero is NULL");
        assertEquals(TRUE, eval(":dml.get_value('NEW','big') + 1 = 9223372036854775808", in), "no overflow");
        assertEquals(TRUE, eval("-:dml.get_value('NEW','salary') = -1200", in));
        assertEquals(TRUE, eval("'a' || :dml.get_value('NEW','z') || 'b' = 'ab'", in), "|| treats NULL as empty");
        assertEquals(TRUE, eval("TRIM(:dml.get_value('NEW','name')) = 'King'", in));
        assertEquals(TRUE, eval("UPPER(TRIM(:dml.get_value('NEW','name'))) = 'KING' and LOWER('KING') = 'king'", in));
        assertEquals(TRUE, eval("LENGTH(:dml.get_value('NEW','name')) = 7", in));
        assertEquals(TRUE, eval("SUBSTR('EMPLOYEES', 1, 3) = 'EMP' and SUBSTR('EMPLOYEES', -3) = 'EES'"
                + " and SUBSTR('EMPLOYEES', 0, 1) = 'E'", in));
        assertEquals(TRUE, eval("SUBSTR('EMP', 5) IS NULL", in));
        assertEquals(TRUE, eval("NVL(:dml.get_value('NEW','z'), 7) = 7 and NVL(:dml.get_value('NEW','salary'), 7) = 1200", in));
        assertEquals(TRUE, eval("ABS(-5) = 5 and TO_NUMBER('42') = 42 and TO_CHAR(42) = '42'", in));
        assertEquals(TRUE, eval("RAWTOHEX(HEXTORAW('0a1b')) = '0A1B'", in));
        assertEquals(TRUE, eval(":dml.get_value('NEW','z') + 1 IS NULL", in));
    }
}
