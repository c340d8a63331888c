package dev.tributary.node.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.CqlParser;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ParsedStatementsTest {
    /** A batch of {@code rows} literal inserts, as a writer without bind markers sends one. */
    private static String batch(int first, int rows) {
        StringBuilder b = new StringBuilder("BEGIN BATCH ");
        for (int i = 0; i < rows; i++) {
            b.append("INSERT INTO ks.t (pk, ck, v) VALUES (").append(first).append(", ").append(i).append(", 7); ");
        }
        return b.append("APPLY BATCH").toString();
    }

    @Test
    @DisplayName("P5: large literal batches, each sent once, are held to the cache's length bound, not 1,024 of them")
    void largeStatementsAreBoundedByTheirLength() {
        ParsedStatements cache = new ParsedStatements(1024, 100_000);
        for (int w = 0; w < 1024; w++) {
            String text = batch(w, 200); // about 8,000 characters each
            cache.put(text, CqlParser.parse(text));
        }
        assertTrue(cache.chars() <= 100_000, "the texts kept stay within the bound: " + cache.chars());
        assertTrue(cache.size() < 20, "a dozen batches kept, not 1,024: " + cache.size());
        String last = batch(1023, 200);
        assertNotNull(cache.get(last), "the most recent is kept");
        assertNull(cache.get(batch(0, 200)), "the oldest was dropped");
    }

    @Test
    @DisplayName("small statements: up to the entry bound, least recently used dropped first; a text over a quarter of "
            + "the length bound is not kept")
    void entriesAndLongTexts() {
        ParsedStatements cache = new ParsedStatements(2, 10_000);
        String a = "SELECT v FROM ks.t WHERE pk = 1";
        String b = "SELECT v FROM ks.t WHERE pk = 2";
        String c = "SELECT v FROM ks.t WHERE pk = 3";
        cache.put(a, CqlParser.parse(a));
        cache.put(b, CqlParser.parse(b));
        cache.get(a); // a used after b: b is the least recently used
        cache.put(c, CqlParser.parse(c));
        assertEquals(2, cache.size());
        assertNotNull(cache.get(a));
        assertNull(cache.get(b));
        assertEquals(a.length() + c.length(), cache.chars());
        String longOne = batch(1, 100);
        cache.put(longOne, CqlParser.parse(longOne));
        assertNull(cache.get(longOne), "over a quarter of the bound: not kept");
        assertEquals(2, cache.size());
    }
}
