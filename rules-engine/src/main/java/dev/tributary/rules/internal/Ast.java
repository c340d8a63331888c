package dev.tributary.rules.internal;

import dev.tributary.rules.eval.ColumnLookup;
import dev.tributary.rules.eval.RuleInput;
import dev.tributary.rules.eval.RuleNames;
import dev.tributary.rules.eval.ValueSide;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The syntax tree of a rule condition. Boolean nodes {@link BoolNode#test evaluate} to a mask of
 * possible outcomes ({@link Outcomes}); value nodes evaluate to a Java value, {@code null} (SQL
 * NULL) or {@link Unknown#VALUE}. Nodes are immutable and thread-safe, evaluation allocates
 * nothing on the common paths and never throws: type mismatches are SQL NULL.
 * {@link BoolNode#toString()} prints a condition that parses back to an equal tree.
 */
public final class Ast {
    private Ast() {
    }

    /** The variables of Streams' evaluation context; {@code :lcr} appears only in and_condition. */
    public enum Variable {
        DML, DDL, LCR;

        public String sql() {
            return ":" + name().toLowerCase(Locale.ROOT);
        }
    }

    /** The LCR member functions a condition may call. */
    public enum Method {
        GET_OBJECT_OWNER(0, 0, true, true),
        GET_OBJECT_NAME(0, 0, true, true),
        GET_COMMAND_TYPE(0, 0, true, true),
        GET_SOURCE_DATABASE_NAME(0, 0, true, true),
        IS_NULL_TAG(0, 0, true, true),
        GET_TAG(0, 0, true, true),
        GET_VALUE(2, 3, true, false),
        GET_OBJECT_TYPE(0, 0, false, true),
        GET_BASE_TABLE_OWNER(0, 0, false, true),
        GET_BASE_TABLE_NAME(0, 0, false, true);

        final int minArgs;
        final int maxArgs;
        final boolean onDml;
        final boolean onDdl;

        Method(int minArgs, int maxArgs, boolean onDml, boolean onDdl) {
            this.minArgs = minArgs;
            this.maxArgs = maxArgs;
            this.onDml = onDml;
            this.onDdl = onDdl;
        }

        String sql() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Whether {@code variable} has this method ({@code :lcr} has them all). */
        public boolean availableOn(Variable variable) {
            return switch (variable) {
                case DML -> onDml;
                case DDL -> onDdl;
                case LCR -> true;
            };
        }

        static Method byName(String name) {
            for (Method m : values()) {
                if (m.name().equalsIgnoreCase(name)) {
                    return m;
                }
            }
            return null;
        }
    }

    /** The SQL functions a condition may call. */
    public enum Function {
        UPPER(1, 1), LOWER(1, 1), LENGTH(1, 1), SUBSTR(2, 3), NVL(2, 2), TRIM(1, 1), ABS(1, 1),
        HEXTORAW(1, 1), RAWTOHEX(1, 1), TO_CHAR(1, 1), TO_NUMBER(1, 1);

        final int minArgs;
        final int maxArgs;

        Function(int minArgs, int maxArgs) {
            this.minArgs = minArgs;
            this.maxArgs = maxArgs;
        }

        static Function byName(String name) {
            for (Function f : values()) {
                if (f.name().equalsIgnoreCase(name)) {
                    return f;
                }
            }
            return null;
        }
    }

    /** The ANYDATA accessors Oracle conditions call on get_value results; here they return the value as it is. */
    static final List<String> ACCESS_METHODS = List.of("AccessNumber", "AccessVarchar2", "AccessChar", "AccessNChar",
            "AccessNVarchar2", "AccessDate", "AccessTimestamp", "AccessTimestampTZ", "AccessTimestampLTZ", "AccessRaw",
            "AccessBFloat", "AccessBDouble", "AccessClob", "AccessBlob", "AccessIntervalDS", "AccessIntervalYM");

    /** Replaces value nodes, bottom-up: {@code apply} sees each node after its children were rewritten. */
    @FunctionalInterface
    public interface ValueRewriter {
        ValueNode apply(ValueNode node);
    }

    // ---------------------------------------------------------------- value nodes

    /** An expression producing a value. */
    public abstract static class ValueNode {
        /** The value, {@code null} for SQL NULL, or {@link Unknown#VALUE}. */
        public abstract Object value(RuleInput in);

        abstract int precedence();

        abstract void print(StringBuilder sb);

        public abstract ValueNode rewrite(ValueRewriter r);

        /** Visits this node and every value node below it. */
        public void forEach(Consumer<ValueNode> visitor) {
            visitor.accept(this);
        }

        @Override
        public final String toString() {
            StringBuilder sb = new StringBuilder();
            print(sb);
            return sb.toString();
        }
    }

    private static void printValue(StringBuilder sb, ValueNode child, int minPrecedence) {
        if (child.precedence() < minPrecedence) {
            sb.append('(');
            child.print(sb);
            sb.append(')');
        } else {
            child.print(sb);
        }
    }

    private static final int P_ADD = 1;
    private static final int P_MUL = 2;
    private static final int P_UNARY = 3;
    private static final int P_ATOM = 4;

    /** A literal: string, number, NULL, TRUE/FALSE, DATE '...' or TIMESTAMP '...'. */
    public static final class Literal extends ValueNode {
        private final Object value;
        private final String sql;

        public Literal(Object value, String sql) {
            this.value = value;
            this.sql = sql;
        }

        public static Literal ofString(String s) {
            return new Literal(s, RuleNames.literal(s));
        }

        public Object constant() {
            return value;
        }

        @Override
        public Object value(RuleInput in) {
            return value;
        }

        @Override
        int precedence() {
            return P_ATOM;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append(sql);
        }

        @Override
        public ValueNode rewrite(ValueRewriter r) {
            return r.apply(this);
        }
    }

    /** A call of an LCR member function on {@code :dml}, {@code :ddl} or {@code :lcr}. */
    public static final class VariableCall extends ValueNode {
        private final Variable variable;
        private final Method method;
        private final List<ValueNode> args;
        // get_value's arguments are literals, decoded once
        private final ValueSide side;
        private final String column;
        private final boolean useOld;

        public VariableCall(Variable variable, Method method, List<ValueNode> args) {
            this.variable = variable;
            this.method = method;
            this.args = List.copyOf(args);
            if (method == Method.GET_VALUE) {
                this.side = ValueSide.valueOf(((String) ((Literal) args.get(0)).constant()).strip().toUpperCase(Locale.ROOT));
                this.column = RuleNames.columnFromReference((String) ((Literal) args.get(1)).constant());
                this.useOld = args.size() < 3 || ((String) ((Literal) args.get(2)).constant()).strip().equalsIgnoreCase("Y");
            } else {
                this.side = null;
                this.column = null;
                this.useOld = false;
            }
        }

        /** {@code get_value(side, column)} of the given CQL column, with use_old = 'Y'. */
        public static VariableCall getValue(Variable variable, ValueSide side, String cqlColumn) {
            return new VariableCall(variable, Method.GET_VALUE,
                    List.of(Literal.ofString(side.name()), Literal.ofString(RuleNames.columnReference(cqlColumn))));
        }

        public Variable variable() {
            return variable;
        }

        public Method method() {
            return method;
        }

        public List<ValueNode> args() {
            return args;
        }

        /** For get_value: the CQL column read. */
        public String column() {
            return column;
        }

        /** For get_value: the image read. */
        public ValueSide side() {
            return side;
        }

        /** The same call on another variable. */
        public VariableCall on(Variable other) {
            return new VariableCall(other, method, args);
        }

        @Override
        public Object value(RuleInput in) {
            boolean ddl = in.isDdl();
            // a row LCR leaves :ddl NULL and a DDL LCR leaves :dml NULL; a member call on NULL is NULL
            if ((variable == Variable.DML && ddl) || (variable == Variable.DDL && !ddl)) {
                return null;
            }
            switch (method) {
                case GET_OBJECT_OWNER:
                    return in.objectOwner();
                case GET_OBJECT_NAME:
                    return in.objectName();
                case GET_COMMAND_TYPE:
                    return in.commandType();
                case GET_SOURCE_DATABASE_NAME:
                    return in.sourceDatabaseName();
                case IS_NULL_TAG:
                    return in.isNullTag() ? "Y" : "N";
                case GET_TAG:
                    return in.tag();
                case GET_OBJECT_TYPE:
                    return !ddl ? null : in.isPartial() ? Unknown.VALUE : in.objectType();
                case GET_BASE_TABLE_OWNER:
                    return !ddl ? null : in.isPartial() ? Unknown.VALUE : in.baseTableOwner();
                case GET_BASE_TABLE_NAME:
                    return !ddl ? null : in.isPartial() ? Unknown.VALUE : in.baseTableName();
                case GET_VALUE:
                    return ddl ? null : columnValue(in, side, column, useOld);
                default:
                    throw new AssertionError(method);
            }
        }

        @Override
        int precedence() {
            return P_ATOM;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append(variable.sql()).append('.').append(method.sql()).append('(');
            for (int i = 0; i < args.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                args.get(i).print(sb);
            }
            sb.append(')');
        }

        @Override
        public ValueNode rewrite(ValueRewriter r) {
            return r.apply(this);
        }
    }

    /**
     * A column's value as get_value reads it: the image asked for; for NEW with use_old, the old
     * value when the new image lacks the column (an UPDATE carries only changed columns);
     * {@link Unknown#VALUE} when the column is absent or the input is partial.
     */
    static Object columnValue(RuleInput in, ValueSide side, String column, boolean useOld) {
        if (in.isPartial()) {
            return Unknown.VALUE;
        }
        ColumnLookup lookup = in.value(side, column);
        if (!lookup.present() && side == ValueSide.NEW && useOld) {
            lookup = in.value(ValueSide.OLD, column);
        }
        return lookup.present() ? lookup.value() : Unknown.VALUE;
    }

    /** A plain column name in a subset rule's dml_condition; reads the NEW image with use_old. */
    public static final class ColumnRef extends ValueNode {
        private final String column;

        public ColumnRef(String cqlColumn) {
            this.column = cqlColumn;
        }

        public String column() {
            return column;
        }

        @Override
        public Object value(RuleInput in) {
            return in.isDdl() ? null : columnValue(in, ValueSide.NEW, column, true);
        }

        @Override
        int precedence() {
            return P_ATOM;
        }

        @Override
        void print(StringBuilder sb) {
            String ref = RuleNames.columnReference(column);
            sb.append(ref.startsWith("\"") ? ref : column);
        }

        @Override
        public ValueNode rewrite(ValueRewriter r) {
            return r.apply(this);
        }
    }

    /** {@code expr.AccessNumber()} and the other ANYDATA accessors: the value unchanged. */
    public static final class Access extends ValueNode {
        private final ValueNode target;
        private final String accessor;

        public Access(ValueNode target, String accessor) {
            this.target = target;
            this.accessor = accessor;
        }

        @Override
        public Object value(RuleInput in) {
            return target.value(in);
        }

        @Override
        int precedence() {
            return P_ATOM;
        }

        @Override
        void print(StringBuilder sb) {
            target.print(sb);
            sb.append('.').append(accessor).append("()");
        }

        @Override
        public ValueNode rewrite(ValueRewriter r) {
            return r.apply(new Access(target.rewrite(r), accessor));
        }

        @Override
        public void forEach(Consumer<ValueNode> visitor) {
            visitor.accept(this);
            target.forEach(visitor);
        }
    }

    /** A SQL function call. */
    public static final class FunctionCall extends ValueNode {
        private final Function function;
        private final List<ValueNode> args;

        public FunctionCall(Function function, List<ValueNode> args) {
            this.function = function;
            this.args = List.copyOf(args);
        }

        @Override
        public Object value(RuleInput in) {
            Object a = args.get(0).value(in);
            if (function == Function.NVL) {
                if (a == Unknown.VALUE) {
                    return Unknown.VALUE;
                }
                return a != null ? a : args.get(1).value(in);
            }
            if (a == Unknown.VALUE) {
                return Unknown.VALUE;
            }
            Object b = args.size() > 1 ? args.get(1).value(in) : null;
            Object c = args.size() > 2 ? args.get(2).value(in) : null;
            if (b == Unknown.VALUE || c == Unknown.VALUE) {
                return Unknown.VALUE;
            }
            if (a == null) {
                return null;
            }
            switch (function) {
                case UPPER:
                    return ValueOps.toText(a).toUpperCase(Locale.ROOT);
                case LOWER:
                    return ValueOps.toText(a).toLowerCase(Locale.ROOT);
                case LENGTH:
                    return (long) ValueOps.toText(a).length();
                case TRIM:
                    return trimBlanks(ValueOps.toText(a));
                case TO_CHAR:
                    return ValueOps.toText(a);
                case TO_NUMBER:
                    return ValueOps.toNumber(a);
                case ABS:
                    return abs(ValueOps.toNumber(a));
                case HEXTORAW:
                    if (a instanceof byte[]) {
                        return a;
                    }
                    try {
                        return ValueOps.parseHex(ValueOps.toText(a));
                    } catch (IllegalArgumentException e) {
                        return null;
                    }
                case RAWTOHEX:
                    return ValueOps.toText(a).toUpperCase(Locale.ROOT);
                case SUBSTR:
                    return substr(ValueOps.toText(a), ValueOps.toNumber(b), args.size() > 2 ? ValueOps.toNumber(c) : null,
                            args.size() > 2);
                default:
                    throw new AssertionError(function);
            }
        }

        private static String trimBlanks(String s) {
            int start = 0;
            int end = s.length();
            while (start < end && s.charAt(start) == ' ') {
                start++;
            }
            while (end > start && s.charAt(end - 1) == ' ') {
                end--;
            }
            return s.substring(start, end);
        }

        private static Object abs(Number n) {
            if (n == null) {
                return null;
            }
            if (n instanceof Double || n instanceof Float) {
                return Math.abs(n.doubleValue());
            }
            if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
                long v = n.longValue();
                return v == Long.MIN_VALUE ? BigInteger.valueOf(v).negate() : Math.abs(v);
            }
            if (n instanceof BigInteger bi) {
                return bi.abs();
            }
            return ValueOps.toBigDecimal(n).abs();
        }

        // Oracle's SUBSTR: position 0 counts as 1, a negative position counts from the end
        private static String substr(String s, Number position, Number length, boolean hasLength) {
            if (position == null || (hasLength && length == null)) {
                return null;
            }
            int pos = position.intValue();
            int start = pos > 0 ? pos - 1 : pos == 0 ? 0 : s.length() + pos;
            if (start < 0 || start >= s.length()) {
                return null;
            }
            int end = s.length();
            if (hasLength) {
                long len = length.longValue();
                if (len < 1) {
                    return null;
                }
                end = (int) Math.min(s.length(), start + len);
            }
            return s.substring(start, end);
        }

        @Override
        int precedence() {
            return P_ATOM;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append(function.name()).append('(');
            for (int i = 0; i < args.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                args.get(i).print(sb);
            }
            sb.append(')');
        }

        @Override
        public ValueNode rewrite(ValueRewriter r) {
            List<ValueNode> rewritten = new ArrayList<>(args.size());
            for (ValueNode a : args) {
                rewritten.add(a.rewrite(r));
            }
            return r.apply(new FunctionCall(function, rewritten));
        }

        @Override
        public void forEach(Consumer<ValueNode> visitor) {
            visitor.accept(this);
            for (ValueNode a : args) {
                a.forEach(visitor);
            }
        }
    }

    /** {@code a + b}, {@code a - b}, {@code a * b}, {@code a / b} or {@code a || b}. */
    public static final class Binary extends ValueNode {
        private final char op; // '|' stands for ||
        private final ValueNode left;
        private final ValueNode right;

        public Binary(char op, ValueNode left, ValueNode right) {
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        public Object value(RuleInput in) {
            Object a = left.value(in);
            Object b = right.value(in);
            if (a == Unknown.VALUE || b == Unknown.VALUE) {
                return Unknown.VALUE;
            }
            if (op == '|') {
                // Oracle's concatenation treats NULL as the empty string
                return (a == null ? "" : ValueOps.toText(a)) + (b == null ? "" : ValueOps.toText(b));
            }
            if (a == null || b == null) {
                return null;
            }
            return ValueOps.arithmetic(op, a, b);
        }

        @Override
        int precedence() {
            return op == '*' || op == '/' ? P_MUL : P_ADD;
        }

        @Override
        void print(StringBuilder sb) {
            int p = precedence();
            printValue(sb, left, p);
            sb.append(' ').append(op == '|' ? "||" : String.valueOf(op)).append(' ');
            printValue(sb, right, p + 1);
        }

        @Override
        public ValueNode rewrite(ValueRewriter r) {
            return r.apply(new Binary(op, left.rewrite(r), right.rewrite(r)));
        }

        @Override
        public void forEach(Consumer<ValueNode> visitor) {
            visitor.accept(this);
            left.forEach(visitor);
            right.forEach(visitor);
        }
    }

    /** Unary minus. */
    public static final class Negate extends ValueNode {
        private final ValueNode operand;

        public Negate(ValueNode operand) {
            this.operand = operand;
        }

        @Override
        public Object value(RuleInput in) {
            Object a = operand.value(in);
            if (a == Unknown.VALUE || a == null) {
                return a;
            }
            return ValueOps.arithmetic('-', 0L, a);
        }

        @Override
        int precedence() {
            return P_UNARY;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append('-');
            printValue(sb, operand, P_ATOM);
        }

        @Override
        public ValueNode rewrite(ValueRewriter r) {
            return r.apply(new Negate(operand.rewrite(r)));
        }

        @Override
        public void forEach(Consumer<ValueNode> visitor) {
            visitor.accept(this);
            operand.forEach(visitor);
        }
    }

    // ---------------------------------------------------------------- boolean nodes

    private static final int B_OR = 1;
    private static final int B_AND = 2;
    private static final int B_NOT = 3;
    private static final int B_ATOM = 4;

    /** A boolean condition. */
    public abstract static class BoolNode {
        /** The set of possible outcomes as an {@link Outcomes} mask. */
        public abstract int test(RuleInput in);

        abstract int precedence();

        abstract void print(StringBuilder sb);

        public abstract BoolNode rewrite(ValueRewriter r);

        /** Visits every value node in this condition. */
        public abstract void forEachValue(Consumer<ValueNode> visitor);

        @Override
        public final String toString() {
            StringBuilder sb = new StringBuilder();
            print(sb);
            return sb.toString();
        }
    }

    private static void printBool(StringBuilder sb, BoolNode child, int minPrecedence) {
        if (child.precedence() < minPrecedence) {
            sb.append('(');
            child.print(sb);
            sb.append(')');
        } else {
            child.print(sb);
        }
    }

    /** Conjunction of two or more conditions. */
    public static final class And extends BoolNode {
        private final BoolNode[] operands;

        public And(List<BoolNode> operands) {
            this.operands = operands.toArray(new BoolNode[0]);
        }

        public List<BoolNode> operands() {
            return List.of(operands);
        }

        @Override
        public int test(RuleInput in) {
            int result = Outcomes.T;
            for (BoolNode operand : operands) {
                result = Outcomes.and(result, operand.test(in));
                if (result == Outcomes.F) {
                    return result;
                }
            }
            return result;
        }

        @Override
        int precedence() {
            return B_AND;
        }

        @Override
        void print(StringBuilder sb) {
            for (int i = 0; i < operands.length; i++) {
                if (i > 0) {
                    sb.append(" and ");
                }
                printBool(sb, operands[i], B_AND);
            }
        }

        @Override
        public BoolNode rewrite(ValueRewriter r) {
            List<BoolNode> out = new ArrayList<>(operands.length);
            for (BoolNode b : operands) {
                out.add(b.rewrite(r));
            }
            return new And(out);
        }

        @Override
        public void forEachValue(Consumer<ValueNode> visitor) {
            for (BoolNode b : operands) {
                b.forEachValue(visitor);
            }
        }
    }

    /** Disjunction of two or more conditions. */
    public static final class Or extends BoolNode {
        private final BoolNode[] operands;

        public Or(List<BoolNode> operands) {
            this.operands = operands.toArray(new BoolNode[0]);
        }

        public List<BoolNode> operands() {
            return List.of(operands);
        }

        @Override
        public int test(RuleInput in) {
            int result = Outcomes.F;
            for (BoolNode operand : operands) {
                result = Outcomes.or(result, operand.test(in));
                if (result == Outcomes.T) {
                    return result;
                }
            }
            return result;
        }

        @Override
        int precedence() {
            return B_OR;
        }

        @Override
        void print(StringBuilder sb) {
            for (int i = 0; i < operands.length; i++) {
                if (i > 0) {
                    sb.append(" or ");
                }
                printBool(sb, operands[i], B_OR);
            }
        }

        @Override
        public BoolNode rewrite(ValueRewriter r) {
            List<BoolNode> out = new ArrayList<>(operands.length);
            for (BoolNode b : operands) {
                out.add(b.rewrite(r));
            }
            return new Or(out);
        }

        @Override
        public void forEachValue(Consumer<ValueNode> visitor) {
            for (BoolNode b : operands) {
                b.forEachValue(visitor);
            }
        }
    }

    /** Negation. */
    public static final class Not extends BoolNode {
        private final BoolNode operand;

        public Not(BoolNode operand) {
            this.operand = operand;
        }

        @Override
        public int test(RuleInput in) {
            return Outcomes.not(operand.test(in));
        }

        @Override
        int precedence() {
            return B_NOT;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append("not (");
            operand.print(sb);
            sb.append(')');
        }

        @Override
        public BoolNode rewrite(ValueRewriter r) {
            return new Not(operand.rewrite(r));
        }

        @Override
        public void forEachValue(Consumer<ValueNode> visitor) {
            operand.forEachValue(visitor);
        }
    }

    /** The SQL-standard boolean test {@code (condition) IS [NOT] TRUE|FALSE|UNKNOWN}; never NULL. */
    public static final class BoolTest extends BoolNode {
        /** What is tested for. */
        public enum Kind { TRUE, FALSE, UNKNOWN }

        private final BoolNode operand;
        private final Kind kind;
        private final boolean negated;

        public BoolTest(BoolNode operand, Kind kind, boolean negated) {
            this.operand = operand;
            this.kind = kind;
            this.negated = negated;
        }

        @Override
        public int test(RuleInput in) {
            int m = operand.test(in);
            int wanted = switch (kind) {
                case TRUE -> Outcomes.T;
                case FALSE -> Outcomes.F;
                case UNKNOWN -> Outcomes.N;
            };
            int result = 0;
            if ((m & wanted) != 0) {
                result |= negated ? Outcomes.F : Outcomes.T;
            }
            if ((m & ~wanted) != 0) {
                result |= negated ? Outcomes.T : Outcomes.F;
            }
            return result;
        }

        @Override
        int precedence() {
            return B_ATOM;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append('(');
            operand.print(sb);
            sb.append(") is ").append(negated ? "not " : "").append(kind.name().toLowerCase(Locale.ROOT));
        }

        @Override
        public BoolNode rewrite(ValueRewriter r) {
            return new BoolTest(operand.rewrite(r), kind, negated);
        }

        @Override
        public void forEachValue(Consumer<ValueNode> visitor) {
            operand.forEachValue(visitor);
        }
    }

    /** The comparison operators. */
    public enum CompOp {
        EQ("="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">=");

        final String sql;

        CompOp(String sql) {
            this.sql = sql;
        }

        boolean holds(int c) {
            return switch (this) {
                case EQ -> c == 0;
                case NE -> c != 0;
                case LT -> c < 0;
                case LE -> c <= 0;
                case GT -> c > 0;
                case GE -> c >= 0;
            };
        }
    }

    /** The outcome of comparing two evaluated values. */
    static int compareValues(CompOp op, Object a, Object b) {
        if (a == null || b == null) {
            return Outcomes.N;
        }
        if (a == Unknown.VALUE || b == Unknown.VALUE) {
            return Outcomes.ANY;
        }
        if (op == CompOp.EQ || op == CompOp.NE) {
            int eq = ValueOps.sqlEquals(a, b);
            if (eq < 0) {
                return Outcomes.N;
            }
            return Outcomes.of((eq == 1) == (op == CompOp.EQ));
        }
        int c = ValueOps.compare(a, b);
        return c == ValueOps.INCOMPARABLE ? Outcomes.N : Outcomes.of(op.holds(c));
    }

    /** {@code left op right}. */
    public static final class Comparison extends BoolNode {
        private final CompOp op;
        private final ValueNode left;
        private final ValueNode right;

        public Comparison(CompOp op, ValueNode left, ValueNode right) {
            this.op = op;
            this.left = left;
            this.right = right;
        }

        public CompOp op() {
            return op;
        }

        public ValueNode left() {
            return left;
        }

        public ValueNode right() {
            return right;
        }

        @Override
        public int test(RuleInput in) {
            return compareValues(op, left.value(in), right.value(in));
        }

        @Override
        int precedence() {
            return B_ATOM;
        }

        @Override
        void print(StringBuilder sb) {
            left.print(sb);
            sb.append(' ').append(op.sql).append(' ');
            right.print(sb);
        }

        @Override
        public BoolNode rewrite(ValueRewriter r) {
            return new Comparison(op, left.rewrite(r), right.rewrite(r));
        }

        @Override
        public void forEachValue(Consumer<ValueNode> visitor) {
            left.forEach(visitor);
            right.forEach(visitor);
        }
    }

    /** {@code expr [NOT] IN (a, b, ...)}. */
    public static final class InList extends BoolNode {
        private final ValueNode operand;
        private final ValueNode[] items;
        private final boolean negated;

        public InList(ValueNode operand, List<ValueNode> items, boolean negated) {
            this.operand = operand;
            this.items = items.toArray(new ValueNode[0]);
            this.negated = negated;
        }

        public ValueNode operand() {
            return operand;
        }

        public List<ValueNode> items() {
            return List.of(items);
        }

        public boolean negated() {
            return negated;
        }

        @Override
        public int test(RuleInput in) {
            Object a = operand.value(in);
            int result = Outcomes.F;
            for (ValueNode item : items) {
                result = Outcomes.or(result, compareValues(CompOp.EQ, a, item.value(in)));
                if (result == Outcomes.T) {
                    break;
                }
            }
            return negated ? Outcomes.not(result) : result;
        }

        @Override
        int precedence() {
            return B_ATOM;
        }

        @Override
        void print(StringBuilder sb) {
            operand.print(sb);
            sb.append(negated ? " not in (" : " in (");
            for (int i = 0; i < items.length; i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                items[i].print(sb);
            }
            sb.append(')');
        }

        @Override
        public BoolNode rewrite(ValueRewriter r) {
            List<ValueNode> out = new ArrayList<>(items.length);
            for (ValueNode v : items) {
                out.add(v.rewrite(r));
            }
            return new InList(operand.rewrite(r), out, negated);
        }

        @Override
        public void forEachValue(Consumer<ValueNode> visitor) {
            operand.forEach(visitor);
            for (ValueNode v : items) {
                v.forEach(visitor);
            }
        }
    }

    /** {@code expr [NOT] BETWEEN low AND high}. */
    public static final class Between extends BoolNode {
        private final ValueNode operand;
        private final ValueNode low;
        private final ValueNode high;
        private final boolean negated;

        public Between(ValueNode operand, ValueNode low, ValueNode high, boolean negated) {
            this.operand = operand;
            this.low = low;
            this.high = high;
            this.negated = negated;
        }

        @Override
        public int test(RuleInput in) {
            Object a = operand.value(in);
            int result = Outcomes.and(compareValues(CompOp.GE, a, low.value(in)), compareValues(CompOp.LE, a, high.value(in)));
            return negated ? Outcomes.not(result) : result;
        }

        @Override
        int precedence() {
            return B_ATOM;
        }

        @Override
        void print(StringBuilder sb) {
            operand.print(sb);
            sb.append(negated ? " not between " : " between ");
            low.print(sb);
            sb.append(" and ");
            high.print(sb);
        }

        @Override
        public BoolNode rewrite(ValueRewriter r) {
            return new Between(operand.rewrite(r), low.rewrite(r), high.rewrite(r), negated);
        }

        @Override
        public void forEachValue(Consumer<ValueNode> visitor) {
            operand.forEach(visitor);
            low.forEach(visitor);
            high.forEach(visitor);
        }
    }

    /** {@code expr [NOT] LIKE pattern [ESCAPE esc]}; a literal pattern is compiled once. */
    public static final class Like extends BoolNode {
        private final ValueNode operand;
        private final ValueNode pattern;
        private final ValueNode escape;
        private final boolean negated;
        private final LikePattern compiled;

        public Like(ValueNode operand, ValueNode pattern, ValueNode escape, boolean negated) {
            this.operand = operand;
            this.pattern = pattern;
            this.escape = escape;
            this.negated = negated;
            this.compiled = precompile(pattern, escape);
        }

        private static LikePattern precompile(ValueNode pattern, ValueNode escape) {
            if (pattern instanceof Literal p && p.constant() instanceof String ps
                    && (escape == null || (escape instanceof Literal e && e.constant() instanceof String))) {
                return LikePattern.compile(ps, escape == null ? null : (String) ((Literal) escape).constant());
            }
            return null;
        }

        @Override
        public int test(RuleInput in) {
            Object a = operand.value(in);
            int result = likeOutcome(in, a);
            return negated ? Outcomes.not(result) : result;
        }

        private int likeOutcome(RuleInput in, Object a) {
            if (a == null) {
                return Outcomes.N;
            }
            LikePattern p = compiled;
            if (p == null) {
                Object pv = pattern.value(in);
                Object ev = escape == null ? null : escape.value(in);
                if (pv == null || (escape != null && ev == null)) {
                    return Outcomes.N;
                }
                if (a == Unknown.VALUE || pv == Unknown.VALUE || ev == Unknown.VALUE) {
                    return Outcomes.ANY;
                }
                try {
                    p = LikePattern.compile(ValueOps.toText(pv), ev == null ? null : ValueOps.toText(ev));
                } catch (IllegalArgumentException badPattern) {
                    return Outcomes.N;
                }
            }
            if (a == Unknown.VALUE) {
                return Outcomes.ANY;
            }
            return Outcomes.of(p.matches(ValueOps.toText(a)));
        }

        @Override
        int precedence() {
            return B_ATOM;
        }

        @Override
        void print(StringBuilder sb) {
            operand.print(sb);
            sb.append(negated ? " not like " : " like ");
            pattern.print(sb);
            if (escape != null) {
                sb.append(" escape ");
                escape.print(sb);
            }
        }

        @Override
        public BoolNode rewrite(ValueRewriter r) {
            return new Like(operand.rewrite(r), pattern.rewrite(r), escape == null ? null : escape.rewrite(r), negated);
        }

        @Override
        public void forEachValue(Consumer<ValueNode> visitor) {
            operand.forEach(visitor);
            pattern.forEach(visitor);
            if (escape != null) {
                escape.forEach(visitor);
            }
        }
    }

    /** {@code expr IS [NOT] NULL}. */
    public static final class IsNull extends BoolNode {
        private final ValueNode operand;
        private final boolean negated;

        public IsNull(ValueNode operand, boolean negated) {
            this.operand = operand;
            this.negated = negated;
        }

        @Override
        public int test(RuleInput in) {
            Object a = operand.value(in);
            if (a == Unknown.VALUE) {
                return Outcomes.T | Outcomes.F;
            }
            return Outcomes.of((a == null) != negated);
        }

        @Override
        int precedence() {
            return B_ATOM;
        }

        @Override
        void print(StringBuilder sb) {
            operand.print(sb);
            sb.append(negated ? " is not null" : " is null");
        }

        @Override
        public BoolNode rewrite(ValueRewriter r) {
            return new IsNull(operand.rewrite(r), negated);
        }

        @Override
        public void forEachValue(Consumer<ValueNode> visitor) {
            operand.forEach(visitor);
        }
    }

    /** A number literal's value: Long when integral and in range, else BigInteger or BigDecimal. */
    static Object numberValue(String text) {
        if (text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException tooBig) {
                return new BigInteger(text);
            }
        }
        return new BigDecimal(text);
    }
}
