package dev.tributary.cql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tributary.cql.ast.ParsedStatement;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlSyntaxException;
import dev.tributary.cql.errors.CqlTypeException;
import dev.tributary.cql.internal.AstTerms;
import dev.tributary.cql.lexer.CqlLexer;
import dev.tributary.cql.lexer.Token;
import dev.tributary.cql.lexer.TokenKind;
import dev.tributary.dictionary.types.CqlType;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Mutates valid statements (tokens deleted, duplicated, swapped, replaced; characters deleted or
 * inserted) and checks that the parser only ever answers with a statement, a
 * {@link CqlSyntaxException} or a {@link CqlInvalidException}, and that the terms of what parses
 * can be typed against any column type with nothing but CQL errors. Replay a failure with
 * {@code -Dcql.fuzz.seed=N}.
 */
class ParserMutationTest {
    private static final int TOKEN_CASES = 4_000;
    private static final int CHAR_CASES = 2_000;

    private static final List<String> CORPUS = List.of(
            "SELECT \"cdc$stream_id\", pk FROM ks.t_scylla_cdc_log",
            "SELECT totimestamp(now()) FROM system.local",
            "SELECT token(pk), writetime(v) AS w FROM ks.t WHERE token(pk) > -100 LIMIT 10 ALLOW FILTERING",
            "SELECT DISTINCT pk FROM ks.t WHERE pk IN (1, 2, ?) AND (c1, c2) >= (1, 2) ORDER BY c1 DESC LIMIT ?",
            "SELECT count(*) FROM t WHERE m CONTAINS KEY 'k' AND s CONTAINS 3",
            "CALL dbms_streams_adm.add_table_rules(table_name => 'hr.employees', streams_type => 'capture', inclusion_rule => true)",
            "CALL dbms_capture_adm.create_capture('q', capture_name => 'c', first_scn => NULL, start_scn => 42)",
            "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class':'NetworkTopologyStrategy', 'replication_factor': 3} AND tablets = {'enabled': true}",
            "CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true} AND tablets = {'min_tablet_count': 2}",
            "CREATE TABLE IF NOT EXISTS t (p1 text, p2 int, c timestamp, s text STATIC, m map<text, frozen<list<int>>>, PRIMARY KEY ((p1, p2), c)) WITH CLUSTERING ORDER BY (c DESC)",
            "CREATE TYPE ks.address (street text, zip int)",
            "ALTER TABLE ks.t ADD (a int, b set<text>)",
            "ALTER TABLE ks.t DROP v",
            "ALTER TABLE ks.t WITH tablets={'min_tablet_count':4}",
            "DROP TABLE IF EXISTS ks.t",
            "TRUNCATE ks.t",
            "USE ks",
            "INSERT INTO ks.t (pk, ck, v) VALUES (0, 0, 0) USING TIMESTAMP 123 AND TTL 5",
            "INSERT INTO t (a, b, c, d, e) VALUES ([1, 2], {'x': 1.5e3}, {1, 2}, 0xcafe, 1h30m) IF NOT EXISTS",
            "INSERT INTO t (u, d, f, g, n) VALUES (123e4567-e89b-12d3-a456-426614174000, -2.5, NaN, -Infinity, null)",
            "INSERT INTO t (a, b) VALUES ({street: 'x', zip: 1}, (1, 'two'))",
            "UPDATE ks.t USING TTL 5 SET l = l + [1], m['a'] = 2, c = c - 1, p = [0] + p WHERE pk = ? AND ck IN (1, 2) IF EXISTS",
            "DELETE m['x'], v FROM t USING TIMESTAMP 5 WHERE a = ? AND b > 3",
            "BEGIN UNLOGGED BATCH INSERT INTO t (a) VALUES (?); DELETE FROM t WHERE a = ?; UPDATE t SET b = 'it''s' WHERE a = 1; APPLY BATCH",
            "INSERT INTO t (a, b) VALUES ($$dollar$$, P1DT2H) -- comment\n",
            "SELECT a /* block */ FROM t WHERE a = 'x' // tail",
            "CREATE ROLE IF NOT EXISTS r WITH PASSWORD = 'pw' AND LOGIN = true AND SUPERUSER = false",
            "ALTER ROLE \"R\" WITH LOGIN = false",
            "DROP ROLE IF EXISTS 'r'",
            "GRANT SELECT PERMISSION, MODIFY ON KEYSPACE ks TO r",
            "REVOKE ALL PERMISSIONS ON ks.t FROM r",
            "LIST ALL PERMISSIONS ON ALL KEYSPACES OF r NORECURSIVE",
            "LIST ROLES OF r",
            "CREATE DATABASE LINK l CONNECT TO u IDENTIFIED BY 'pw' USING 'h:1'");

    private static final String[] EXTRA_TOKENS = {"(", ")", "[", "]", "{", "}", ",", ";", ".", ":", "=>", "=", "<", ">",
            "-", "+", "*", "?", "'s'", "1", "1.5", "0x00", "NaN", "null", "true", "1h", "SELECT", "FROM", "WHERE", "AND",
            "IN", "BATCH", "APPLY", "BEGIN", "PRIMARY", "KEY", "token", "now", "x", "\"Q\"", "IF", "EXISTS", "USING",
            "TTL", "TIMESTAMP", "WITH", "COMPACT", "STATIC", "frozen", "<=", "!=", "CONTAINS", "AS", "LIMIT", "-5"};

    private static final String CHAR_POOL = "();,.'\"$-/*?{}[]<>=!:x1 \n";

