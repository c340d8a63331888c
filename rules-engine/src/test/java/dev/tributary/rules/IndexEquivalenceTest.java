package dev.tributary.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.rules.eval.RuleInput;
import dev.tributary.rules.eval.RuleNames;
import dev.tributary.rules.eval.Truth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A seeded property test: the indexed rule sets give exactly what a brute-force evaluation of
 * every rule gives, for randomly generated rules (system-made and free-form) and changes, both
 * partial and full; and prefiltering is safe (a change it converts is kept, one it discards is
 * discarded). Replay a failure with {@code -Drules.seed=<seed>}.
 */
class IndexEquivalenceTest {
    private static final String[] OWNERS = {"HR", "OE", "SCOTT", "MyKs", "SYSTEM_SCHEMA", null};
    private static final String[] TABLES = {"EMPLOYEES", "JOBS", "ORDERS", "T1", null};
    private static final String[] DML_COMMANDS = {"INSERT", "UPDATE", "DELETE", "LOB WRITE"};
    private static final String[] DDL_COMMANDS = {"CREATE TABLE", "ALTER TABLE", "DROP TABLE", "CREATE INDEX"};
    private static final String[] SOURCES = {"DB1", "DB2"};
    private static final String[] COLUMNS = {"a", "b", "c"};
    private static final String[] OBJECT_TYPES = {"TABLE", "INDEX", "VIEW"};

    private Random random;
    private long seed;

    private <T> T pick(T[] values) {
        return values[random.nextInt(values.length)];
    }

    private String lit(String v) {
        return v == null ? "NULL" : RuleNames.literal(v);
    }

    // ------------------------------------------------------------------ random conditions

    private String condition(int depth) {
        int choice = depth <= 0 ? 0 : random.nextInt(10);
        return switch (choice) {
            case 0, 1, 2, 3 -> atom();
            case 4, 5 -> join(" AND ", depth);
            case 6, 7 -> join(" OR ", depth);
            case 8 -> "NOT (" + condition(depth - 1) + ")";
            default -> "(" + condition(depth - 1) + ") IS " + (random.nextBoolean() ? "NOT " : "")
                    + pick(new String[] {"TRUE", "FALSE", "UNKNOWN"});
        };
    }

