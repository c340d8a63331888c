package dev.tributary.cql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.errors.CqlSyntaxException;
import dev.tributary.cql.lexer.CqlLexer;
import dev.tributary.cql.lexer.Token;
import dev.tributary.cql.lexer.TokenKind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CqlLexerTest {

    private static List<Token> lex(String s) {
        List<Token> all = CqlLexer.tokenize(s);
        assertEquals(TokenKind.EOF, all.get(all.size() - 1).kind());
        return all.subList(0, all.size() - 1);
    }

    private static Token single(String s) {
        List<Token> t = lex(s);
        assertEquals(1, t.size(), () -> "expected one token in " + s + ": " + t);
        return t.get(0);
    }

    private static List<TokenKind> kinds(String s) {
        return lex(s).stream().map(Token::kind).toList();
    }

    @Test
    void unquotedIdentifiersAreLowercasedAndKeepTheirImage() {
        Token t = single("MyTable_1");
        assertEquals(TokenKind.IDENT, t.kind());
        assertEquals("mytable_1", t.text());
        assertEquals("MyTable_1", t.image());
    }

    @Test
    void quotedIdentifiersKeepCaseAndUnescapeDoubledQuotes() {
        Token t = single("\"cdc$stream_id\"");
        assertEquals(TokenKind.QUOTED_IDENT, t.kind());
        assertEquals("cdc$stream_id", t.text());
        assertEquals("Say \"hi\"", single("\"Say \"\"hi\"\"\"").text());
        assertEquals("MixedCase", single("\"MixedCase\"").text());
    }

    @Test
    void emptyQuotedIdentifierIsRefused() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> lex("SELECT \"\" FROM t"));
        assertEquals(8, e.column());
    }

    @Test
    void reservedWordsAreKeywordsInAnyCaseAndOthersAreIdentifiers() {
        Token select = single("SeLeCt");
        assertEquals(TokenKind.KEYWORD, select.kind());
        assertEquals("select", select.text());
        assertTrue(select.isWord("select"));
        // unreserved keywords stay identifiers so that columns may be called key, time, timestamp, ttl
        for (String w : List.of("key", "time", "timestamp", "ttl", "type", "count", "writetime", "call", "exists")) {
            assertEquals(TokenKind.IDENT, single(w).kind(), w);
        }
        assertEquals(TokenKind.KEYWORD, single("TOKEN").kind());
    }

    @Test
    void stringLiteralsUnescapeDoubledQuotesAndMaySpanLines() {
        Token t = single("'it''s'");
        assertEquals(TokenKind.STRING, t.kind());
        assertEquals("it's", t.text());
        assertEquals("'it''s'", t.image());
        assertEquals("", single("''").text());
        assertEquals("a\nb", single("'a\nb'").text());
    }

    @Test
    void dollarStringsTakeTheirContentVerbatim() {
        Token t = single("$$it's a 'quote' -- not a comment$$");
        assertEquals(TokenKind.STRING, t.kind());
        assertEquals("it's a 'quote' -- not a comment", t.text());
        assertEquals("", single("$$$$").text());
    }

    @Test
    void numbers() {
        assertEquals(TokenKind.INTEGER, single("42").kind());
        assertEquals("42", single("42").text());
        for (String f : List.of("1.5", "1.", "0.25", "1e10", "1E10", "2.5e-3", "3E+7", "1.e5")) {
            Token t = single(f);
            assertEquals(TokenKind.FLOAT, t.kind(), f);
            assertEquals(f, t.text(), f);
        }
        Token nan = single("NaN");
        assertEquals(TokenKind.FLOAT, nan.kind());
        assertEquals("nan", nan.text());
        assertEquals(TokenKind.FLOAT, single("Infinity").kind());
        // the sign is a separate token; the parser folds it into the literal
        assertEquals(List.of(TokenKind.MINUS, TokenKind.INTEGER), kinds("-5"));
    }

    @Test
    void hexBlobs() {
        Token t = single("0xCAFE01");
        assertEquals(TokenKind.HEX_BLOB, t.kind());
        assertEquals("cafe01", t.text());
        assertEquals("", single("0x").text());
        CqlSyntaxException odd = assertThrows(CqlSyntaxException.class, () -> lex("0xabc"));
        assertEquals("0xabc", odd.found());
        assertThrows(CqlSyntaxException.class, () -> lex("0x12zz"));
    }

    @Test
    void uuidsEvenWhenTheyLookLikeNumbersOrNames() {
        for (String u : List.of("123e4567-e89b-12d3-a456-426614174000", "550E8400-E29B-41D4-A716-446655440000",
                "deadbeef-0000-1000-8000-00aabbccddee")) {
            Token t = single(u);
            assertEquals(TokenKind.UUID, t.kind(), u);
            assertEquals(u.toLowerCase(), t.text());
        }
        // one hex digit short: not a UUID, so "550e8400" is a float with exponent, then '-' ...
        Token first = new CqlLexer("550e8400-e29b-41d4-a716-44665544000").next();
        assertEquals(TokenKind.FLOAT, first.kind());
        assertEquals("550e8400", first.image());
    }

    @Test
    void booleans() {
        assertEquals(TokenKind.BOOLEAN, single("TRUE").kind());
        assertEquals("true", single("TRUE").text());
        assertEquals("false", single("false").text());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1h30m", "2d", "1y2mo3w", "12ms", "5us", "5µs", "7ns", "1H30M", "P1DT2H", "p1d", "PT1H",
            "P2W", "P0001-02-03T04:05:06", "1y2mo3w4d5h6m7s8ms9us10ns"})
    void durations(String d) {
        Token t = single(d);
        assertEquals(TokenKind.DURATION, t.kind(), d);
        assertEquals(d, t.image());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1h1h", "30m1h", "1x", "12", "1h30", "99999999999999999999y", "3000000000mo"})
    void badDurationsAreRefused(String d) {
        if (d.equals("12")) {
            assertEquals(TokenKind.INTEGER, single(d).kind());
            return;
        }
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> lex("x = " + d));
        assertEquals(5, e.column());
        assertEquals(d, e.found());
    }

    @Test
    void wordsThatAreNotIsoDurationsStayIdentifiers() {
        for (String w : List.of("p", "pt", "pk", "p1dt", "period", "p1x")) {
            assertEquals(TokenKind.IDENT, single(w).kind(), w);
        }
    }

    @Test
    void punctuationAndOperators() {
        assertEquals(List.of(TokenKind.EQ, TokenKind.NEQ, TokenKind.LT, TokenKind.LTE, TokenKind.GT, TokenKind.GTE,
                        TokenKind.PLUS, TokenKind.MINUS, TokenKind.LPAREN, TokenKind.RPAREN, TokenKind.LBRACKET,
                        TokenKind.RBRACKET, TokenKind.LBRACE, TokenKind.RBRACE, TokenKind.COMMA, TokenKind.SEMICOLON,
                        TokenKind.DOT, TokenKind.COLON, TokenKind.ARROW, TokenKind.STAR, TokenKind.QMARK),
                kinds("= != < <= > >= + - ( ) [ ] { } , ; . : => * ?"));
        assertEquals(List.of(TokenKind.IDENT, TokenKind.ARROW, TokenKind.STRING), kinds("a=>'x'"));
        assertEquals(List.of(TokenKind.IDENT, TokenKind.GTE, TokenKind.INTEGER), kinds("a>=1"));
        assertEquals(List.of(TokenKind.IDENT, TokenKind.LT, TokenKind.IDENT, TokenKind.GT, TokenKind.GT),
                kinds("map<int>>"));
    }

    @Test
    void commentsAreSkipped() {
        assertEquals(List.of("select", "a", "from", "t"), lex("""
                -- leading comment
                SELECT a // trailing
                /* block
                   comment */ FROM t -- end""").stream().map(Token::text).toList());
    }

    @Test
    void unterminatedCommentStringAndNameAreRefusedAtTheirStart() {
        CqlSyntaxException c = assertThrows(CqlSyntaxException.class, () -> lex("a\n  /* no end"));
        assertEquals(2, c.line());
        assertEquals(3, c.column());
        CqlSyntaxException s = assertThrows(CqlSyntaxException.class, () -> lex("x = 'abc"));
        assertEquals(5, s.column());
        assertEquals("'abc", s.found());
        assertThrows(CqlSyntaxException.class, () -> lex("\"abc"));
        assertThrows(CqlSyntaxException.class, () -> lex("$$abc"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"a # b|3|#", "x ! y|3|!", "x $ y|3|$", "é|1|é", "a & b|3|&"})
    void strayCharactersAreReportedWithTheirPosition(String input, int column, String found) {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> lex(input));
        assertEquals(1, e.line());
        assertEquals(column, e.column());
        assertEquals(found, e.found());
        assertEquals("a CQL token", e.expected());
    }

    @Test
    void numbersGluedToLettersAreRefused() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> lex("LIMIT 12abc"));
        assertEquals(7, e.column());
        assertEquals("12abc", e.found());
        assertThrows(CqlSyntaxException.class, () -> lex("1.5x"));
    }

    @Test
    void positionsAreOneBasedLinesAndColumns() {
        List<Token> t = lex("SELECT a,\n  b\r\n\tFROM t");
        assertEquals(List.of(1, 1, 1, 2, 3, 3), t.stream().map(Token::line).toList());
        assertEquals(List.of(1, 8, 9, 3, 2, 7), t.stream().map(Token::column).toList());
        assertEquals(0, t.get(0).offset());
        assertEquals(6, t.get(0).end());
        Token eof = CqlLexer.tokenize("ab\ncd").get(2);
        assertEquals(TokenKind.EOF, eof.kind());
        assertEquals(2, eof.line());
        assertEquals(3, eof.column());
        assertEquals("<EOF>", eof.display());
    }

    @Test
    void lexingIsLazySoALateBadCharacterIsOnlySeenWhenReached() {
        CqlLexer lexer = new CqlLexer("a b #");
        assertEquals("a", lexer.next().text());
        assertEquals("b", lexer.next().text());
        assertThrows(CqlSyntaxException.class, lexer::next);
    }

    @Test
    void afterTheEndEveryCallReturnsEof() {
        CqlLexer lexer = new CqlLexer("");
        assertEquals(TokenKind.EOF, lexer.next().kind());
        assertEquals(TokenKind.EOF, lexer.next().kind());
    }
}
