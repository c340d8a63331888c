package dev.tributary.rules;

import dev.tributary.rules.eval.RuleInput;
import dev.tributary.rules.eval.Truth;
import dev.tributary.rules.transform.RuleTransformations;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A rule: a named condition, as in DBA_RULES, plus what Streams adds to it. Immutable and
 * thread-safe.
 *
 * @param owner the schema owning the rule, in Oracle form (e.g. {@code STRMADMIN})
 * @param name the rule's name, in Oracle form (e.g. {@code EMPLOYEES12})
 * @param condition the rule condition
 * @param kind table, subset, schema or global for system-made rules; custom otherwise
 * @param ruleType DML or DDL; for a custom rule, inferred from the variables its condition reads
 *     (empty when it reads both or neither, and it then applies to both kinds of change)
 * @param system the parameters of a system-made rule; empty for a custom rule
 * @param transformations the rule-based transformations run on the LCRs this rule selects (in a
 *     positive rule set only; a negative rule set ignores them)
 * @param comment the rule comment, possibly empty
 */
public record Rule(String owner, String name, Condition condition, RuleKind kind, Optional<DmlOrDdl> ruleType,
                   Optional<SystemRuleSpec> system, RuleTransformations transformations, String comment) {

    public Rule {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(ruleType, "ruleType");
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(transformations, "transformations");
        comment = comment == null ? "" : comment;
        if ((kind == RuleKind.CUSTOM) != system.isEmpty()) {
            throw new IllegalArgumentException("rule " + owner + "." + name + ": only system-made rules carry a SystemRuleSpec");
        }
        if (kind != RuleKind.CUSTOM && ruleType.isEmpty()) {
            throw new IllegalArgumentException("system-made rule " + owner + "." + name + " needs a rule type");
        }
    }

    /** A rule created with dbms_rule_adm.create_rule; its type is inferred from the condition. */
    public static Rule custom(String owner, String name, Condition condition, String comment) {
        Optional<DmlOrDdl> type = Optional.empty();
        if (condition.readsDml() && !condition.readsDdl()) {
            type = Optional.of(DmlOrDdl.DML);
        } else if (condition.readsDdl() && !condition.readsDml()) {
            type = Optional.of(DmlOrDdl.DDL);
        }
        return new Rule(owner, name, condition, RuleKind.CUSTOM, type, Optional.empty(), RuleTransformations.NONE, comment);
    }

    public QualifiedName qualifiedName() {
        return new QualifiedName(owner, name);
    }

    /** Whether the rule can be TRUE for a row change ({@code ddl} false) or a DDL change. */
    public boolean appliesTo(boolean ddl) {
        return ruleType.map(t -> t == DmlOrDdl.of(ddl)).orElse(true);
    }

    /** The rule's truth for a change: FALSE for the other kind of change, else its condition's. */
    public Truth evaluate(RuleInput input) {
        return appliesTo(input.isDdl()) ? condition.evaluate(input) : Truth.FALSE;
    }

    /** For a subset rule, which of the three it is. */
    public Optional<SubsetOperation> subsetOperation() {
        return system.flatMap(SystemRuleSpec::subsettingOperation);
    }

    public Rule withTransformations(RuleTransformations newTransformations) {
        return new Rule(owner, name, condition, kind, ruleType, system, newTransformations, comment);
    }

    /**
     * The rule's action context as DBA_RULES shows it, e.g. {@code STREAMS$_ROW_SUBSET=INSERT},
     * {@code STREAMS$_TRANSFORM_FUNCTION=hr.mask}; empty when it has none.
     */
    public Optional<String> actionContext() {
        List<String> parts = new ArrayList<>();
        subsetOperation().ifPresent(op -> parts.add("STREAMS$_ROW_SUBSET=" + op));
        transformations.custom().ifPresent(f -> parts.add("STREAMS$_TRANSFORM_FUNCTION=" + f));
        if (!transformations.declarative().isEmpty()) {
            parts.add("STREAMS$_INTERNAL_TRANS=" + transformations.declarative().size());
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", parts));
    }
}