    private static final CqlType.UserType ADDRESS = new CqlType.UserType("ks", "address", List.of(
            new CqlType.Field("street", CqlType.parse("text")), new CqlType.Field("zip", CqlType.parse("int"))), false);
    private static final List<CqlType> TYPES = List.of(CqlType.parse("int"), CqlType.parse("tinyint"),
            CqlType.parse("text"), CqlType.parse("ascii"), CqlType.parse("float"), CqlType.parse("decimal"),
            CqlType.parse("timestamp"), CqlType.parse("date"), CqlType.parse("time"), CqlType.parse("timeuuid"),
            CqlType.parse("inet"), CqlType.parse("blob"), CqlType.parse("duration"), CqlType.parse("list<int>"),
            CqlType.parse("set<text>"), CqlType.parse("map<text, double>"),
            CqlType.parse("frozen<list<map<int, text>>>"), ADDRESS);

    private final TermTyper typer = new TermTyper(
            new TimeUuidGenerator(InstantSource.fixed(Instant.EPOCH), 1, 1), new SplittableRandom(3));
    private int parsed;
    private int refused;

    @Test
    void mutatedStatementsOnlyFailWithCqlErrors() {
        long seed = Long.getLong("cql.fuzz.seed", System.nanoTime());
        System.out.println("ParserMutationTest seed=" + seed + " (replay with -Dcql.fuzz.seed=" + seed + ")");
        Random random = new Random(seed);
        for (int c = 0; c < TOKEN_CASES; c++) {
            String base = CORPUS.get(random.nextInt(CORPUS.size()));
            check(seed, c, tokenMutation(base, random));
        }
        for (int c = 0; c < CHAR_CASES; c++) {
            String base = CORPUS.get(random.nextInt(CORPUS.size()));
            check(seed, TOKEN_CASES + c, charMutation(base, random));
        }
        // the mutations must exercise both outcomes, or this test proves nothing
        assertTrue(parsed > 100, "only " + parsed + " mutants parsed (seed " + seed + ")");
        assertTrue(refused > 1000, "only " + refused + " mutants were refused (seed " + seed + ")");
    }

    @Test
    void theUnmutatedCorpusParsesAndRoundTripsThroughScriptText() {
        for (String text : CORPUS) {
            Statement st = CqlParser.parse(text);
            List<ParsedStatement> script = CqlParser.parseScript(text + "\n;\n" + text);
            assertEquals(2, script.size(), text);
            assertEquals(st, script.get(1).statement(), text);
            assertEquals(st, CqlParser.parse(script.get(0).text()), text);
        }
    }

    private void check(long seed, int caseNo, String text) {
        Statement st;
        try {
            st = CqlParser.parse(text);
            parsed++;
        } catch (CqlSyntaxException | CqlInvalidException e) {
            refused++;
            if (e instanceof CqlSyntaxException s) {
                assertTrue(s.line() >= 1 && s.column() >= 1, "bad position in " + s.getMessage());
            }
            return;
        } catch (RuntimeException | StackOverflowError e) {
            throw failure(seed, caseNo, text, "parse", e);
        }
        try {
            CqlParser.countBindMarkers(st);
            List<ParsedStatement> script = CqlParser.parseScript(text);
            assertEquals(1, script.size());
            assertEquals(st, CqlParser.parse(script.get(0).text()), "re-parse of the statement text");
            List<Term> terms = new ArrayList<>();
            AstTerms.forEach(st, terms::add);
            for (Term t : terms) {
                for (CqlType type : TYPES) {
                    typeOnly(t, type);
                }
            }
        } catch (RuntimeException | StackOverflowError e) {
            throw failure(seed, caseNo, text, "after parsing", e);
        }
    }

    private void typeOnly(Term t, CqlType type) {
        try {
            typer.toValue(type, t, "v", Arrays.asList(1, "x", null, List.of(1)));
        } catch (CqlTypeException | CqlInvalidException expected) {
            // a value that does not fit is an answer, not a failure
        }
    }

    private static AssertionError failure(long seed, int caseNo, String text, String phase, Throwable e) {
        AssertionError err = new AssertionError("seed " + seed + " case " + caseNo + " (" + phase + "): "
                + e.getClass().getName() + " for input <<" + text + ">>", e);
        fail(err);
        return err;
    }

    private static String tokenMutation(String base, Random random) {
        List<String> images = new ArrayList<>();
        for (Token t : CqlLexer.tokenize(base)) {
            if (t.kind() != TokenKind.EOF) {
                images.add(t.image());
            }
        }
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations && !images.isEmpty(); m++) {
            int at = random.nextInt(images.size());
            switch (random.nextInt(5)) {
                case 0 -> images.remove(at);
                case 1 -> images.add(at, images.get(at));
                case 2 -> {
                    int other = random.nextInt(images.size());
                    String tmp = images.get(at);
                    images.set(at, images.get(other));
                    images.set(other, tmp);
                }
                case 3 -> images.set(at, EXTRA_TOKENS[random.nextInt(EXTRA_TOKENS.length)]);
                default -> images.add(at, EXTRA_TOKENS[random.nextInt(EXTRA_TOKENS.length)]);
            }
        }
        return String.join(" ", images);
    }

    private static String charMutation(String base, Random random) {
        StringBuilder sb = new StringBuilder(base);
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations && sb.length() > 0; m++) {
            int at = random.nextInt(sb.length());
            if (random.nextBoolean()) {
                sb.deleteCharAt(at);
            } else {
                sb.insert(at, CHAR_POOL.charAt(random.nextInt(CHAR_POOL.length())));
            }
        }
        return sb.toString();
    }
}
