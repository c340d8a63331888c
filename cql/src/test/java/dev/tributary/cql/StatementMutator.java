package dev.tributary.cql;

import dev.tributary.cql.lexer.CqlLexer;
import dev.tributary.cql.lexer.Token;
import dev.tributary.cql.lexer.TokenKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded mutants of valid CQL statements: tokens deleted, duplicated, swapped or replaced, and
 * characters deleted or inserted. The parser's fuzz ({@link ParserMutationTest}) and the node's
 * (node-server's MutatedStatementsIT, through this module's test-jar) share it. The corpus names
 * keyspaces {@code ks} and {@code hr} and the system ones, and the mutations add no name longer
 * than a letter: a test keeps data the mutants cannot reach in a keyspace of another name.
 */
public final class StatementMutator {
    private StatementMutator() {
    }

    public static final List<String> CORPUS = List.of(
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

    public static final String[] EXTRA_TOKENS = {"(", ")", "[", "]", "{", "}", ",", ";", ".", ":", "=>", "=", "<", ">",
            "-", "+", "*", "?", "'s'", "1", "1.5", "0x00", "NaN", "null", "true", "1h", "SELECT", "FROM", "WHERE", "AND",
            "IN", "BATCH", "APPLY", "BEGIN", "PRIMARY", "KEY", "token", "now", "x", "\"Q\"", "IF", "EXISTS", "USING",
            "TTL", "TIMESTAMP", "WITH", "COMPACT", "STATIC", "frozen", "<=", "!=", "CONTAINS", "AS", "LIMIT", "-5"};

    public static final String CHAR_POOL = "();,.'\"$-/*?{}[]<>=!:x1 \n";

    /** One mutant of a corpus statement, token- or character-wise, drawn from {@code random}. */
    public static String mutant(Random random) {
        String base = CORPUS.get(random.nextInt(CORPUS.size()));
        return random.nextInt(3) < 2 ? tokenMutation(base, random) : charMutation(base, random);
    }

    public static String tokenMutation(String base, Random random) {
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

    public static String charMutation(String base, Random random) {
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
