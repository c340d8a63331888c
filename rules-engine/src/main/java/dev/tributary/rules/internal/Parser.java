package dev.tributary.rules.internal;

import dev.tributary.rules.eval.RuleNames;
import dev.tributary.rules.errors.ConditionSyntaxException;
import dev.tributary.rules.internal.Ast.BoolNode;
import dev.tributary.rules.internal.Ast.ValueNode;
import dev.tributary.rules.internal.Lexer.Token;
import dev.tributary.rules.internal.Lexer.Type;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A recursive-descent parser for rule conditions in Oracle's form.
 *
 * <pre>
 * condition  := or
 * or         := and { OR and }
 * and        := not { AND not }
 * not        := NOT not | test
 * test       := primary [ IS [NOT] (TRUE | FALSE | UNKNOWN) ]
 * primary    := '(' condition ')' | predicate
 * predicate  := expr ( compare-op expr
 *                    | [NOT] IN '(' expr { ',' expr } ')'
 *                    | [NOT] BETWEEN expr AND expr
 *                    | [NOT] LIKE expr [ ESCAPE expr ]
 *                    | IS [NOT] NULL )
 * expr       := term { ('+' | '-' | '||') term }
 * term       := unary { ('*' | '/') unary }
 * unary      := ('-' | '+') unary | postfix
 * postfix    := atom { '.' AccessXxx '(' ')' }
 * atom       := string | number | NULL | TRUE | FALSE | DATE string | TIMESTAMP string
 *             | ':' variable '.' method '(' [ expr { ',' expr } ] ')'
 *             | function '(' expr { ',' expr } ')'
 *             | column                       (dml_condition only)
 *             | '(' expr ')'
 * </pre>
 *
 * A parenthesis at the start of a predicate may open a condition or an expression; the parser
 * tries the condition first and backtracks when an operator follows the closing parenthesis.
 * Keywords, variables, methods and functions are case-insensitive. Errors carry the 1-based
 * position of the offending token.
 */
public final class Parser {

    /** What a condition may refer to. */
    public enum Mode {
        /** A rule condition: {@code :dml} and {@code :ddl}, no plain columns. */
        RULE,
        /** A subset rule's dml_condition: plain column names only. */
        DML_CONDITION,
        /** An and_condition of dbms_streams_adm: {@code :lcr} (and {@code :dml}/{@code :ddl}). */
        AND_CONDITION
    }

    private static final Set<String> RESERVED = Set.of("AND", "OR", "NOT", "IN", "BETWEEN", "LIKE", "ESCAPE", "IS",
            "NULL", "TRUE", "FALSE");

    private final String text;
    private final List<Token> tokens;
    private final Mode mode;
    private int pos;

    private Parser(String text, Mode mode) {
        this.text = text;
        this.mode = mode;
        this.tokens = Lexer.tokenize(text);
    }

    /** Parses a whole condition. */
    public static BoolNode parse(String text, Mode mode) {
        Parser p = new Parser(text, mode);
        if (p.peek().type() == Type.EOF) {
            throw p.error(p.peek(), "empty condition");
        }
        BoolNode node = p.parseOr();
        if (p.peek().type() != Type.EOF) {
            throw p.error(p.peek(), "expected AND, OR or the end of the condition");
        }
        return node;
    }

    // ------------------------------------------------------------------ boolean level

    private BoolNode parseOr() {
        BoolNode first = parseAnd();
        if (!peek().isKeyword("OR")) {
            return first;
        }
        List<BoolNode> operands = new ArrayList<>();
        operands.add(first);
        while (acceptKeyword("OR")) {
            operands.add(parseAnd());
        }
        return new Ast.Or(operands);
    }

    private BoolNode parseAnd() {
        BoolNode first = parseNot();
        if (!peek().isKeyword("AND")) {
            return first;
        }
        List<BoolNode> operands = new ArrayList<>();
        operands.add(first);
        while (acceptKeyword("AND")) {
            operands.add(parseNot());
        }
        return new Ast.And(operands);
    }

    private BoolNode parseNot() {
        if (acceptKeyword("NOT")) {
            return new Ast.Not(parseNot());
        }
        return parseTest();
    }

    private BoolNode parseTest() {
        BoolNode node = parsePrimary();
        while (peek().isKeyword("IS") && isTruthKeyword(peekAt(1).isKeyword("NOT") ? 2 : 1)) {
            pos++;
            boolean negated = acceptKeyword("NOT");
            Token kind = next();
            node = new Ast.BoolTest(node, Ast.BoolTest.Kind.valueOf(kind.text().toUpperCase(Locale.ROOT)), negated);
        }
        return node;
    }

