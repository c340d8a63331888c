package dev.tributary.cql;

import static dev.tributary.cql.ParserTestSupport.i;
import static dev.tributary.cql.ParserTestSupport.parse;
import static dev.tributary.cql.ParserTestSupport.qn;
import static dev.tributary.cql.ParserTestSupport.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.ast.BindMarker;
import dev.tributary.cql.ast.ColumnLhs;
import dev.tributary.cql.ast.ColumnSelector;
import dev.tributary.cql.ast.FunctionCall;
import dev.tributary.cql.ast.FunctionSelector;
import dev.tributary.cql.ast.ListLit;
import dev.tributary.cql.ast.Operator;
import dev.tributary.cql.ast.Order;
import dev.tributary.cql.ast.Ordering;
import dev.tributary.cql.ast.Relation;
import dev.tributary.cql.ast.Select;
import dev.tributary.cql.ast.Selector;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.TokenLhs;
import dev.tributary.cql.ast.TupleLhs;
import dev.tributary.cql.ast.TupleLit;
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlSyntaxException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SelectParserTest {

    private static Relation rel(String column, Operator op, Term rhs) {
        return new Relation(new ColumnLhs(column), op, rhs);
    }

    @Test
    void selectStar() {
        Select sel = parse("SELECT * FROM system.cdc_streams", Select.class);
        assertTrue(sel.selectsAll());
        assertEquals(List.of(), sel.selectors());
        assertEquals(qn("system", "cdc_streams"), sel.from());
        assertFalse(sel.distinct());
        assertNull(sel.limit());
        assertFalse(sel.allowFiltering());
    }

    @Test
    void aReservedWordAfterTheKeyspaceIsATableName() {
        assertEquals(qn("system_views", "apply"), parse("SELECT * FROM system_views.APPLY", Select.class).from());
        assertThrows(CqlSyntaxException.class, () -> parse("SELECT * FROM apply", Select.class));
    }

    @Test
    void quotedColumnsKeepTheirName() {
        Select sel = parse("SELECT \"cdc$stream_id\", pk FROM ks.t_scylla_cdc_log", Select.class);
        assertEquals(List.of(ColumnSelector.of("cdc$stream_id"), ColumnSelector.of("pk")), sel.selectors());
        assertEquals("cdc$stream_id", sel.selectors().get(0).displayName());
        assertEquals(qn("ks", "t_scylla_cdc_log"), sel.from());
    }

    @Test
    void totimestampOfNow() {
        Select sel = parse("SELECT totimestamp(now()) FROM system.local", Select.class);
        Selector only = sel.selectors().get(0);
        assertEquals(new FunctionSelector("totimestamp", List.of(new FunctionSelector("now", List.of(), null)), null),
                only);
        assertEquals("system.totimestamp(system.now())", only.displayName());
        assertEquals(qn("system", "local"), sel.from());
    }

    @Test
    void tokenWritetimeAliasWhereLimitAllowFiltering() {
        Select sel = parse("SELECT token(pk), writetime(v) AS w FROM ks.t WHERE token(pk) > -100 LIMIT 10 ALLOW FILTERING",
                Select.class);
        assertEquals(List.of(new FunctionSelector("token", List.of(ColumnSelector.of("pk")), null),
                new FunctionSelector("writetime", List.of(ColumnSelector.of("v")), "w")), sel.selectors());
        assertEquals("token(pk)", sel.selectors().get(0).displayName());
        assertEquals("w", sel.selectors().get(1).displayName());
        assertEquals(List.of(new Relation(new TokenLhs(List.of("pk")), Operator.GT, i(-100))), sel.where());
        assertEquals(i(10), sel.limit());
        assertTrue(sel.allowFiltering());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "writetime(v)|writetime(v)",
            "ttl(v)|ttl(v)",
            "token(a, b)|token(a, b)",
            "count(*)|count",
            "COUNT(1)|count",
            "now()|system.now()",
            "system.now()|system.now()",
            "toTimestamp(now())|system.totimestamp(system.now())",
            "todate(c)|system.todate(c)",
            "count(v)|system.count(v)",
            "myks.fn(a)|myks.fn(a)",
            "\"Col\"|Col",
            "pk AS \"Key\"|Key",
            "ttl AS t|t"})
    void displayNamesFollowCqlsh(String selector, String display) {
        Select sel = parse("SELECT " + selector + " FROM t", Select.class);
        assertEquals(display, sel.selectors().get(0).displayName());
    }

    @Test
    void countStarIsCountWithoutArguments() {
        Select sel = parse("SELECT count(*) AS n FROM t", Select.class);
        assertEquals(List.of(new FunctionSelector("count", List.of(), "n")), sel.selectors());
    }

    @Test
    void writetimeNeedsExactlyOneColumn() {
        assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("SELECT writetime(a, b) FROM t"));
        assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("SELECT ttl() FROM t"));
    }

    @Test
    void columnsNamedLikeUnreservedKeywords() {
        Select sel = parse("SELECT time, key, timestamp, ttl, count FROM system_distributed.cdc_generation_timestamps "
                + "WHERE key = 'timestamps'", Select.class);
        assertEquals(List.of("time", "key", "timestamp", "ttl", "count"),
                sel.selectors().stream().map(Selector::displayName).toList());
        assertEquals(List.of(rel("key", Operator.EQ, s("timestamps"))), sel.where());
    }

    @Test
    void distinct() {
        Select sel = parse("SELECT DISTINCT pk FROM t", Select.class);
        assertTrue(sel.distinct());
        assertEquals(List.of(ColumnSelector.of("pk")), sel.selectors());
        // a column called distinct
        Select col = parse("SELECT distinct FROM t", Select.class);
        assertFalse(col.distinct());
        assertEquals(List.of(ColumnSelector.of("distinct")), col.selectors());
        assertTrue(parse("SELECT DISTINCT distinct, b FROM t", Select.class).distinct());
    }

    @Test
    void allRelationForms() {
        Select sel = parse("""
                SELECT * FROM t WHERE a = 1 AND b != 2 AND c < 3 AND d <= 4 AND e > 5 AND f >= 6
                  AND g IN (1, 2) AND h IN ? AND i CONTAINS 'x' AND j CONTAINS KEY 'y'
                  AND (c1, c2) > (1, 2) AND (c1, c2) IN ((1, 2), (3, 4)) AND (c1, c2) = ?
                  AND token(p1, p2) <= token(?, ?) AND k IN ()""", Select.class);
        assertEquals(List.of(
                rel("a", Operator.EQ, i(1)),
                rel("b", Operator.NEQ, i(2)),
                rel("c", Operator.LT, i(3)),
                rel("d", Operator.LTE, i(4)),
                rel("e", Operator.GT, i(5)),
                rel("f", Operator.GTE, i(6)),
                rel("g", Operator.IN, new ListLit(List.of(i(1), i(2)))),
                rel("h", Operator.IN, new BindMarker(0)),
                rel("i", Operator.CONTAINS, s("x")),
                rel("j", Operator.CONTAINS_KEY, s("y")),
                new Relation(new TupleLhs(List.of("c1", "c2")), Operator.GT, new TupleLit(List.of(i(1), i(2)))),
                new Relation(new TupleLhs(List.of("c1", "c2")), Operator.IN, new ListLit(List.of(
                        new TupleLit(List.of(i(1), i(2))), new TupleLit(List.of(i(3), i(4)))))),
                new Relation(new TupleLhs(List.of("c1", "c2")), Operator.EQ, new BindMarker(1)),
                new Relation(new TokenLhs(List.of("p1", "p2")), Operator.LTE,
                        new FunctionCall("token", List.of(new BindMarker(2), new BindMarker(3)))),
                rel("k", Operator.IN, new ListLit(List.of()))), sel.where());
        assertEquals(4, CqlParser.countBindMarkers(sel));
    }

    @Test
    void tupleRelationsMustMatchTheirArity() {
        CqlInvalidException e = assertThrows(CqlInvalidException.class,
                () -> CqlParser.parse("SELECT * FROM t WHERE (a, b) = (1, 2, 3)"));
        assertTrue(e.getMessage().contains("Expected 2 elements"), e.getMessage());
        assertThrows(CqlInvalidException.class, () -> CqlParser.parse("SELECT * FROM t WHERE (a, b) IN ((1, 2), (3))"));
        assertThrows(CqlInvalidException.class, () -> CqlParser.parse("SELECT * FROM t WHERE (a, b) = 5"));
    }

    @Test
    void tokenRelationsOnlyCompare() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class,
                () -> CqlParser.parse("SELECT * FROM t WHERE token(a) IN (1)"));
        assertEquals("IN", e.found());
        assertEquals("a comparison operator (=, !=, <, <=, >, >=)", e.expected());
    }

    @Test
    void orderByAndLimitMarker() {
        Select sel = parse("SELECT a FROM t WHERE k = 1 ORDER BY c1 DESC, c2 LIMIT ?", Select.class);
        assertEquals(List.of(new Ordering("c1", Order.DESC), new Ordering("c2", Order.ASC)), sel.orderBy());
        assertEquals(new BindMarker(0), sel.limit());
    }

    @Test
    void limitMustBePositive() {
        assertThrows(CqlInvalidException.class, () -> CqlParser.parse("SELECT * FROM t LIMIT 0"));
        assertThrows(CqlInvalidException.class, () -> CqlParser.parse("SELECT * FROM t LIMIT -3"));
        assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("SELECT * FROM t LIMIT 'x'"));
    }

    @Test
    void reservedWordAsColumnNeedsQuotes() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("SELECT a FROM t WHERE from = 1"));
        assertEquals("from", e.found());
        assertTrue(e.getMessage().contains("double-quote"), e.getMessage());
        Select ok = parse("SELECT \"from\" FROM t WHERE \"from\" = 1", Select.class);
        assertEquals(List.of(ColumnSelector.of("from")), ok.selectors());
    }
}
