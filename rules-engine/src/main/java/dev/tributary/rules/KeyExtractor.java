package dev.tributary.rules;

import dev.tributary.rules.internal.Ast;
import dev.tributary.rules.internal.Ast.BoolNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Derives index keys from a condition: a list of {@link KeyPattern}s such that the condition can
 * be TRUE only for an input matching one of them, or {@code null} when nothing can be derived
 * (the rule then goes to the fallback list and is evaluated for every input of its kind).
 * An empty list means the condition can never be TRUE.
 *
 * <p>Soundness: only AND and OR are descended (both monotone), and only the equality atoms
 * {@code var.method() = 'literal'} and {@code var.method() IN ('a', 'b')} yield keys. Such an
 * atom is not TRUE when the input's attribute differs, so neither is any AND containing it, nor
 * an OR all of whose branches fail. The attributes used are ones the input knows: with
 * {@code useBase} false (partial inputs, which lack base tables), base-table atoms yield nothing.
 */
final class KeyExtractor {
    private static final int MAX_PATTERNS = 64;

    private KeyExtractor() {
    }

    static List<KeyPattern> extract(BoolNode node, boolean useBase) {
        if (node instanceof Ast.And and) {
            List<KeyPattern> acc = null;
            for (BoolNode operand : and.operands()) {
                List<KeyPattern> p = extract(operand, useBase);
                if (p == null) {
                    continue;
                }
                if (acc == null) {
                    acc = p;
                } else if ((long) acc.size() * p.size() <= MAX_PATTERNS) {
                    acc = product(acc, p);
                } else {
                    // either conjunct alone is still a necessary condition
                    acc = acc.size() <= p.size() ? acc : p;
                }
            }
            return acc;
        }
        if (node instanceof Ast.Or or) {
            Set<KeyPattern> acc = new LinkedHashSet<>();
            for (BoolNode operand : or.operands()) {
                List<KeyPattern> p = extract(operand, useBase);
                if (p == null) {
                    return null;
                }
                acc.addAll(p);
                if (acc.size() > MAX_PATTERNS) {
                    return null;
                }
            }
            return List.copyOf(acc);
        }
        if (node instanceof Ast.Comparison c && c.op() == Ast.CompOp.EQ) {
            KeyPattern k = atom(c.left(), c.right(), useBase);
            if (k == null) {
                k = atom(c.right(), c.left(), useBase);
            }
            return k == null ? null : List.of(k);
        }
        if (node instanceof Ast.InList in && !in.negated() && in.operand() instanceof Ast.VariableCall call) {
            List<String> values = new ArrayList<>();
            for (Ast.ValueNode item : in.items()) {
                if (!(item instanceof Ast.Literal l) || !(l.constant() instanceof String s)) {
                    return null;
                }
                values.add(s);
            }
            if (call.method() == Ast.Method.GET_COMMAND_TYPE) {
                return List.of(new KeyPattern(ddlOf(call), null, null, null, null, Set.copyOf(values)));
            }
            List<KeyPattern> out = new ArrayList<>();
            for (String v : values) {
                KeyPattern k = pattern(call, v, useBase);
                if (k == null) {
                    return null;
                }
                if (!out.contains(k)) {
                    out.add(k);
                }
            }
            return out.size() > MAX_PATTERNS ? null : out;
        }
        return null;
    }

    private static List<KeyPattern> product(List<KeyPattern> a, List<KeyPattern> b) {
        List<KeyPattern> out = new ArrayList<>();
        for (KeyPattern x : a) {
            for (KeyPattern y : b) {
                KeyPattern m = x.merge(y);
                if (m != null && !out.contains(m)) {
                    out.add(m);
                }
            }
        }
        return out;
    }

    private static KeyPattern atom(Ast.ValueNode call, Ast.ValueNode literal, boolean useBase) {
        if (call instanceof Ast.VariableCall vc && literal instanceof Ast.Literal l && l.constant() instanceof String s) {
            return pattern(vc, s, useBase);
        }
        return null;
    }

    private static KeyPattern pattern(Ast.VariableCall call, String value, boolean useBase) {
        Boolean ddl = ddlOf(call);
        return switch (call.method()) {
            case GET_OBJECT_OWNER -> new KeyPattern(ddl, value, null, null, null, null);
            case GET_OBJECT_NAME -> new KeyPattern(ddl, null, value, null, null, null);
            case GET_COMMAND_TYPE -> new KeyPattern(ddl, null, null, null, null, Set.of(value));
            case GET_BASE_TABLE_OWNER -> useBase ? new KeyPattern(ddl, null, null, value, null, null) : null;
            case GET_BASE_TABLE_NAME -> useBase ? new KeyPattern(ddl, null, null, null, value, null) : null;
            default -> null;
        };
    }

    private static Boolean ddlOf(Ast.VariableCall call) {
        return switch (call.variable()) {
            case DML -> Boolean.FALSE;
            case DDL -> Boolean.TRUE;
            case LCR -> null;
        };
    }
}