    private boolean isTruthKeyword(int offset) {
        Token t = offset == 0 ? peek() : peekAt(offset);
        return t.isKeyword("TRUE") || t.isKeyword("FALSE") || t.isKeyword("UNKNOWN");
    }

    private BoolNode parsePrimary() {
        if (peek().type() != Type.LPAREN) {
            return parsePredicate();
        }
        int save = pos;
        ConditionSyntaxException asCondition;
        try {
            pos++;
            BoolNode inner = parseOr();
            expect(Type.RPAREN, "expected ')'");
            if (!continuesAsExpression()) {
                return inner;
            }
            asCondition = null;
        } catch (ConditionSyntaxException e) {
            asCondition = e;
        }
        pos = save;
        try {
            return parsePredicate();
        } catch (ConditionSyntaxException asExpression) {
            // report whichever reading got further into the text
            if (asCondition != null && asCondition.position() > asExpression.position()) {
                throw asCondition;
            }
            throw asExpression;
        }
    }

    /** After a parenthesised condition: does an operator follow that makes it an expression instead? */
    private boolean continuesAsExpression() {
        Token t = peek();
        switch (t.type()) {
            case EQ: case NE: case LT: case LE: case GT: case GE:
            case PLUS: case MINUS: case STAR: case SLASH: case CONCAT: case DOT:
                return true;
            default:
                break;
        }
        if (t.isKeyword("IN") || t.isKeyword("BETWEEN") || t.isKeyword("LIKE")) {
            return true;
        }
        if (t.isKeyword("NOT")) {
            Token n = peekAt(1);
            return n.isKeyword("IN") || n.isKeyword("BETWEEN") || n.isKeyword("LIKE");
        }
        if (t.isKeyword("IS")) {
            Token n = peekAt(1).isKeyword("NOT") ? peekAt(2) : peekAt(1);
            return n.isKeyword("NULL");
        }
        return false;
    }

    private BoolNode parsePredicate() {
        ValueNode left = parseExpr();
        Token t = peek();
        Ast.CompOp op = switch (t.type()) {
            case EQ -> Ast.CompOp.EQ;
            case NE -> Ast.CompOp.NE;
            case LT -> Ast.CompOp.LT;
            case LE -> Ast.CompOp.LE;
            case GT -> Ast.CompOp.GT;
            case GE -> Ast.CompOp.GE;
            default -> null;
        };
        if (op != null) {
            pos++;
            return new Ast.Comparison(op, left, parseExpr());
        }
        if (t.isKeyword("IS")) {
            pos++;
            boolean negated = acceptKeyword("NOT");
            if (!acceptKeyword("NULL")) {
                throw error(peek(), isTruthKeyword(0)
                        ? "IS TRUE, IS FALSE and IS UNKNOWN apply to a parenthesized condition, not to a value"
                        : "expected NULL after IS");
            }
            return new Ast.IsNull(left, negated);
        }
        boolean negated = false;
        if (t.isKeyword("NOT")) {
            pos++;
            negated = true;
            t = peek();
        }
        if (acceptKeyword("IN")) {
            expect(Type.LPAREN, "expected '(' after IN");
            List<ValueNode> items = new ArrayList<>();
            items.add(parseExpr());
            while (accept(Type.COMMA)) {
                items.add(parseExpr());
            }
            expect(Type.RPAREN, "expected ',' or ')' in the IN list");
            return new Ast.InList(left, items, negated);
        }
        if (acceptKeyword("BETWEEN")) {
            ValueNode low = parseExpr();
            if (!acceptKeyword("AND")) {
                throw error(peek(), "expected AND in BETWEEN");
            }
            ValueNode high = parseExpr();
            return new Ast.Between(left, low, high, negated);
        }
        if (t.isKeyword("LIKE")) {
            Token likeToken = next();
            ValueNode pattern = parseExpr();
            ValueNode escape = null;
            if (acceptKeyword("ESCAPE")) {
                escape = parseExpr();
            }
            try {
                return new Ast.Like(left, pattern, escape, negated);
            } catch (IllegalArgumentException badPattern) {
                throw error(likeToken, badPattern.getMessage());
            }
        }
        if (negated) {
            throw error(peek(), "expected IN, BETWEEN or LIKE after NOT");
        }
        throw error(peek(), "expected a comparison operator, IN, BETWEEN, LIKE or IS [NOT] NULL");
    }

    // ------------------------------------------------------------------ value level

    private ValueNode parseExpr() {
        ValueNode left = parseTerm();
        while (true) {
            Type t = peek().type();
            char op = t == Type.PLUS ? '+' : t == Type.MINUS ? '-' : t == Type.CONCAT ? '|' : 0;
            if (op == 0) {
                return left;
            }
            pos++;
            left = new Ast.Binary(op, left, parseTerm());
        }
    }

