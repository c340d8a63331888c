package dev.tributary.node.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(10)
class SizesTest {
    @Test
    @DisplayName("plain bytes (the node's byte options took only these), SI units in 1000s, IEC units in 1024s, any case")
    void spellings() {
        assertEquals(16_777_216, Sizes.parse("16777216"));
        assertEquals(0, Sizes.parse("0"));
        assertEquals(4096, Sizes.parse(" 4096 "));
        assertEquals(512, Sizes.parse("512B"));
        assertEquals(64 * 1024, Sizes.parse("64KiB"));
        assertEquals(16L << 20, Sizes.parse("16MiB"));
        assertEquals(16L << 20, Sizes.parse("16mib"));
        assertEquals(1L << 30, Sizes.parse("1GiB"));
        assertEquals(1L << 40, Sizes.parse("1TiB"));
        assertEquals(16_000_000, Sizes.parse("16MB"));
        assertEquals(64_000, Sizes.parse("64kB"));
        assertEquals(2_000_000_000L, Sizes.parse("2GB"));
        assertEquals(1536, Sizes.parse("1.5KiB"));
        assertEquals(16L << 20, Sizes.parse("16 MiB"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "MB", "-1", "-1MB", "1.5", "16M", "16mibs", "1e6", "0x10", "99999999999TiB"})
    @DisplayName("anything else is refused, saying what a size looks like and quoting the value")
    void refused(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse(text));
        assertEquals("wants a size such as 65536, 64KiB, 16MiB or 1GB, got '" + text + "'", e.getMessage());
    }
}
