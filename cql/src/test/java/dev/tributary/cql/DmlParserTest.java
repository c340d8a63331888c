package dev.tributary.cql;

import static dev.tributary.cql.ParserTestSupport.i;
import static dev.tributary.cql.ParserTestSupport.parse;
import static dev.tributary.cql.ParserTestSupport.qn;
import static dev.tributary.cql.ParserTestSupport.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.ast.AddToColumn;
import dev.tributary.cql.ast.Batch;
import dev.tributary.cql.ast.BatchKind;
import dev.tributary.cql.ast.BindMarker;
import dev.tributary.cql.ast.ColumnLhs;
import dev.tributary.cql.ast.Delete;
import dev.tributary.cql.ast.Insert;
import dev.tributary.cql.ast.ListLit;
import dev.tributary.cql.ast.Operator;
import dev.tributary.cql.ast.PrependToColumn;
import dev.tributary.cql.ast.Relation;
import dev.tributary.cql.ast.Selection;
import dev.tributary.cql.ast.SetColumn;
import dev.tributary.cql.ast.SetElement;
import dev.tributary.cql.ast.SetLit;
import dev.tributary.cql.ast.SubtractFromColumn;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.Update;
import dev.tributary.cql.ast.Using;
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlSyntaxException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DmlParserTest {

    private static Relation eq(String column, Term value) {
        return new Relation(new ColumnLhs(column), Operator.EQ, value);
    }

    @Test
    void insert() {
        Insert ins = parse("INSERT INTO ks.t (pk, ck, v) values (0,0,0)", Insert.class);
        assertEquals(new Insert(qn("ks", "t"), List.of("pk", "ck", "v"), List.of(i(0), i(0), i(0)), false, Using.NONE),
                ins);
    }

    @Test
    void insertIfNotExistsAndUsingInEitherOrder() {
        Insert a = parse("INSERT INTO t (a) VALUES (1) IF NOT EXISTS USING TTL 5", Insert.class);
        Insert b = parse("INSERT INTO t (a) VALUES (1) USING TTL 5 IF NOT EXISTS", Insert.class);
        assertEquals(a, b);
        assertTrue(a.ifNotExists());
        assertEquals(new Using(null, i(5)), a.using());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "INSERT INTO t (a) VALUES (1) USING TIMESTAMP 123 AND TTL 5",
            "INSERT INTO t (a) VALUES (1) USING TTL 5 AND TIMESTAMP 123",
            "INSERT INTO t (a) VALUES (1) USING TIMESTAMP 123 USING TTL 5",
            "insert into t (a) values (1) using ttl 5 using timestamp 123"})
    void usingForms(String statement) {
        assertEquals(new Using(i(123), i(5)), parse(statement, Insert.class).using());
    }

    @Test
    void usingWithBindMarkersAndNegativeTimestamp() {
        Insert ins = parse("INSERT INTO t (a) VALUES (?) USING TIMESTAMP ? AND TTL ?", Insert.class);
        assertEquals(new Using(new BindMarker(1), new BindMarker(2)), ins.using());
        assertEquals(new Using(i(-5), null), parse("INSERT INTO t (a) VALUES (1) USING TIMESTAMP -5", Insert.class).using());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "INSERT INTO t (a, b, c) VALUES (1, 2)|3 columns but 2 values",
            "INSERT INTO t (a) VALUES (1, 2)|1 columns but 2 values",
            "INSERT INTO t (a, a) VALUES (1, 2)|Multiple definitions of column a",
            "INSERT INTO t (a) VALUES (1) USING TTL -1|A TTL must be greater or equal to 0",
            "INSERT INTO t (a) VALUES (1) USING TTL 630720001|ttl is too large",
            "INSERT INTO t (a) VALUES (1) USING TTL 1 AND TTL 2|USING TTL given twice",
            "INSERT INTO t (a) VALUES (1) USING TIMESTAMP 1 USING TIMESTAMP 2|USING TIMESTAMP given twice",
            "INSERT INTO t (a) VALUES (1) USING TIMESTAMP 9223372036854775808|does not fit"})
    void nonsenseInsertsAreInvalid(String statement, String messagePart) {
        CqlInvalidException e = assertThrows(CqlInvalidException.class, () -> CqlParser.parse(statement));
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
    }

    @Test
    void insertValuesCountMessageNamesTheTable() {
        CqlInvalidException e = assertThrows(CqlInvalidException.class,
                () -> CqlParser.parse("INSERT INTO ks.t (a, b, c) VALUES (1, 2)"));
        assertEquals("Unmatched column names/values in INSERT INTO ks.t: 3 columns but 2 values", e.getMessage());
    }

    @Test
    void updateWithAllAssignmentForms() {
        Update u = parse("""
                UPDATE ks.t USING TIMESTAMP 10 SET
                    v = 1, l = l + [2], l2 = [0] + l2, s = s - {3}, c = c + 1, d = d - 1,
                    m['k'] = 'v', e += 4, f -= 5, g = -7
                WHERE pk = 0 AND ck = 1 IF EXISTS""", Update.class);
        assertEquals(qn("ks", "t"), u.table());
        assertEquals(new Using(i(10), null), u.using());
        assertEquals(List.of(
                new SetColumn("v", i(1)),
                new AddToColumn("l", new ListLit(List.of(i(2)))),
                new PrependToColumn("l2", new ListLit(List.of(i(0)))),
                new SubtractFromColumn("s", new SetLit(List.of(i(3)))),
                new AddToColumn("c", i(1)),
                new SubtractFromColumn("d", i(1)),
                new SetElement("m", s("k"), s("v")),
                new AddToColumn("e", i(4)),
                new SubtractFromColumn("f", i(5)),
                new SetColumn("g", i(-7))), u.assignments());
        assertEquals(List.of(eq("pk", i(0)), eq("ck", i(1))), u.where());
        assertTrue(u.ifExists());
    }

    @Test
    void minusWithoutSpaceIsStillSubtraction() {
        Update u = parse("UPDATE t SET c = c -5 WHERE k = 1", Update.class);
        assertEquals(List.of(new SubtractFromColumn("c", i(5))), u.assignments());
        Update neg = parse("UPDATE t SET c = c + -5 WHERE k = 1", Update.class);
        assertEquals(List.of(new AddToColumn("c", i(-5))), neg.assignments());
    }

    @Test
    void updateOfOneColumnFromAnotherIsInvalid() {
        CqlInvalidException e = assertThrows(CqlInvalidException.class,
                () -> CqlParser.parse("UPDATE t SET a = b + 1 WHERE k = 1"));
        assertTrue(e.getMessage().contains("X = X + <value>"), e.getMessage());
        assertThrows(CqlInvalidException.class, () -> CqlParser.parse("UPDATE t SET a = [1] + b WHERE k = 1"));
    }

    @Test
    void columnReferenceWithoutOperatorIsASyntaxError() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class,
                () -> CqlParser.parse("UPDATE t SET a = b WHERE k = 1"));
        assertEquals("WHERE", e.found());
        assertEquals("'+' or '-'", e.expected());
    }

    @Test
    void conflictingAssignmentsAreInvalid() {
        assertThrows(CqlInvalidException.class, () -> CqlParser.parse("UPDATE t SET a = 1, a = 2 WHERE k = 1"));
        assertThrows(CqlInvalidException.class, () -> CqlParser.parse("UPDATE t SET m = {}, m['x'] = 2 WHERE k = 1"));
        // two element writes to one map are fine
        parse("UPDATE t SET m['a'] = 1, m['b'] = 2 WHERE k = 1", Update.class);
    }

    @Test
    void updateRequiresWhereAndRefusesConditions() {
        assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("UPDATE t SET a = 1"));
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class,
                () -> CqlParser.parse("UPDATE t SET a = 1 WHERE k = 1 IF a = 2"));
        assertEquals("a", e.found());
        assertEquals("EXISTS", e.expected());
    }

    @Test
    void deleteWholeRowColumnsAndElements() {
        Delete whole = parse("DELETE FROM ks.t WHERE pk = 0 AND ck > 5", Delete.class);
        assertEquals(new Delete(qn("ks", "t"), List.of(), Using.NONE,
                List.of(eq("pk", i(0)), new Relation(new ColumnLhs("ck"), Operator.GT, i(5))), false), whole);
        Delete cols = parse("DELETE v, m['k'], l[0] FROM t USING TIMESTAMP 99 WHERE pk = 0 IF EXISTS", Delete.class);
        assertEquals(List.of(new Selection("v", null), new Selection("m", s("k")), new Selection("l", i(0))),
                cols.columns());
        assertEquals(new Using(i(99), null), cols.using());
        assertTrue(cols.ifExists());
    }

    @Test
    void deleteWithTtlIsInvalidAndWithoutWhereIsASyntaxError() {
        CqlInvalidException e = assertThrows(CqlInvalidException.class,
                () -> CqlParser.parse("DELETE FROM t USING TTL 5 WHERE k = 1"));
        assertTrue(e.getMessage().contains("TTL"), e.getMessage());
        CqlSyntaxException s = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("DELETE FROM t"));
        assertEquals("<EOF>", s.found());
    }

    @Test
    void batches() {
        Batch b = parse("""
                BEGIN BATCH
                  INSERT INTO t (a, b) VALUES (?, ?);
                  UPDATE t SET b = ? WHERE a = ?
                  DELETE FROM t WHERE a = ?;
                APPLY BATCH""", Batch.class);
        assertEquals(BatchKind.LOGGED, b.kind());
        assertEquals(Using.NONE, b.using());
        assertEquals(3, b.statements().size());
        assertEquals(List.of(new BindMarker(0), new BindMarker(1)), ((Insert) b.statements().get(0)).values());
        assertEquals(new SetColumn("b", new BindMarker(2)), ((Update) b.statements().get(1)).assignments().get(0));
        assertEquals(eq("a", new BindMarker(4)), ((Delete) b.statements().get(2)).where().get(0));
        assertEquals(5, CqlParser.countBindMarkers(b));
        assertEquals(BatchKind.UNLOGGED, parse("BEGIN UNLOGGED BATCH APPLY BATCH", Batch.class).kind());
        Batch counter = parse("BEGIN COUNTER BATCH USING TIMESTAMP 5 UPDATE t SET c = c + 1 WHERE k = 1; APPLY BATCH;",
                Batch.class);
        assertEquals(BatchKind.COUNTER, counter.kind());
        assertEquals(new Using(i(5), null), counter.using());
    }

    @Test
    void batchRules() {
        assertThrows(CqlInvalidException.class, () -> CqlParser.parse(
                "BEGIN BATCH USING TIMESTAMP 1 INSERT INTO t (a) VALUES (1) USING TIMESTAMP 2 APPLY BATCH"));
        assertThrows(CqlInvalidException.class, () -> CqlParser.parse(
                "BEGIN BATCH USING TTL 1 INSERT INTO t (a) VALUES (1) APPLY BATCH"));
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse(
                "BEGIN BATCH SELECT * FROM t APPLY BATCH"));
        assertEquals("SELECT", e.found());
        assertEquals("USING, INSERT, UPDATE, DELETE or APPLY BATCH", e.expected());
        assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("BEGIN BATCH INSERT INTO t (a) VALUES (1);"));
    }

    @Test
    void modificationStatementsExposeTableAndUsing() {
        Batch b = parse("BEGIN BATCH INSERT INTO a.x (k) VALUES (1) USING TTL 3; DELETE FROM b.y WHERE k = 1 APPLY BATCH",
                Batch.class);
        assertEquals(List.of(qn("a", "x"), qn("b", "y")), b.statements().stream().map(s -> s.table()).toList());
        assertEquals(new Using(null, i(3)), b.statements().get(0).using());
        assertFalse(b.statements().get(1).using().ttl() != null);
    }
}