    private ValueNode parseTerm() {
        ValueNode left = parseUnary();
        while (true) {
            Type t = peek().type();
            char op = t == Type.STAR ? '*' : t == Type.SLASH ? '/' : 0;
            if (op == 0) {
                return left;
            }
            pos++;
            left = new Ast.Binary(op, left, parseUnary());
        }
    }

    private ValueNode parseUnary() {
        if (accept(Type.MINUS)) {
            return new Ast.Negate(parseUnary());
        }
        if (accept(Type.PLUS)) {
            return parseUnary();
        }
        return parsePostfix();
    }

    private ValueNode parsePostfix() {
        Token start = peek();
        ValueNode node = parseAtom();
        while (peek().type() == Type.DOT) {
            Token dot = next();
            Token name = peek();
            String accessor = name.type() == Type.IDENT ? canonicalAccessor(name.text()) : null;
            if (accessor == null) {
                throw error(name, "expected an ANYDATA accessor such as AccessNumber after '.'");
            }
            boolean onColumn = node instanceof Ast.ColumnRef
                    || (node instanceof Ast.VariableCall vc && vc.method() == Ast.Method.GET_VALUE)
                    || node instanceof Ast.Access;
            if (!onColumn) {
                throw error(dot, accessor + "() applies to a get_value result, not to "
                        + text.substring(start.start(), dot.start()).strip());
            }
            pos++;
            expect(Type.LPAREN, "expected '(' after " + accessor);
            expect(Type.RPAREN, accessor + "() takes no arguments");
            node = new Ast.Access(node, accessor);
        }
        return node;
    }

    private static String canonicalAccessor(String name) {
        for (String a : Ast.ACCESS_METHODS) {
            if (a.equalsIgnoreCase(name)) {
                return a;
            }
        }
        return null;
    }

    private ValueNode parseAtom() {
        Token t = peek();
        switch (t.type()) {
            case STRING:
                pos++;
                return new Ast.Literal(t.value(), RuleNames.literal(t.value()));
            case NUMBER:
                pos++;
                return new Ast.Literal(Ast.numberValue(t.text()), t.text());
            case BIND:
                return parseVariableCall();
            case LPAREN: {
                pos++;
                ValueNode inner = parseExpr();
                expect(Type.RPAREN, "expected ')'");
                return inner;
            }
            case QUOTED_IDENT:
                pos++;
                return columnRef(t, t.value());
            case IDENT:
                return parseWord();
            case EOF:
                throw error(t, "expected an expression");
            default:
                throw error(t, "expected an expression");
        }
    }

    private ValueNode parseWord() {
        Token t = next();
        String upper = t.text().toUpperCase(Locale.ROOT);
        switch (upper) {
            case "NULL":
                return new Ast.Literal(null, "NULL");
            case "TRUE":
                return new Ast.Literal(Boolean.TRUE, "TRUE");
            case "FALSE":
                return new Ast.Literal(Boolean.FALSE, "FALSE");
            default:
                break;
        }
        if ((upper.equals("DATE") || upper.equals("TIMESTAMP")) && peek().type() == Type.STRING) {
            Token s = next();
            try {
                Object v = upper.equals("DATE") ? LocalDate.parse(s.value().strip()) : ValueOps.parseTimestamp(s.value());
                return new Ast.Literal(v, upper + " " + RuleNames.literal(s.value()));
            } catch (DateTimeParseException e) {
                throw error(s, "not a valid " + upper + " literal");
            }
        }
        if (peek().type() == Type.LPAREN) {
            Ast.Function f = Ast.Function.byName(t.text());
            if (f == null) {
                throw error(t, "unknown function " + t.text());
            }
            pos++;
            List<ValueNode> args = parseArguments();
            if (args.size() < f.minArgs || args.size() > f.maxArgs) {
                throw error(t, f.name() + " takes " + arity(f.minArgs, f.maxArgs) + ", not " + args.size());
            }
            return new Ast.FunctionCall(f, args);
        }
        if (RESERVED.contains(upper)) {
            throw error(t, "expected an expression");
        }
        return columnRef(t, t.text().toLowerCase(Locale.ROOT));
    }

    private ValueNode columnRef(Token t, String cqlName) {
        if (mode != Mode.DML_CONDITION) {
            throw error(t, "column name " + t.text() + " is allowed only in a subset rule's dml_condition;"
                    + " use :dml.get_value('NEW', '" + t.value() + "')");
        }
        return new Ast.ColumnRef(cqlName);
    }

