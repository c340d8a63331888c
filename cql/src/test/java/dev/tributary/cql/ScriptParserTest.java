package dev.tributary.cql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.ast.Batch;
import dev.tributary.cql.ast.BindMarker;
import dev.tributary.cql.ast.CreateTable;
import dev.tributary.cql.ast.Insert;
import dev.tributary.cql.ast.ParsedStatement;
import dev.tributary.cql.ast.Select;
import dev.tributary.cql.errors.CqlSyntaxException;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptParserTest {

    @Test
    void statementsWithTextAndLine() {
        List<ParsedStatement> all = CqlParser.parseScript("""
                -- set up
                CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true};
                INSERT INTO ks.t (pk, ck, v) values (0,0,0);

                SELECT "cdc$stream_id", pk
                  FROM ks.t_scylla_cdc_log
                """);
        assertEquals(3, all.size());
        assertInstanceOf(CreateTable.class, all.get(0).statement());
        assertEquals(2, all.get(0).line());
        assertEquals("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}",
                all.get(0).text());
        assertInstanceOf(Insert.class, all.get(1).statement());
        assertEquals(3, all.get(1).line());
        assertEquals("INSERT INTO ks.t (pk, ck, v) values (0,0,0)", all.get(1).text());
        assertInstanceOf(Select.class, all.get(2).statement());
        assertEquals(5, all.get(2).line());
        assertEquals("SELECT \"cdc$stream_id\", pk\n  FROM ks.t_scylla_cdc_log", all.get(2).text());
    }

    @Test
    void aBatchIsOneStatementDespiteItsSemicolons() {
        List<ParsedStatement> all = CqlParser.parseScript(
                "BEGIN BATCH INSERT INTO t (a) VALUES (?); INSERT INTO t (a) VALUES (?); APPLY BATCH; SELECT * FROM t;");
        assertEquals(2, all.size());
        Batch b = assertInstanceOf(Batch.class, all.get(0).statement());
        assertEquals(2, b.statements().size());
        assertEquals("BEGIN BATCH INSERT INTO t (a) VALUES (?); INSERT INTO t (a) VALUES (?); APPLY BATCH",
                all.get(0).text());
    }

    @Test
    void bindMarkersCountPerStatement() {
        List<ParsedStatement> all = CqlParser.parseScript("INSERT INTO t (a) VALUES (?); INSERT INTO t (a) VALUES (?)");
        assertEquals(new BindMarker(0), ((Insert) all.get(0).statement()).values().get(0));
        assertEquals(new BindMarker(0), ((Insert) all.get(1).statement()).values().get(0));
    }

    @Test
    void emptyStatementsAndCommentsAreSkipped() {
        assertEquals(List.of(), CqlParser.parseScript(""));
        assertEquals(List.of(), CqlParser.parseScript(" ;; -- nothing\n /* at all */ ;"));
        assertEquals(1, CqlParser.parseScript(";;USE ks;;").size());
    }

    @Test
    void statementsMustBeSeparated() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class,
                () -> CqlParser.parseScript("USE ks\nUSE other"));
        assertEquals(2, e.line());
        assertEquals(1, e.column());
        assertEquals("USE", e.found());
        assertEquals("';' or end of input", e.expected());
    }

    @Test
    void iterationStopsAtTheBadStatementAfterYieldingTheGoodOnes() {
        Iterator<ParsedStatement> it = CqlParser.iterateScript("USE a;\nUSE b;\nSELEC * FROM t;\nUSE # c;");
        assertEquals("USE a", it.next().text());
        assertTrue(it.hasNext());
        assertEquals("USE b", it.next().text());
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, it::next);
        assertEquals(3, e.line());
        assertEquals("SELEC", e.found());
    }

    @Test
    void aLexicalErrorLaterInTheScriptDoesNotStopEarlierStatements() {
        Iterator<ParsedStatement> it = CqlParser.iterateScript("USE a; USE 'unterminated");
        assertEquals("USE a", it.next().text());
        assertTrue(it.hasNext());
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, it::next);
        assertEquals(12, e.column());
    }

    @Test
    void parseAcceptsOneStatementOnly() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("USE a; USE b"));
        assertEquals("USE", e.found());
        assertEquals(8, e.column());
        assertEquals("end of input", e.expected());
        assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("USE a;;"));
        assertFalse(CqlParser.parseScript("USE a").isEmpty());
    }
}
