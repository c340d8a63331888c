package dev.tributary.cql;

import static dev.tributary.cql.ParserTestSupport.i;
import static dev.tributary.cql.ParserTestSupport.parse;
import static dev.tributary.cql.ParserTestSupport.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.ast.BindMarker;
import dev.tributary.cql.ast.BlobLit;
import dev.tributary.cql.ast.BooleanLit;
import dev.tributary.cql.ast.DecimalLit;
import dev.tributary.cql.ast.DurationLit;
import dev.tributary.cql.ast.FloatSpecial;
import dev.tributary.cql.ast.FunctionCall;
import dev.tributary.cql.ast.Insert;
import dev.tributary.cql.ast.IntegerLit;
import dev.tributary.cql.ast.ListLit;
import dev.tributary.cql.ast.MapLit;
import dev.tributary.cql.ast.NullLit;
import dev.tributary.cql.ast.SetLit;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.TupleLit;
import dev.tributary.cql.ast.UdtLit;
import dev.tributary.cql.ast.UuidLit;
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlSyntaxException;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlDuration;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Terms, parsed as the single value of an INSERT. */
class TermParserTest {

    private static Term term(String text) {
        return parse("INSERT INTO t (v) VALUES (" + text + ")", Insert.class).values().get(0);
    }

    @Test
    void scalarLiterals() {
        assertEquals(s("it's"), term("'it''s'"));
        assertEquals(s("x"), term("$$x$$"));
        assertEquals(i(42), term("42"));
        assertEquals(new IntegerLit(new BigInteger("123456789012345678901234567890")),
                term("123456789012345678901234567890"));
        assertEquals(new DecimalLit("1.5e10"), term("1.5e10"));
        assertEquals(new BooleanLit(true), term("TRUE"));
        assertEquals(new UuidLit(UUID.fromString("123e4567-e89b-12d3-a456-426614174000")),
                term("123e4567-e89b-12d3-a456-426614174000"));
        assertEquals(new BlobLit(Blob.fromHex("cafe")), term("0xCAFE"));
        assertEquals(new BlobLit(Blob.of(new byte[0])), term("0x"));
        assertEquals(NullLit.INSTANCE, term("null"));
    }

    @Test
    void negationIsFoldedIntoNumbers() {
        assertEquals(i(-5), term("-5"));
        assertEquals(i(-5), term("- 5"));
        assertEquals(new DecimalLit("-2.5"), term("-2.5"));
        assertEquals(FloatSpecial.NEGATIVE_INFINITY, term("-Infinity"));
        assertEquals(FloatSpecial.INFINITY, term("infinity"));
        assertEquals(FloatSpecial.NAN, term("NaN"));
        assertEquals(FloatSpecial.NAN, term("-NaN"));
        assertEquals(new DurationLit(new CqlDuration(0, -2, 0)), term("-2d"));
        assertThrows(CqlSyntaxException.class, () -> term("-'x'"));
        assertThrows(CqlSyntaxException.class, () -> term("- -5"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "1h30m|0|0|5400000000000",
            "2d|0|2|0",
            "1y2mo3w|14|21|0",
            "12ms|0|0|12000000",
            "5us|0|0|5000",
            "5µs|0|0|5000",
            "7ns|0|0|7",
            "1y2mo3w4d5h6m7s8ms9us10ns|14|25|18367008009010",
            "P1DT2H|0|1|7200000000000",
            "P1Y2M3DT4H5M6S|14|3|14706000000000",
            "P2W|0|14|0",
            "P0001-02-03T04:05:06|14|3|14706000000000"})
    void durations(String text, int months, int days, long nanos) {
        assertEquals(new DurationLit(new CqlDuration(months, days, nanos)), term(text));
    }

    @Test
    void collections() {
        assertEquals(new ListLit(List.of(i(1), i(2))), term("[1, 2]"));
        assertEquals(new ListLit(List.of()), term("[]"));
        assertEquals(new SetLit(List.of(s("a"), s("b"), s("a"))), term("{'a', 'b', 'a'}"));
        assertEquals(new MapLit(List.of(new MapLit.Entry(s("k"), i(1)), new MapLit.Entry(s("j"), i(2)))),
                term("{'k': 1, 'j': 2}"));
        assertEquals(MapLit.EMPTY, term("{}"));
        assertEquals(new TupleLit(List.of(i(1), s("a"))), term("(1, 'a')"));
        assertEquals(new TupleLit(List.of(i(1))), term("(1)"));
        MapLit inner = new MapLit(List.of(new MapLit.Entry(i(1), new SetLit(List.of(i(2))))));
        assertEquals(new ListLit(List.of(inner)), term("[{1: {2}}]"));
    }

    @Test
    void userTypeLiterals() {
        Map<String, Term> fields = new LinkedHashMap<>();
        fields.put("street", s("Main"));
        fields.put("Zip", i(12345));
        UdtLit udt = (UdtLit) term("{street: 'Main', \"Zip\": 12345}");
        assertEquals(new UdtLit(fields), udt);
        assertEquals(List.of("street", "Zip"), List.copyOf(udt.fields().keySet()));
        assertThrows(CqlInvalidException.class, () -> term("{a: 1, A: 2}"));
    }

    @Test
    void functionCalls() {
        assertEquals(new FunctionCall("now", List.of()), term("now()"));
        assertEquals(new FunctionCall("now", List.of()), term("system.NOW()"));
        assertEquals(new FunctionCall("totimestamp", List.of(new FunctionCall("now", List.of()))),
                term("toTimestamp(now())"));
        assertEquals(new FunctionCall("myks.f", List.of(i(1), s("x"))), term("myks.f(1, 'x')"));
        assertEquals(new FunctionCall("uuid", List.of()), term("uuid()"));
    }

    @Test
    void bareNamesAreNotValues() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> term("abc"));
        assertEquals("abc", e.found());
        assertEquals("a value", e.expected());
    }

    @Test
    void bindMarkersAreNumberedInOrderAcrossTheStatement() {
        Insert ins = parse("INSERT INTO t (a, b, c) VALUES (?, [?, ?], {?: ?}) USING TTL ?", Insert.class);
        assertEquals(new BindMarker(0), ins.values().get(0));
        assertEquals(new ListLit(List.of(new BindMarker(1), new BindMarker(2))), ins.values().get(1));
        assertEquals(new MapLit(List.of(new MapLit.Entry(new BindMarker(3), new BindMarker(4)))), ins.values().get(2));
        assertEquals(new BindMarker(5), ins.using().ttl());
        assertEquals(6, CqlParser.countBindMarkers(ins));
        assertEquals(0, CqlParser.countBindMarkers(CqlParser.parse("SELECT * FROM t WHERE a = 1")));
    }

    @Test
    void termsWriteBackAsCql() {
        for (String text : List.of("'it''s'", "42", "-1.5", "NaN", "-Infinity", "true", "0xcafe", "null",
                "[1, 2]", "{'a', 'b'}", "{'k': 1}", "{}", "(1, 'a')", "?", "now()", "totimestamp(now())",
                "1h30m", "-2d", "123e4567-e89b-12d3-a456-426614174000", "{street: 'x', \"Zip\": 1}")) {
            Term t = term(text);
            assertEquals(text, t.cql(), text);
            assertEquals(t, term(t.cql()), "round trip of " + text);
        }
    }

    @Test
    void deepNestingIsRefusedWithASyntaxError() {
        String deep = "[".repeat(5000) + "]".repeat(5000);
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> term(deep));
        assertTrue(e.expected().contains("levels of nesting"), e.expected());
        // a reasonable depth is fine
        term("[".repeat(30) + "]".repeat(30));
    }
}
