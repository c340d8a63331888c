package dev.tributary.rules;

import dev.tributary.rules.eval.RuleNames;
import dev.tributary.rules.eval.ValueSide;
import dev.tributary.rules.errors.InvalidRuleArgumentException;
import dev.tributary.rules.internal.Ast;
import dev.tributary.rules.internal.Ast.BoolNode;
import java.util.Locale;

/**
 * The conditions of dbms_streams_adm's system-made rules, in Oracle's form. Names are in rule
 * form (upper case for plain CQL names). Pure functions.
 */
public final class RuleTemplates {
    private RuleTemplates() {
    }

    private static String lit(String s) {
        return RuleNames.literal(s);
    }

    private static String suffix(String var, boolean includeTagged, String sourceDatabase) {
        StringBuilder sb = new StringBuilder();
        if (!includeTagged) {
            sb.append(" and ").append(var).append(".is_null_tag() = 'Y'");
        }
        sb.append(" and ").append(var).append(".get_source_database_name() = ").append(lit(sourceDatabase));
        return sb.toString();
    }

    /** A table rule: {@code ((:dml.get_object_owner() = 'HR' and :dml.get_object_name() = 'EMPLOYEES')) and ...}. */
    public static String table(boolean ddl, String owner, String table, boolean includeTagged, String sourceDatabase) {
        String core;
        if (ddl) {
            core = "((:ddl.get_object_owner() = " + lit(owner) + " and :ddl.get_object_name() = " + lit(table) + ")"
                    + " or (:ddl.get_base_table_owner() = " + lit(owner) + " and :ddl.get_base_table_name() = " + lit(table) + "))";
        } else {
            core = "((:dml.get_object_owner() = " + lit(owner) + " and :dml.get_object_name() = " + lit(table) + "))";
        }
        return core + suffix(ddl ? ":ddl" : ":dml", includeTagged, sourceDatabase);
    }

    /** A schema rule: {@code ((:dml.get_object_owner() = 'HR')) and ...}. */
    public static String schema(boolean ddl, String owner, boolean includeTagged, String sourceDatabase) {
        String core = ddl
                ? "((:ddl.get_object_owner() = " + lit(owner) + ") or (:ddl.get_base_table_owner() = " + lit(owner) + "))"
                : "((:dml.get_object_owner() = " + lit(owner) + "))";
        return core + suffix(ddl ? ":ddl" : ":dml", includeTagged, sourceDatabase);
    }

    /** A global rule: {@code (:dml.is_null_tag() = 'Y' and :dml.get_source_database_name() = 'DB1')}. */
    public static String global(boolean ddl, boolean includeTagged, String sourceDatabase) {
        String var = ddl ? ":ddl" : ":dml";
        return "(" + (includeTagged ? "" : var + ".is_null_tag() = 'Y' and ") + var + ".get_source_database_name() = "
                + lit(sourceDatabase) + ")";
    }

    /**
     * One of the three subset rules for {@code dmlCondition} on a table. The INSERT rule selects
     * inserts of rows in the subset and updates whose new row is in it while the old row is not;
     * the UPDATE rule updates with both rows in it; the DELETE rule deletes of rows in it and
     * updates whose old row is in it while the new row is not. "Not in" is
     * {@code (...) is not true}, so a NULL value is outside the subset; the old side also needs
     * the subset columns in the LCR, else the rule is MAYBE and does not select the change.
     */
    public static String subset(SubsetOperation op, String owner, String table, BoolNode dmlCondition,
                                boolean includeTagged, String sourceDatabase) {
        String base = table(false, owner, table, includeTagged, sourceDatabase);
        String inNew = onSide(dmlCondition, ValueSide.NEW);
        String inOld = onSide(dmlCondition, ValueSide.OLD);
        return switch (op) {
            case INSERT -> base + " and :dml.get_command_type() in ('INSERT', 'UPDATE') and (" + inNew + ")"
                    + " and (:dml.get_command_type() = 'INSERT' or (" + inOld + ") is not true)";
            case UPDATE -> base + " and :dml.get_command_type() = 'UPDATE' and (" + inOld + ") and (" + inNew + ")";
            case DELETE -> base + " and :dml.get_command_type() in ('DELETE', 'UPDATE') and (" + inOld + ")"
                    + " and (:dml.get_command_type() = 'DELETE' or (" + inNew + ") is not true)";
        };
    }

    /** The dml_condition with each column read from one image through get_value. */
    static String onSide(BoolNode dmlCondition, ValueSide side) {
        return dmlCondition.rewrite(v -> v instanceof Ast.ColumnRef c
                ? Ast.VariableCall.getValue(Ast.Variable.DML, side, c.column()) : v).toString();
    }

    /**
     * An and_condition joined to a generated condition: {@code (generated) and (and_condition)},
     * with {@code :lcr} replaced by the rule's variable.
     *
     * @throws InvalidRuleArgumentException if the and_condition reads the other kind of LCR or
     *     calls a method that kind does not have
     */
    public static String withAndCondition(String generated, BoolNode andCondition, boolean ddl) {
        Ast.Variable target = ddl ? Ast.Variable.DDL : Ast.Variable.DML;
        BoolNode rewritten = andCondition.rewrite(v -> {
            if (!(v instanceof Ast.VariableCall call)) {
                return v;
            }
            Ast.Variable var = call.variable() == Ast.Variable.LCR ? target : call.variable();
            if (var != target) {
                throw new InvalidRuleArgumentException("the and_condition of a " + (ddl ? "DDL" : "DML")
                        + " rule cannot read " + call.variable().sql() + ": " + andCondition);
            }
            if (!call.method().availableOn(target)) {
                throw new InvalidRuleArgumentException(call.method().name().toLowerCase(Locale.ROOT)
                        + " is not a method of " + target.sql() + " (and_condition: " + andCondition + ")");
            }
            return call.on(target);
        });
        return "(" + generated + ") and (" + rewritten + ")";
    }
}
