package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatementSplitterTest {

    @Test
    void splitsAtSemicolonsAndTrims() {
        assertEquals(List.of("USE ks", "SELECT * FROM t"), StatementSplitter.splitAll("  USE ks ;\n SELECT * FROM t;\n"));
    }

    @Test
    void aLastStatementWithoutSemicolonStillCounts() {
        assertEquals(List.of("INSERT INTO t (k) VALUES (1)", "SELECT * FROM t"),
                StatementSplitter.splitAll("INSERT INTO t (k) VALUES (1); SELECT * FROM t"));
    }

    @Test
    void emptyStatementsAreDropped() {
        assertEquals(List.of("SELECT 1"), StatementSplitter.splitAll(";; SELECT 1 ;;\n;"));
        assertEquals(List.of(), StatementSplitter.splitAll("  \n "));
    }

    @Test
    void semicolonsInStringsAndQuotedNamesDoNotSplit() {
        assertEquals(List.of("INSERT INTO t (k, v) VALUES (1, 'a;b''c;')", "SELECT \"we;ird\" FROM t"),
                StatementSplitter.splitAll("INSERT INTO t (k, v) VALUES (1, 'a;b''c;'); SELECT \"we;ird\" FROM t;"));
        assertEquals(List.of("SELECT \"a\"\";b\" FROM t"), StatementSplitter.splitAll("SELECT \"a\"\";b\" FROM t;"));
        assertEquals(List.of("SELECT $$a;b$$ FROM t"), StatementSplitter.splitAll("SELECT $$a;b$$ FROM t;"));
    }

    @Test
    void commentsAreBlankedAndTheirSemicolonsIgnored() {
        List<String> s = StatementSplitter.splitAll("-- first; comment\nSELECT 1; // another; one\n"
                + "SELECT /* in; line */ 2;\n/* a\n block; */ SELECT 3;");
        // the comment keeps its length as spaces, so server positions still match the text
        assertEquals(List.of("SELECT 1", "SELECT " + " ".repeat("/* in; line */".length()) + " 2", "SELECT 3"), s);
        assertEquals(List.of("SELECT '--not a comment'"), StatementSplitter.splitAll("SELECT '--not a comment';"));
    }

    @Test
    void aBatchIsOneStatement() {
        String batch = "BEGIN BATCH\n  INSERT INTO t (k) VALUES (1);\n  UPDATE t SET v = 2 WHERE k = 1;\nAPPLY BATCH";
        assertEquals(List.of(batch, "SELECT * FROM t"), StatementSplitter.splitAll(batch + ";\nSELECT * FROM t;"));
        String unlogged = "begin unlogged batch insert into t (k) values (1); apply batch";
        assertEquals(List.of(unlogged, "SELECT 1"), StatementSplitter.splitAll(unlogged + "; SELECT 1;"));
    }

    @Test
    void batchKeywordsInsideStringsAreNotKeywords() {
        assertEquals(List.of("INSERT INTO t (v) VALUES ('BEGIN BATCH')", "SELECT 1"),
                StatementSplitter.splitAll("INSERT INTO t (v) VALUES ('BEGIN BATCH'); SELECT 1;"));
        String batch = "BEGIN BATCH INSERT INTO t (v) VALUES ('APPLY BATCH'); APPLY BATCH";
        assertEquals(List.of(batch), StatementSplitter.splitAll(batch + ";"));
    }

    @Test
    void splitKeepsTheUnfinishedRemainder() {
        StatementSplitter.Split s = StatementSplitter.split("SELECT 1; SELECT *\n  FROM");
        assertEquals(List.of("SELECT 1"), s.statements());
        assertEquals(" SELECT *\n  FROM", s.remainder());
        assertTrue(s.hasUnfinished());

        StatementSplitter.Split open = StatementSplitter.split("BEGIN BATCH INSERT INTO t (k) VALUES (1);\n");
        assertEquals(List.of(), open.statements());
        assertTrue(open.hasUnfinished());

        StatementSplitter.Split done = StatementSplitter.split("SELECT 1; -- trailing\n");
        assertFalse(done.hasUnfinished());
    }

    @Test
    void anOpenStringOrBlockCommentIsNotBlank() {
        assertTrue(StatementSplitter.isBlank(" -- only a comment"));
        assertTrue(StatementSplitter.isBlank("/* closed */ \n"));
        assertFalse(StatementSplitter.isBlank("/* still open"));
        assertFalse(StatementSplitter.isBlank("'open string"));
        assertFalse(StatementSplitter.isBlank("SELECT 1;"));
        assertEquals(List.of(), StatementSplitter.split("/* a; b").statements());
    }
}
