package dev.tributary.rules;

import dev.tributary.rules.errors.ConditionSyntaxException;
import dev.tributary.rules.eval.RuleInput;
import dev.tributary.rules.eval.Truth;
import dev.tributary.rules.internal.Ast;
import dev.tributary.rules.internal.Ast.BoolNode;
import dev.tributary.rules.internal.Outcomes;
import dev.tributary.rules.internal.Parser;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * A parsed rule condition in Oracle's form, such as
 * {@code :dml.get_object_owner() = 'HR' AND :dml.get_object_name() = 'EMPLOYEES'}.
 *
 * <h2>Language</h2>
 * Boolean operators AND, OR, NOT; comparisons {@code = != <> ^= < <= > >=}; {@code [NOT] IN
 * (...)}, {@code [NOT] BETWEEN ... AND ...}, {@code [NOT] LIKE ... [ESCAPE ...]}, {@code IS [NOT]
 * NULL}, and the SQL-standard test {@code (condition) IS [NOT] TRUE|FALSE|UNKNOWN}. Values:
 * string and number literals, NULL, TRUE, FALSE, {@code DATE '2024-01-31'},
 * {@code TIMESTAMP '2024-01-31 12:00:00'} (UTC); {@code + - * / ||}; the functions UPPER, LOWER,
 * LENGTH, SUBSTR, NVL, TRIM, ABS, HEXTORAW, RAWTOHEX, TO_CHAR, TO_NUMBER.
 *
 * <p>The variables {@code :dml} (a row LCR) and {@code :ddl} (a DDL LCR) have the member
 * functions {@code get_object_owner() get_object_name() get_command_type()
 * get_source_database_name() is_null_tag() ('Y'/'N') get_tag()}; {@code :dml} also has
 * {@code get_value('NEW'|'OLD', 'column' [, use_old 'Y'|'N'])} (NEW with use_old 'Y', the
 * default, falls back to the old value when the new image lacks the column), and {@code :ddl}
 * has {@code get_object_type() get_base_table_owner() get_base_table_name()}. For a DDL LCR
 * {@code :dml} is NULL and so is every call on it (and the other way round). ANYDATA accessors
 * after get_value ({@code .AccessNumber()} and the like) are accepted and return the value.
 * A subset rule's dml_condition ({@link #parseDmlCondition}) names columns directly:
 * {@code department_id = 50}.
 *
 * <h2>Semantics</h2>
 * SQL's three-valued logic, with comparisons across number classes by value and Oracle's
 * implicit string conversions; a type mismatch is NULL rather than an error, so evaluation never
 * throws. A column absent from the LCR, and every attribute a {@linkplain RuleInput#isPartial()
 * partial} input lacks, is unknown: the result is {@link Truth#MAYBE} when the outcome depends on
 * it. A condition is TRUE only when it is certainly TRUE; NULL counts as FALSE.
 *
 * <p>Immutable and thread-safe. Equality is by text.
 */
public final class Condition {
    private final String text;
    private final BoolNode root;
    private final boolean readsDml;
    private final boolean readsDdl;
    private final Set<String> columns;

    private Condition(String text, BoolNode root) {
        this.text = Objects.requireNonNull(text, "text");
        this.root = root;
        boolean[] vars = new boolean[2];
        Set<String> cols = new LinkedHashSet<>();
        root.forEachValue(v -> {
            if (v instanceof Ast.VariableCall call) {
                switch (call.variable()) {
                    case DML -> vars[0] = true;
                    case DDL -> vars[1] = true;
                    case LCR -> {
                        vars[0] = true;
                        vars[1] = true;
                    }
                }
                if (call.method() == Ast.Method.GET_VALUE) {
                    cols.add(call.column());
                }
            } else if (v instanceof Ast.ColumnRef ref) {
                vars[0] = true;
                cols.add(ref.column());
            }
        });
        this.readsDml = vars[0];
        this.readsDdl = vars[1];
        this.columns = Collections.unmodifiableSet(cols);
    }

    /**
     * Parses a rule condition ({@code :dml} and {@code :ddl}; no plain column names).
     *
     * @throws ConditionSyntaxException naming the position of the offending token
     */
    public static Condition parse(String text) {
        return new Condition(text, Parser.parse(text, Parser.Mode.RULE));
    }

    /**
     * Parses a subset rule's dml_condition, which names columns directly ({@code department_id = 50});
     * a column reads the new value, or the old one when the new image lacks it.
     *
     * @throws ConditionSyntaxException naming the position of the offending token
     */
    public static Condition parseDmlCondition(String text) {
        return new Condition(text, Parser.parse(text, Parser.Mode.DML_CONDITION));
    }

    /** The condition as written (or as generated). */
    public String text() {
        return text;
    }

    /** Evaluates the condition against a change. Never throws. */
    public Truth evaluate(RuleInput input) {
        return Outcomes.toTruth(root.test(input));
    }

    /** Whether the condition reads {@code :dml} (or names columns). */
    public boolean readsDml() {
        return readsDml;
    }

    /** Whether the condition reads {@code :ddl}. */
    public boolean readsDdl() {
        return readsDdl;
    }

    /** The CQL columns the condition reads, through get_value or by name, in order of appearance. */
    public Set<String> columns() {
        return columns;
    }

    /** The syntax tree; part of the engine's internals, not a stable API. */
    public BoolNode syntaxTree() {
        return root;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Condition c && c.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
