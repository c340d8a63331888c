package dev.tributary.dictionary.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.dictionary.errors.InvalidSchemaException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CdcOptionsTest {

    @Test
    void defaultsAreScyllaDbs() {
        CdcOptions d = CdcOptions.DISABLED;
        assertFalse(d.enabled());
        assertEquals(CdcOptions.Preimage.OFF, d.preimage());
        assertFalse(d.postimage());
        assertEquals(CdcOptions.Delta.FULL, d.delta());
        assertEquals(86_400, d.ttlSeconds());
        assertEquals(new CdcOptions(true, CdcOptions.Preimage.OFF, false, CdcOptions.Delta.FULL, 86_400),
                CdcOptions.fromOptions(Map.of("enabled", true)));
        assertEquals(CdcOptions.DISABLED, CdcOptions.fromOptions(Map.of()));
    }

    @Test
    void readsValuesAsAParserGivesThem() {
        CdcOptions o = CdcOptions.fromOptions(Map.of("enabled", "true", "preimage", "full", "postimage", true,
                "delta", "keys", "ttl", 3600));
        assertEquals(new CdcOptions(true, CdcOptions.Preimage.FULL, true, CdcOptions.Delta.KEYS, 3600), o);
        assertEquals(CdcOptions.Preimage.ON, CdcOptions.fromOptions(Map.of("preimage", true)).preimage());
        assertEquals(CdcOptions.Preimage.ON, CdcOptions.fromOptions(Map.of("preimage", "true")).preimage());
        assertEquals(CdcOptions.Preimage.OFF, CdcOptions.fromOptions(Map.of("preimage", false)).preimage());
        assertEquals(0, CdcOptions.fromOptions(Map.of("ttl", "0")).ttlSeconds());
        assertEquals(60, CdcOptions.fromOptions(Map.of("ttl", 60L)).ttlSeconds());
        assertTrue(CdcOptions.fromOptions(Map.of("Enabled", "TRUE")).enabled());
    }

    @Test
    void badOptionsNameTheOption() {
        InvalidSchemaException e = assertThrows(InvalidSchemaException.class,
                () -> CdcOptions.fromOptions(Map.of("enabeld", true)));
        assertTrue(e.getMessage().contains("unknown cdc option 'enabeld'"), e.getMessage());
        e = assertThrows(InvalidSchemaException.class, () -> CdcOptions.fromOptions(Map.of("delta", "some")));
        assertTrue(e.getMessage().contains("'delta'") && e.getMessage().contains("'some'"), e.getMessage());
        e = assertThrows(InvalidSchemaException.class, () -> CdcOptions.fromOptions(Map.of("preimage", "yes")));
        assertTrue(e.getMessage().contains("'preimage'"), e.getMessage());
        e = assertThrows(InvalidSchemaException.class, () -> CdcOptions.fromOptions(Map.of("enabled", 1)));
        assertTrue(e.getMessage().contains("'enabled'"), e.getMessage());
        e = assertThrows(InvalidSchemaException.class, () -> CdcOptions.fromOptions(Map.of("ttl", -1)));
        assertTrue(e.getMessage().contains("'ttl'"), e.getMessage());
        assertThrows(InvalidSchemaException.class, () -> CdcOptions.fromOptions(Map.of("ttl", 1.5)));
        assertThrows(InvalidSchemaException.class, () -> CdcOptions.fromOptions(Map.of("ttl", "1h")));
        assertThrows(InvalidSchemaException.class, () -> CdcOptions.fromOptions(Map.of("ttl", 1L << 40)));
        assertThrows(InvalidSchemaException.class, () -> CdcOptions.fromOptions(Map.of("postimage", "full")));
    }

    @Test
    void displaysAsStrings() {
        CdcOptions o = new CdcOptions(true, CdcOptions.Preimage.FULL, false, CdcOptions.Delta.KEYS, 10);
        assertEquals(Map.of("enabled", "true", "preimage", "full", "postimage", "false", "delta", "keys", "ttl", "10"),
                o.toOptions());
        assertEquals("false", CdcOptions.DISABLED.toOptions().get("preimage"));
        assertEquals(o, CdcOptions.fromOptions(Map.copyOf(o.toOptions())));
    }
}
