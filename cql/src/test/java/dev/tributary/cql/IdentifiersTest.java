package dev.tributary.cql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.lexer.CqlLexer;
import dev.tributary.cql.lexer.Identifiers;
import dev.tributary.cql.lexer.Token;
import org.junit.jupiter.api.Test;

class IdentifiersTest {
    @Test
    void plainLowercaseNamesAreNotQuoted() {
        assertEquals("pk", Identifiers.quoteIfNeeded("pk"));
        assertEquals("t_scylla_cdc_log", Identifiers.quoteIfNeeded("t_scylla_cdc_log"));
        assertEquals("key", Identifiers.quoteIfNeeded("key"));
    }

    @Test
    void namesThatWouldReadBackDifferentlyAreQuoted() {
        assertEquals("\"cdc$stream_id\"", Identifiers.quoteIfNeeded("cdc$stream_id"));
        assertEquals("\"MyTable\"", Identifiers.quoteIfNeeded("MyTable"));
        assertEquals("\"select\"", Identifiers.quoteIfNeeded("select"));
        assertEquals("\"true\"", Identifiers.quoteIfNeeded("true"));
        assertEquals("\"1abc\"", Identifiers.quoteIfNeeded("1abc"));
        assertEquals("\"a\"\"b\"", Identifiers.quoteIfNeeded("a\"b"));
    }

    @Test
    void reservedWordsAreCaseInsensitive() {
        assertTrue(Identifiers.isReserved("FROM"));
        assertTrue(Identifiers.isReserved("NaN"));
        assertFalse(Identifiers.isReserved("timestamp"));
    }

    @Test
    void aQuotedNameLexesBackToItself() {
        for (String name : new String[] {"cdc$stream_id", "Mixed", "with space", "a\"b", "select"}) {
            Token t = CqlLexer.tokenize(Identifiers.quoteIfNeeded(name)).get(0);
            assertEquals(name, t.text());
        }
    }
}
