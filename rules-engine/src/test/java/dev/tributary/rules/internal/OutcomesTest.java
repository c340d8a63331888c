package dev.tributary.rules.internal;

import static dev.tributary.rules.internal.Outcomes.ANY;
import static dev.tributary.rules.internal.Outcomes.F;
import static dev.tributary.rules.internal.Outcomes.N;
import static dev.tributary.rules.internal.Outcomes.T;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.rules.eval.Truth;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The outcome sets behind conditions: SQL three-valued logic on single outcomes, lifted to sets. */
class OutcomesTest {

    @ParameterizedTest(name = "{0} AND {1} = {2}")
    @CsvSource({"1,1,1", "1,2,2", "1,4,4", "2,1,2", "2,2,2", "2,4,2", "4,1,4", "4,2,2", "4,4,4"})
    @DisplayName("SQL AND on known outcomes (1 TRUE, 2 FALSE, 4 NULL)")
    void sqlAnd(int a, int b, int expected) {
        assertEquals(expected, Outcomes.and(a, b));
    }

    @ParameterizedTest(name = "{0} OR {1} = {2}")
    @CsvSource({"1,1,1", "1,2,1", "1,4,1", "2,1,1", "2,2,2", "2,4,4", "4,1,1", "4,2,4", "4,4,4"})
    @DisplayName("SQL OR on known outcomes (1 TRUE, 2 FALSE, 4 NULL)")
    void sqlOr(int a, int b, int expected) {
        assertEquals(expected, Outcomes.or(a, b));
    }

    @Test
    @DisplayName("NOT NULL is NULL, so NOT of an unknown comparison never becomes TRUE")
    void notOfNullStaysNull() {
        assertEquals(F, Outcomes.not(T));
        assertEquals(T, Outcomes.not(F));
        assertEquals(N, Outcomes.not(N));
        assertEquals(ANY, Outcomes.not(ANY));
    }

    @Test
    @DisplayName("an unknown operand keeps every outcome it could produce")
    void unknownOperands() {
        assertEquals(F, Outcomes.and(ANY, F), "FALSE AND anything is FALSE");
        assertEquals(T, Outcomes.or(ANY, T), "TRUE OR anything is TRUE");
        assertEquals(ANY, Outcomes.and(ANY, T));
        assertEquals(F | N, Outcomes.and(ANY, N));
        assertEquals(T | N, Outcomes.or(ANY, N));
    }

    @Test
    @DisplayName("a rule is TRUE only when TRUE is the only outcome; NULL counts as FALSE")
    void toTruth() {
        assertEquals(Truth.TRUE, Outcomes.toTruth(T));
        assertEquals(Truth.FALSE, Outcomes.toTruth(F));
        assertEquals(Truth.FALSE, Outcomes.toTruth(N));
        assertEquals(Truth.FALSE, Outcomes.toTruth(F | N));
        assertEquals(Truth.MAYBE, Outcomes.toTruth(T | F));
        assertEquals(Truth.MAYBE, Outcomes.toTruth(T | N));
        assertEquals(Truth.MAYBE, Outcomes.toTruth(ANY));
    }
}
