package dev.tributary.rules;

import static dev.tributary.rules.PrefilterDecision.CONVERT;
import static dev.tributary.rules.PrefilterDecision.CONVERT_FOR_FURTHER_EVALUATION;
import static dev.tributary.rules.PrefilterDecision.DISCARD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.rules.eval.Truth;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The seed's prefiltering decision table (Capture Process Rule Evaluation), cell by cell, with
 * real rule sets whose prefiltering truth is TRUE, FALSE or MAYBE for the change.
 */
class PrefilterDecisionTest {
    // the change found in the redo: an UPDATE of hr.employees
    private static final PartialInput CHANGE = PartialInput.dml("DB1", "HR", "EMPLOYEES", "UPDATE");

    private static Rule rule(String name, String condition) {
        return Rule.custom("STRMADMIN", name, Condition.parse(condition), "");
    }

    /** A rule whose prefiltering truth for CHANGE is the given one. */
    private static Rule ruleThatIs(Truth t) {
        return switch (t) {
            case TRUE -> rule("IS_TRUE", ":dml.get_object_owner() = 'HR' and :dml.get_object_name() = 'EMPLOYEES'");
            case FALSE -> rule("IS_FALSE", ":dml.get_object_owner() = 'OE'");
            case MAYBE -> rule("IS_MAYBE", ":dml.get_object_owner() = 'HR' and :dml.get_value('NEW', 'salary') > 1000");
        };
    }

    @ParameterizedTest(name = "negative {0}, positive {1}: {2}")
    @CsvSource({
        // the five MAYBE cases, in the seed's order
        "MAYBE, MAYBE, CONVERT_FOR_FURTHER_EVALUATION",
        "FALSE, MAYBE, CONVERT_FOR_FURTHER_EVALUATION",
        "MAYBE, TRUE,  CONVERT_FOR_FURTHER_EVALUATION",
        "TRUE,  MAYBE, DISCARD",
        "MAYBE, FALSE, DISCARD",
        // the definite cases: satisfies both sets, or not
        "FALSE, TRUE,  CONVERT",
        "FALSE, FALSE, DISCARD",
        "TRUE,  TRUE,  DISCARD",
        "TRUE,  FALSE, DISCARD"})
    @DisplayName("CAP-R-4 prefiltering decision for each (negative, positive) pair of truths")
    void decisionTable(Truth neg, Truth pos, PrefilterDecision expected) {
        // seed: CAP-R-4
        CompiledRuleSets sets = CompiledRuleSets.of(List.of(ruleThatIs(pos)), List.of(ruleThatIs(neg)));
        assertEquals(neg, sets.prefilter(RuleSetRole.NEGATIVE, CHANGE), "negative set's prefiltering truth");
        assertEquals(pos, sets.prefilter(RuleSetRole.POSITIVE, CHANGE), "positive set's prefiltering truth");
        assertEquals(expected, sets.decide(CHANGE));
        assertEquals(expected, CompiledRuleSets.decide(neg, pos));
    }

    @ParameterizedTest(name = "positive set only, {0}: {1}")
    @CsvSource({"TRUE, CONVERT", "FALSE, DISCARD", "MAYBE, CONVERT_FOR_FURTHER_EVALUATION"})
    @DisplayName("CAP-R-1 with one rule set, only that one is evaluated: positive only")
    void positiveOnly(Truth pos, PrefilterDecision expected) {
        // seed: CAP-R-1, CAP-R-4
        CompiledRuleSets sets = CompiledRuleSets.positiveOnly(List.of(ruleThatIs(pos)));
        assertEquals(expected, sets.decide(CHANGE));
        assertFalse(sets.hasNegative());
    }

