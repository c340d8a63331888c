package dev.tributary.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.rules.eval.Truth;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SystemKeyspacesTest {

    @ParameterizedTest
    @ValueSource(strings = {"system", "SYSTEM", "system_schema", "SYSTEM_DISTRIBUTED", "system_views", "system_queues",
        "system_auth", "system_traces", "System_Distributed_Everywhere"})
    @DisplayName("CAP-R-3 system keyspaces are recognised whatever their case")
    void systemKeyspaces(String owner) {
        // seed: CAP-R-3
        assertTrue(SystemKeyspaces.isSystem(owner));
    }

    @ParameterizedTest
    @ValueSource(strings = {"hr", "HR", "systems", "my_system", "system_", "sys"})
    void ordinaryKeyspaces(String owner) {
        assertFalse(SystemKeyspaces.isSystem(owner));
    }

    @Test
    @DisplayName("CAP-R-3 changes to system keyspaces are never captured, whatever the rules say")
    void neverCaptured() {
        // seed: CAP-R-3
        RuleCatalog catalog = new RuleCatalog("DB1", "strmadmin");
        StreamsClient c = StreamsClient.capture("C", Optional.empty(), Optional.empty());
        StreamsRulesResult global = catalog.addGlobalRules(c, StreamsRuleOptions.DEFAULTS.withDdl(true));
        c = c.withRuleSet(RuleSetRole.POSITIVE, global.ruleSet());
        catalog.addTableRules(c, "system_schema.tables", StreamsRuleOptions.DEFAULTS);
        CompiledRuleSets sets = catalog.compile(c);
        for (String ks : List.of("SYSTEM", "SYSTEM_SCHEMA", "SYSTEM_DISTRIBUTED", "SYSTEM_VIEWS")) {
            PartialInput change = PartialInput.dml("DB1", ks, "TABLES", "INSERT");
            assertEquals(Truth.TRUE, sets.prefilter(RuleSetRole.POSITIVE, change), "the rules alone would take it");
            assertEquals(PrefilterDecision.DISCARD, sets.decide(change));
            EvaluationResult r = sets.evaluate(LcrInput.builder().sourceDatabaseName("DB1").object(ks, "TABLES").build());
            assertEquals(DiscardReason.SYSTEM_KEYSPACE, r.discardReason().orElseThrow());
        }
        assertEquals(PrefilterDecision.DISCARD, CompiledRuleSets.none().decide(PartialInput.dml("DB1", "SYSTEM", "LOCAL", "UPDATE")));
        assertEquals(PrefilterDecision.CONVERT, sets.decide(PartialInput.dml("DB1", "HR", "EMPLOYEES", "UPDATE")));
    }
}