    private ValueNode parseVariableCall() {
        Token var = next();
        Ast.Variable variable;
        switch (var.value().toUpperCase(Locale.ROOT)) {
            case "DML" -> variable = Ast.Variable.DML;
            case "DDL" -> variable = Ast.Variable.DDL;
            case "LCR" -> variable = Ast.Variable.LCR;
            default -> throw error(var, "unknown variable " + var.text() + "; the variables are :dml and :ddl");
        }
        if (mode == Mode.DML_CONDITION) {
            throw error(var, "a dml_condition names columns directly; variables such as " + var.text() + " are not allowed");
        }
        if (variable == Ast.Variable.LCR && mode != Mode.AND_CONDITION) {
            throw error(var, ":lcr is allowed only in an and_condition");
        }
        expect(Type.DOT, "expected '.' and a method after " + var.text());
        Token name = peek();
        if (name.type() != Type.IDENT) {
            throw error(name, "expected a method name after " + var.text() + ".");
        }
        pos++;
        Ast.Method method = Ast.Method.byName(name.text());
        if (method == null) {
            throw error(name, "unknown method " + name.text() + " of " + var.text());
        }
        if (!method.availableOn(variable)) {
            throw error(name, method.sql() + " is not a method of " + var.text());
        }
        expect(Type.LPAREN, "expected '(' after " + name.text());
        List<ValueNode> args = accept(Type.RPAREN) ? List.of() : parseArgumentsAfterOpen();
        if (args.size() < method.minArgs || args.size() > method.maxArgs) {
            throw error(name, method.sql() + " takes " + arity(method.minArgs, method.maxArgs) + ", not " + args.size());
        }
        if (method == Ast.Method.GET_VALUE) {
            checkGetValueArguments(name, args);
        }
        return new Ast.VariableCall(variable, method, args);
    }

    private void checkGetValueArguments(Token name, List<ValueNode> args) {
        for (int i = 0; i < args.size(); i++) {
            if (!(args.get(i) instanceof Ast.Literal l) || !(l.constant() instanceof String)) {
                throw error(name, "get_value takes string literals: get_value('NEW'|'OLD', 'column' [, 'Y'|'N'])");
            }
        }
        String side = ((String) ((Ast.Literal) args.get(0)).constant()).strip().toUpperCase(Locale.ROOT);
        if (!side.equals("NEW") && !side.equals("OLD")) {
            throw error(name, "get_value's first argument must be 'NEW' or 'OLD', not '" + side + "'");
        }
        String column = ((String) ((Ast.Literal) args.get(1)).constant()).strip();
        if (column.isEmpty() || column.equals("\"\"")) {
            throw error(name, "get_value needs a column name");
        }
        if (args.size() == 3) {
            String useOld = ((String) ((Ast.Literal) args.get(2)).constant()).strip().toUpperCase(Locale.ROOT);
            if (!useOld.equals("Y") && !useOld.equals("N")) {
                throw error(name, "get_value's use_old argument must be 'Y' or 'N'");
            }
        }
    }

    /** After '(' of a function: arguments up to and including ')'. */
    private List<ValueNode> parseArguments() {
        if (peek().type() == Type.RPAREN) {
            throw error(peek(), "expected an argument");
        }
        return parseArgumentsAfterOpen();
    }

    private List<ValueNode> parseArgumentsAfterOpen() {
        List<ValueNode> args = new ArrayList<>();
        args.add(parseExpr());
        while (accept(Type.COMMA)) {
            args.add(parseExpr());
        }
        expect(Type.RPAREN, "expected ',' or ')' in the argument list");
        return args;
    }

    private static String arity(int min, int max) {
        String n = min == max ? String.valueOf(min) : min + " or " + max;
        return n + (max == 1 ? " argument" : " arguments");
    }

    // ------------------------------------------------------------------ token helpers

    private Token peek() {
        return tokens.get(pos);
    }

    private Token peekAt(int offset) {
        return tokens.get(Math.min(pos + offset, tokens.size() - 1));
    }

    private Token next() {
        return tokens.get(pos++);
    }

    private boolean accept(Type type) {
        if (peek().type() == type) {
            pos++;
            return true;
        }
        return false;
    }

    private boolean acceptKeyword(String keyword) {
        if (peek().isKeyword(keyword)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(Type type, String detail) {
        if (!accept(type)) {
            throw error(peek(), detail);
        }
    }

    private ConditionSyntaxException error(Token at, String detail) {
        String near = at.type() == Type.EOF ? null : at.text();
        return new ConditionSyntaxException(text, at.start() + 1, near, detail);
    }
}
