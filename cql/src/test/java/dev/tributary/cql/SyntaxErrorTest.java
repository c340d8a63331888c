package dev.tributary.cql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tributary.cql.errors.CqlSyntaxException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Syntax errors name the line, the column, the token found and what was expected. */
class SyntaxErrorTest {

    private static CqlSyntaxException fail(String text) {
        return assertThrows(CqlSyntaxException.class, () -> CqlParser.parse(text));
    }

    @Test
    void misspelledFromOnOneLine() {
        CqlSyntaxException e = fail("SELECT pk, ck, v, w, x FORM ks.t");
        assertEquals(1, e.line());
        assertEquals(24, e.column());
        assertEquals("FORM", e.found());
        assertEquals("FROM", e.expected());
        assertEquals("line 1:24 unexpected 'FORM', expected FROM", e.getMessage());
    }

    @Test
    void errorsInMultiLineInputCountLinesAndColumns() {
        CqlSyntaxException e = fail("""
                SELECT pk,
                       ck
                  FROM ks.t
                 WHERE pk = 1
                   AND ck =
                 LIMIT 5""");
        assertEquals(6, e.line());
        assertEquals(2, e.column());
        assertEquals("LIMIT", e.found());
        assertEquals("a value", e.expected());
        assertEquals("line 6:2 unexpected 'LIMIT', expected a value", e.getMessage());
    }

    @Test
    void endOfInputIsReportedAsEof() {
        CqlSyntaxException e = fail("INSERT INTO t (a, b) VALUES (1,\n 2");
        assertEquals(2, e.line());
        assertEquals(3, e.column());
        assertEquals("<EOF>", e.found());
        assertEquals("',' or ')'", e.expected());
        assertEquals("line 2:3 unexpected <EOF>, expected ',' or ')'", e.getMessage());
    }

    @Test
    void unknownStatementListsTheStatementKeywords() {
        CqlSyntaxException e = fail("SELEC * FROM t");
        assertEquals(1, e.column());
        assertEquals("SELECT, INSERT, UPDATE, DELETE, BEGIN, CREATE, DROP, ALTER, TRUNCATE, USE, CALL, GRANT, REVOKE or LIST", e.expected());
    }

    @Test
    void emptyInputIsAnError() {
        CqlSyntaxException e = fail("   -- only a comment\n");
        assertEquals("<EOF>", e.found());
        assertEquals(2, e.line());
        assertEquals(1, e.column());
    }

    @Test
    void optionalClausesAreListedWhereTheyCouldStart() {
        CqlSyntaxException e = fail("SELECT * FROM t WHERE a = 1 LIMT 5");
        assertEquals(29, e.column());
        assertEquals("AND, ORDER BY, LIMIT, ALLOW FILTERING, ';' or end of input", e.expected());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "INSERT t (a) VALUES (1)|1|8|t|INTO",
            "INSERT INTO t a VALUES (1)|1|15|a|'('",
            "INSERT INTO t (a) VALUE (1)|1|19|VALUE|VALUES",
            "UPDATE t SET WHERE k = 1|1|14|WHERE|an identifier",
            "UPDATE t SET a = 1 k = 1|1|20|k|',' or WHERE",
            "DELETE a b FROM t WHERE k = 1|1|10|b|'[', ',' or FROM",
            "SELECT * FROM t WHERE a == 1|1|26|=|a value",
            "SELECT * FROM t WHERE a LIKE 'x'|1|25|LIKE|an operator (=, !=, <, <=, >, >=, IN, CONTAINS)",
            "SELECT * FROM t ORDER c|1|23|c|BY",
            "SELECT * FROM t ALLOW|1|22|<EOF>|FILTERING",
            "CREATE TABLE t (a int PRIMARY KEY,)|1|35|)|PRIMARY KEY or an identifier",
            "CREATE TABLE t (a map<int, text PRIMARY KEY)|1|33|PRIMARY|'<', ',' or '>'",
            "CREATE KEYSPACE ks WITH replication = {'a': }|1|45|}|a value",
            "DROP INDEX i|1|6|INDEX|KEYSPACE, TABLE, COLUMNFAMILY, TYPE, DATABASE or ROLE",
            "CALL p.q(a => )|1|15|)|a value",
            "CALL p.q(1 2)|1|12|2|',' or ')'",
            "BEGIN BATCH INSERT INTO t (a) VALUES (1) APPLY|1|47|<EOF>|BATCH",
            "USE|1|4|<EOF>|an identifier"})
    void positionsAndExpectations(String text, int line, int column, String found, String expected) {
        CqlSyntaxException e = fail(text);
        assertEquals(line, e.line(), e.getMessage());
        assertEquals(column, e.column(), e.getMessage());
        assertEquals(found, e.found(), e.getMessage());
        assertEquals(expected, e.expected(), e.getMessage());
    }

    @Test
    void longTokensAreShortenedInTheMessageButNotInFound() {
        String longString = "'" + "x".repeat(100) + "'";
        CqlSyntaxException e = fail("SELECT * FROM t " + longString);
        assertEquals(longString, e.found());
        assertEquals(true, e.getMessage().contains("..."), e.getMessage());
    }
}