    @ParameterizedTest(name = "negative set only, {0}: {1}")
    @CsvSource({"TRUE, DISCARD", "FALSE, CONVERT", "MAYBE, CONVERT_FOR_FURTHER_EVALUATION"})
    @DisplayName("CAP-R-1 with one rule set, only that one is evaluated: negative only")
    void negativeOnly(Truth neg, PrefilterDecision expected) {
        // seed: CAP-R-1, CAP-R-4
        CompiledRuleSets sets = CompiledRuleSets.negativeOnly(List.of(ruleThatIs(neg)));
        assertEquals(expected, sets.decide(CHANGE));
        assertFalse(sets.hasPositive());
    }

    @Test
    @DisplayName("a rule set is TRUE if any rule is, else MAYBE if any is, else FALSE")
    void ruleSetTruthCombinesRules() {
        Rule t = ruleThatIs(Truth.TRUE);
        Rule f = ruleThatIs(Truth.FALSE);
        Rule m = ruleThatIs(Truth.MAYBE);
        assertEquals(Truth.TRUE, CompiledRuleSets.positiveOnly(List.of(f, m, t)).prefilter(RuleSetRole.POSITIVE, CHANGE));
        assertEquals(Truth.MAYBE, CompiledRuleSets.positiveOnly(List.of(f, m)).prefilter(RuleSetRole.POSITIVE, CHANGE));
        assertEquals(Truth.FALSE, CompiledRuleSets.positiveOnly(List.of(f)).prefilter(RuleSetRole.POSITIVE, CHANGE));
        assertEquals(Truth.FALSE, CompiledRuleSets.positiveOnly(List.of()).prefilter(RuleSetRole.POSITIVE, CHANGE));
        assertEquals(Truth.FALSE, CompiledRuleSets.positiveOnly(List.of(t)).prefilter(RuleSetRole.NEGATIVE, CHANGE),
                "an absent set has no rules");
    }

    @Test
    @DisplayName("with no rule sets every change is converted")
    void noRuleSets() {
        assertEquals(CONVERT, CompiledRuleSets.none().decide(CHANGE));
        assertTrue(CompiledRuleSets.none().evaluate(LcrInput.builder().object("HR", "EMPLOYEES").build()).keep());
    }

    @Test
    @DisplayName("CAP-R-4 changes converted for further evaluation are decided by full evaluation of the LCR")
    void furtherEvaluation() {
        // seed: CAP-R-4 — the MAYBE rules become decidable once the LCR has the salary
        CompiledRuleSets sets = CompiledRuleSets.of(List.of(ruleThatIs(Truth.MAYBE)),
                List.of(rule("NEG_MAYBE", ":dml.get_object_owner() = 'HR' and :dml.get_value('NEW', 'salary') > 5000")));
        assertEquals(CONVERT_FOR_FURTHER_EVALUATION, sets.decide(CHANGE));
        LcrInput.Builder lcr = LcrInput.builder().sourceDatabaseName("DB1").object("HR", "EMPLOYEES").commandType("UPDATE");
        EvaluationResult middle = sets.evaluate(lcr.newValues(Map.of("salary", 2000)).build());
        assertTrue(middle.keep(), "positive TRUE, negative FALSE");
        assertEquals(List.of("IS_MAYBE"), middle.matchedRules().stream().map(Rule::name).toList());
        assertEquals(DiscardReason.NO_POSITIVE_RULE, sets.evaluate(lcr.newValues(Map.of("salary", 500)).build())
                .discardReason().orElseThrow());
        assertEquals(DiscardReason.NEGATIVE_RULE, sets.evaluate(lcr.newValues(Map.of("salary", 9000)).build())
                .discardReason().orElseThrow());
    }

    @Test
    @DisplayName("full evaluation refuses a partial input")
    void evaluateNeedsFullInput() {
        assertThrows(IllegalArgumentException.class, () -> CompiledRuleSets.none().evaluate(CHANGE));
    }

    @Test
    void decisionConverts() {
        assertTrue(CONVERT.converts());
        assertTrue(CONVERT_FOR_FURTHER_EVALUATION.converts());
        assertFalse(DISCARD.converts());
    }
}