    private String join(String op, int depth) {
        int n = 2 + random.nextInt(3);
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            parts.add("(" + condition(depth - 1) + ")");
        }
        return String.join(op, parts);
    }

    private String atom() {
        String v = random.nextInt(4) == 0 ? ":ddl" : ":dml";
        boolean ddl = v.equals(":ddl");
        switch (random.nextInt(14)) {
            case 0:
            case 1:
                return v + ".get_object_owner() = " + lit(pick(OWNERS));
            case 2:
            case 3:
                return v + ".get_object_name() = " + lit(pick(TABLES));
            case 4:
                return v + ".get_command_type() IN (" + lit(pick(ddl ? DDL_COMMANDS : DML_COMMANDS)) + ", "
                        + lit(pick(ddl ? DDL_COMMANDS : DML_COMMANDS)) + ")";
            case 5:
                return v + ".get_object_owner() IN (" + lit(pick(OWNERS)) + ", " + lit(pick(OWNERS)) + ")";
            case 6:
                return v + ".is_null_tag() = " + (random.nextBoolean() ? "'Y'" : "'N'");
            case 7:
                return v + ".get_source_database_name() = " + lit(pick(SOURCES));
            case 8:
                if (ddl) {
                    return random.nextBoolean() ? ":ddl.get_base_table_owner() = " + lit(pick(OWNERS))
                            : ":ddl.get_base_table_name() = " + lit(pick(TABLES));
                }
                return ":dml.get_value('" + (random.nextBoolean() ? "NEW" : "OLD") + "', '" + pick(COLUMNS) + "') "
                        + pick(new String[] {"=", "<>", "<", ">="}) + " " + random.nextInt(4);
            case 9:
                if (ddl) {
                    return ":ddl.get_object_type() = " + lit(pick(OBJECT_TYPES));
                }
                return ":dml.get_value('NEW', '" + pick(COLUMNS) + "'" + (random.nextBoolean() ? ", 'N'" : "") + ") IS "
                        + (random.nextBoolean() ? "NOT " : "") + "NULL";
            case 10:
                return v + ".get_object_name() LIKE '" + pick(new String[] {"EMP%", "%S", "_OBS", "%"}) + "'";
            case 11:
                return ":dml.get_value('OLD', '" + pick(COLUMNS) + "') BETWEEN 1 AND 2";
            case 12:
                return pick(new String[] {"1 = 1", "1 = 0", "NULL = 1"});
            default:
                return "'" + pick(TABLES) + "' = " + v + ".get_object_name()";
        }
    }

    // ------------------------------------------------------------------ random rules and inputs

    private List<Rule> rules(RuleCatalog catalog) {
        int n = random.nextInt(30);
        StreamsClient client = StreamsClient.capture("C", Optional.empty(), Optional.empty());
        List<Rule> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String table = RuleNames.cqlIdentifier(pick(new String[] {"hr", "oe", "scott", "\"MyKs\""})) + "."
                    + pick(new String[] {"employees", "jobs", "orders", "t1"});
            StreamsRuleOptions options = StreamsRuleOptions.DEFAULTS.withDml(random.nextInt(4) != 0)
                    .withTaggedLcr(random.nextBoolean()).withSourceDatabase(pick(SOURCES));
            options = options.withDdl(!options.includeDml() || random.nextBoolean());
            if (random.nextInt(5) == 0) {
                options = options.withAndCondition(":lcr.get_command_type() <> " + lit(pick(DML_COMMANDS)));
            }
            String quoted = table.startsWith("MyKs") ? "\"MyKs\"" + table.substring(4) : table;
            List<QualifiedName> made = switch (random.nextInt(6)) {
                case 0 -> catalog.addTableRules(client, quoted, options).ruleNames();
                case 1 -> catalog.addSchemaRules(client, quoted.substring(0, quoted.indexOf('.')), options).ruleNames();
                case 2 -> catalog.addGlobalRules(client, options).ruleNames();
                case 3 -> catalog.addSubsetRules(client, quoted, pick(COLUMNS) + " " + pick(new String[] {"=", "<", "IN (1, 3) AND b ="})
                        + " " + random.nextInt(4), random.nextBoolean(), Optional.of(pick(SOURCES))).ruleNames();
                default -> List.of(catalog.createRule("custom" + i, condition(3), null).qualifiedName());
            };
            for (QualifiedName q : made) {
                out.add(catalog.rule(q.toString()).orElseThrow());
            }
        }
        return out;
    }

    private LcrInput input() {
        boolean ddl = random.nextInt(4) == 0;
        LcrInput.Builder b = LcrInput.builder().ddl(ddl).sourceDatabaseName(pick(SOURCES)).object(pick(OWNERS), pick(TABLES))
                .commandType(pick(ddl ? DDL_COMMANDS : DML_COMMANDS));
        if (random.nextInt(3) == 0) {
            b.tag(new byte[] {(byte) random.nextInt(3)});
        }
        if (ddl) {
            b.objectType(pick(OBJECT_TYPES));
            if (random.nextBoolean()) {
                b.baseTable(pick(OWNERS), pick(TABLES));
            }
        } else {
            for (String c : COLUMNS) {
                Supplier<Object> value = () -> pick(new Object[] {null, 1, 2L, 3.0, "2", 0});
                switch (random.nextInt(3)) {
                    case 0 -> b.oldValue(c, value.get());
                    case 1 -> b.newValue(c, value.get());
                    default -> { }
                }
            }
        }
        return b.build();
    }

    // ------------------------------------------------------------------ the reference

    private static Truth bruteTruth(List<Rule> rules, RuleInput in) {
        Truth t = Truth.FALSE;
        for (Rule r : rules) {
            t = t.or(r.evaluate(in));
        }
        return t;
    }

    private static EvaluationResult bruteEvaluate(List<Rule> pos, List<Rule> neg, RuleInput in) {
        if (SystemKeyspaces.isSystem(in.objectOwner())) {
            return EvaluationResult.discard(DiscardReason.SYSTEM_KEYSPACE);
        }
        if (neg != null && bruteTruth(neg, in) == Truth.TRUE) {
            return EvaluationResult.discard(DiscardReason.NEGATIVE_RULE);
        }
        if (pos == null) {
            return EvaluationResult.keep(List.of(), RowMigration.NONE);
        }
        List<Rule> matched = pos.stream().filter(r -> r.evaluate(in) == Truth.TRUE)
                .sorted(Comparator.comparing(Rule::qualifiedName)).toList();
        if (matched.isEmpty()) {
            return EvaluationResult.discard(DiscardReason.NO_POSITIVE_RULE);
        }
        return EvaluationResult.keep(matched, CompiledRuleSets.migration(in, matched));
    }

    @Test
    @DisplayName("indexed evaluation equals brute-force evaluation over random rules and changes (seeded)")
    void indexedEqualsBruteForce() {
        seed = Long.getLong("rules.seed", System.nanoTime());
        System.out.println("IndexEquivalenceTest seed=" + seed + " (replay with -Drules.seed=" + seed + ")");
        random = new Random(seed);
        int decisions = 0;
        for (int trial = 0; trial < 300; trial++) {
            RuleCatalog catalog = new RuleCatalog("DB1", "strmadmin");
            List<Rule> all = rules(catalog);
            List<Rule> pos = new ArrayList<>();
            List<Rule> neg = new ArrayList<>();
            for (Rule r : all) {
                (random.nextInt(3) == 0 ? neg : pos).add(r);
            }
            boolean hasPos = random.nextInt(5) != 0;
            boolean hasNeg = random.nextBoolean();
            CompiledRuleSets sets = CompiledRuleSets.compile(hasPos ? Optional.of(pos) : Optional.empty(),
                    hasNeg ? Optional.of(neg) : Optional.empty());
            for (int i = 0; i < 60; i++) {
                LcrInput full = input();
                PartialInput partial = full.toPartial();
                String ctx = "seed=" + seed + " trial=" + trial + " input=" + full + " rules=" + all.stream()
                        .map(r -> r.name() + ": " + r.condition().text()).toList();
                Truth posPartial = hasPos ? bruteTruth(pos, partial) : Truth.FALSE;
                Truth negPartial = hasNeg ? bruteTruth(neg, partial) : Truth.FALSE;
                assertEquals(posPartial, sets.prefilter(RuleSetRole.POSITIVE, partial), ctx);
                assertEquals(negPartial, sets.prefilter(RuleSetRole.NEGATIVE, partial), ctx);
                assertEquals(hasPos ? bruteTruth(pos, full) : Truth.FALSE, sets.prefilter(RuleSetRole.POSITIVE, full), ctx);
                assertEquals(hasNeg ? bruteTruth(neg, full) : Truth.FALSE, sets.prefilter(RuleSetRole.NEGATIVE, full), ctx);

                PrefilterDecision expected;
                if (SystemKeyspaces.isSystem(partial.objectOwner())) {
                    expected = PrefilterDecision.DISCARD;
                } else if (!hasPos) {
                    expected = negPartial == Truth.TRUE ? PrefilterDecision.DISCARD
                            : negPartial == Truth.FALSE ? PrefilterDecision.CONVERT : PrefilterDecision.CONVERT_FOR_FURTHER_EVALUATION;
                } else {
                    expected = CompiledRuleSets.decide(negPartial, posPartial);
                }
                PrefilterDecision decision = sets.decide(partial);
                assertEquals(expected, decision, ctx);

                EvaluationResult result = sets.evaluate(full);
                assertEquals(bruteEvaluate(hasPos ? pos : null, hasNeg ? neg : null, full), result, ctx);
                // prefiltering is safe: it never contradicts full evaluation
                if (decision == PrefilterDecision.CONVERT) {
                    assertTrue(result.keep(), ctx);
                } else if (decision == PrefilterDecision.DISCARD) {
                    assertFalse(result.keep(), ctx);
                }
                decisions++;
            }
        }
        assertEquals(300 * 60, decisions);
    }
}
