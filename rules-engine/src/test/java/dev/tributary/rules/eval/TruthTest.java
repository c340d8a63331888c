package dev.tributary.rules.eval;

import static dev.tributary.rules.eval.Truth.FALSE;
import static dev.tributary.rules.eval.Truth.MAYBE;
import static dev.tributary.rules.eval.Truth.TRUE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TruthTest {

    @ParameterizedTest(name = "{0} AND {1} = {2}")
    @CsvSource({
        "TRUE,TRUE,TRUE", "TRUE,FALSE,FALSE", "TRUE,MAYBE,MAYBE",
        "FALSE,TRUE,FALSE", "FALSE,FALSE,FALSE", "FALSE,MAYBE,FALSE",
        "MAYBE,TRUE,MAYBE", "MAYBE,FALSE,FALSE", "MAYBE,MAYBE,MAYBE"})
    @DisplayName("Kleene AND truth table")
    void and(Truth a, Truth b, Truth expected) {
        assertEquals(expected, a.and(b));
    }

    @ParameterizedTest(name = "{0} OR {1} = {2}")
    @CsvSource({
        "TRUE,TRUE,TRUE", "TRUE,FALSE,TRUE", "TRUE,MAYBE,TRUE",
        "FALSE,TRUE,TRUE", "FALSE,FALSE,FALSE", "FALSE,MAYBE,MAYBE",
        "MAYBE,TRUE,TRUE", "MAYBE,FALSE,MAYBE", "MAYBE,MAYBE,MAYBE"})
    @DisplayName("Kleene OR truth table")
    void or(Truth a, Truth b, Truth expected) {
        assertEquals(expected, a.or(b));
    }

    @Test
    @DisplayName("Kleene NOT: TRUE and FALSE swap, MAYBE stays")
    void not() {
        assertEquals(FALSE, TRUE.not());
        assertEquals(TRUE, FALSE.not());
        assertEquals(MAYBE, MAYBE.not());
    }

    @Test
    void ofBoolean() {
        assertEquals(TRUE, Truth.of(true));
        assertEquals(FALSE, Truth.of(false));
    }
}
