package dev.tributary.rules.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LikePatternTest {

    @ParameterizedTest(name = "''{0}'' LIKE ''{1}'' = {2}")
    @CsvSource(value = {
        "abc|abc|true", "abc|ab|false", "abc|a%|true", "abc|%c|true", "abc|%b%|true", "abc|%|true", "''|%|true",
        "''|_|false", "abc|___|true", "abc|__|false", "abc|a_c|true", "aXbXc|a%b%c|true", "abcbc|a%bc|true",
        "abcb|a%bc|false", "mississippi|%iss%ipp%|true", "mississippi|m%s%s%s%i|true", "mississippi|m%s%s%s%s%s%i|false", "a%b|a\\%b|true",
        "aXb|a\\%b|false", "a_b|a\\_b|true", "a\\b|a\\\\b|true", "abc|%%%abc%%|true"}, delimiter = '|')
    void matches(String s, String pattern, boolean expected) {
        String text = s.equals("''") ? "" : s;
        assertEquals(expected, LikePattern.compile(pattern, "\\").matches(text));
    }

    @ParameterizedTest
    @CsvSource({"a\\", "a\\b"})
    void badEscapes(String pattern) {
        assertThrows(IllegalArgumentException.class, () -> LikePattern.compile(pattern, "\\"));
    }
}
