package dev.tributary.rules;

import dev.tributary.rules.eval.RuleInput;
import dev.tributary.rules.RuleIndex;
import dev.tributary.rules.eval.Truth;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A capture's positive and/or negative rule set compiled for evaluation, following the seed's
 * "Capture Process Rule Evaluation":
 *
 * <ul>
 *   <li>Changes to system keyspaces ({@link SystemKeyspaces}) are discarded whatever the rules.</li>
 *   <li>The negative rule set is evaluated first. If a negative rule is TRUE the change is
 *       discarded; otherwise, if there is a positive rule set, the change is kept only if a
 *       positive rule is TRUE. With only one rule set, only that one is evaluated; with none,
 *       everything is captured.</li>
 *   <li>{@link #decide} is prefiltering, with partial information; TRUE/FALSE/MAYBE of the two
 *       sets give {@link PrefilterDecision}s by the seed's table (negative across, positive
 *       down): TRUE/any: discard; FALSE/TRUE: convert; FALSE/FALSE: discard;
 *       FALSE/MAYBE: convert for further evaluation; MAYBE/TRUE: further evaluation;
 *       MAYBE/FALSE: discard; MAYBE/MAYBE: further evaluation.</li>
 *   <li>{@link #evaluate} is LCR filtering with the full LCR. A rule counts only when TRUE, so a
 *       rule that is MAYBE because a column it reads is absent from the LCR neither keeps nor
 *       discards: a subset rule whose column is missing does not keep the LCR.</li>
 * </ul>
 *
 * <p>Each set is indexed by (owner, object, command type), owner and object name, plus a
 * fallback list for rules no key can be derived from (global rules and free-form custom ones),
 * so evaluating a change costs the same with 10 table rules or 10,000. Immutable and thread-safe;
 * build a new instance when the rules change ({@link RuleCatalog#compile}).
 */
public final class CompiledRuleSets {
    private static final Comparator<Rule> RULE_ORDER = Comparator.comparing(Rule::qualifiedName);
    private static final CompiledRuleSets NONE = new CompiledRuleSets(null, null);

    private final RuleIndex positive;
    private final RuleIndex negative;
    private final Map<QualifiedName, Set<String>> supplementalLogging;

    private CompiledRuleSets(List<Rule> positiveRules, List<Rule> negativeRules) {
        this.positive = positiveRules == null ? null : RuleIndex.build(sorted(positiveRules));
        this.negative = negativeRules == null ? null : RuleIndex.build(sorted(negativeRules));
        this.supplementalLogging = supplementalLogging(positiveRules, negativeRules);
    }

    private static List<Rule> sorted(List<Rule> rules) {
        List<Rule> out = new ArrayList<>(rules);
        out.sort(RULE_ORDER);
        return out;
    }

    /** Compiles the rule sets a capture has; an empty Optional means the capture has no such set. */
    public static CompiledRuleSets compile(Optional<List<Rule>> positive, Optional<List<Rule>> negative) {
        if (positive.isEmpty() && negative.isEmpty()) {
            return NONE;
        }
        return new CompiledRuleSets(positive.orElse(null), negative.orElse(null));
    }

    /** Both rule sets. */
    public static CompiledRuleSets of(List<Rule> positive, List<Rule> negative) {
        return new CompiledRuleSets(List.copyOf(positive), List.copyOf(negative));
    }

    public static CompiledRuleSets positiveOnly(List<Rule> positive) {
        return new CompiledRuleSets(List.copyOf(positive), null);
    }

    public static CompiledRuleSets negativeOnly(List<Rule> negative) {
        return new CompiledRuleSets(null, List.copyOf(negative));
    }

    /** No rule sets: every change outside the system keyspaces is captured. */
    public static CompiledRuleSets none() {
        return NONE;
    }

    public boolean hasPositive() {
        return positive != null;
    }

    public boolean hasNegative() {
        return negative != null;
    }

    /** The rules of one set, in evaluation order (by qualified name); empty for an absent set. */
    public List<Rule> rules(RuleSetRole role) {
        RuleIndex index = role == RuleSetRole.POSITIVE ? positive : negative;
        return index == null ? List.of() : index.rules();
    }

    /**
     * One rule set's truth for a change: TRUE if one of its rules is TRUE, else MAYBE if one is
     * MAYBE, else FALSE (also for an absent set, which has no rules). With a partial input this is
     * the prefiltering evaluation. System keyspaces are not special here; see {@link #decide}.
     */
    public Truth prefilter(RuleSetRole role, RuleInput input) {
        RuleIndex index = role == RuleSetRole.POSITIVE ? positive : negative;
        return index == null ? Truth.FALSE : index.truth(input);
    }

    /**
     * Prefiltering: whether a change found in the redo becomes an LCR. Normally given a
     * {@link PartialInput}; a full input gives the same decisions with fewer MAYBEs.
     */
    public PrefilterDecision decide(RuleInput input) {
        if (SystemKeyspaces.isSystem(input.objectOwner())) {
            return PrefilterDecision.DISCARD;
        }
        Truth neg = negative == null ? null : negative.truth(input);
        if (neg == Truth.TRUE) {
            return PrefilterDecision.DISCARD;
        }
        if (positive == null) {
            if (neg == null || neg == Truth.FALSE) {
                return PrefilterDecision.CONVERT;
            }
            return PrefilterDecision.CONVERT_FOR_FURTHER_EVALUATION;
        }
        Truth pos = positive.truth(input);
        return decide(neg == null ? Truth.FALSE : neg, pos);
    }

    /**
     * The seed's decision table for a change whose negative-set truth is {@code neg} and
     * positive-set truth is {@code pos} (an absent negative set counts as FALSE).
     */
    public static PrefilterDecision decide(Truth neg, Truth pos) {
        if (neg == Truth.TRUE || pos == Truth.FALSE) {
            return PrefilterDecision.DISCARD;
        }
        if (neg == Truth.FALSE && pos == Truth.TRUE) {
            return PrefilterDecision.CONVERT;
        }
        return PrefilterDecision.CONVERT_FOR_FURTHER_EVALUATION;
    }

    /**
     * LCR filtering: whether a complete LCR is enqueued, and with which matching positive rules
     * and row migration.
     *
     * @throws IllegalArgumentException if the input is partial
     */
    public EvaluationResult evaluate(RuleInput input) {
        if (input.isPartial()) {
            throw new IllegalArgumentException("full evaluation needs the complete LCR, not a partial input: " + input);
        }
        if (SystemKeyspaces.isSystem(input.objectOwner())) {
            return EvaluationResult.discard(DiscardReason.SYSTEM_KEYSPACE);
        }
        if (negative != null && negative.truth(input) == Truth.TRUE) {
            return EvaluationResult.discard(DiscardReason.NEGATIVE_RULE);
        }
        if (positive == null) {
            return EvaluationResult.keep(List.of(), RowMigration.NONE);
        }
        List<Rule> matched = positive.trueRules(input);
        if (matched.isEmpty()) {
            return EvaluationResult.discard(DiscardReason.NO_POSITIVE_RULE);
        }
        return EvaluationResult.keep(matched, migration(input, matched));
    }

    /**
     * Row migration for an UPDATE: when only INSERT subset rules select it, the row moved into
     * the subset and it becomes an INSERT; only DELETE subset rules, it moved out and becomes a
     * DELETE. If any other rule selects it as it is (a table rule, an UPDATE subset rule), or
     * subsets disagree, it stays an UPDATE.
     */
    static RowMigration migration(RuleInput input, List<Rule> matched) {
        if (input.isDdl() || !"UPDATE".equals(input.commandType())) {
            return RowMigration.NONE;
        }
        boolean toInsert = false;
        boolean toDelete = false;
        for (Rule r : matched) {
            Optional<SubsetOperation> op = r.subsetOperation();
            if (op.isEmpty() || op.get() == SubsetOperation.UPDATE) {
                return RowMigration.NONE;
            }
            if (op.get() == SubsetOperation.INSERT) {
                toInsert = true;
            } else {
                toDelete = true;
            }
        }
        if (toInsert && !toDelete) {
            return RowMigration.TO_INSERT;
        }
        if (toDelete && !toInsert) {
            return RowMigration.TO_DELETE;
        }
        return RowMigration.NONE;
    }

    /**
     * The columns whose old values capture must log (supplemental logging) for the positive
     * subset rules to work, by table in rule form: the columns their dml_conditions read.
     */
    public Map<QualifiedName, Set<String>> supplementalLogging() {
        return supplementalLogging;
    }

    static Map<QualifiedName, Set<String>> supplementalLogging(List<Rule> positiveRules, List<Rule> negativeRules) {
        Map<QualifiedName, Set<String>> out = new TreeMap<>();
        List<Rule> all = new ArrayList<>();
        if (positiveRules != null) {
            all.addAll(positiveRules);
        }
        if (negativeRules != null) {
            all.addAll(negativeRules);
        }
        for (Rule r : all) {
            if (r.kind() != RuleKind.SUBSET) {
                continue;
            }
            SystemRuleSpec spec = r.system().orElseThrow();
            QualifiedName table = new QualifiedName(spec.schemaName().orElseThrow(), spec.objectName().orElseThrow());
            out.computeIfAbsent(table, k -> new LinkedHashSet<>()).addAll(spec.subsetColumns());
        }
        Map<QualifiedName, Set<String>> frozen = new TreeMap<>();
        out.forEach((k, v) -> frozen.put(k, Collections.unmodifiableSet(new LinkedHashSet<>(v))));
        return Collections.unmodifiableMap(frozen);
    }
}
