package dev.tributary.dictionary.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class Utf8Test {

    @Test
    void writesWhatTheJdkWrites() {
        for (String s : new String[] {"", "ascii", "é", "\u07FF\u0800", "☃", "😀x", "lone \uD800 high", "lone \uDC00 low",
                "\uD800", "end\uDBFF"}) {
            byte[] expected = s.getBytes(StandardCharsets.UTF_8);
            assertEquals(expected.length, Utf8.encodedLength(s), s);
            byte[] out = new byte[expected.length + 2];
            assertEquals(expected.length + 1, Utf8.write(s, out, 1));
            assertArrayEquals(expected, Arrays.copyOfRange(out, 1, expected.length + 1), s);
        }
    }

    @Test
    void validatesStrictly() {
        byte[] ok = "aé☃😀".getBytes(StandardCharsets.UTF_8);
        assertTrue(Utf8.isValid(ok, 0, ok.length));
        assertFalse(Utf8.isValid(new byte[] {(byte) 0xC0, (byte) 0x80}, 0, 2)); // overlong NUL
        assertFalse(Utf8.isValid(new byte[] {(byte) 0xE0, (byte) 0x80, (byte) 0x80}, 0, 3)); // overlong
        assertFalse(Utf8.isValid(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, 0, 3)); // surrogate
        assertFalse(Utf8.isValid(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, 0, 4)); // > U+10FFFF
        assertFalse(Utf8.isValid(new byte[] {(byte) 0xF0, (byte) 0x9F}, 0, 2)); // truncated
        assertFalse(Utf8.isValid(new byte[] {(byte) 0x80}, 0, 1));
        assertTrue(Utf8.isValid(new byte[] {(byte) 0xC3, (byte) 0xA9, (byte) 0xFF}, 0, 2)); // the range only
        assertTrue(Utf8.isWellFormed("a😀"));
        assertFalse(Utf8.isWellFormed("a\uDE00"));
    }
}
