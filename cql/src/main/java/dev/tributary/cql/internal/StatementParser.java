package dev.tributary.cql.internal;

import dev.tributary.cql.lexer.CqlLexer;
import dev.tributary.cql.lexer.DurationLiterals;
import dev.tributary.cql.lexer.Identifiers;
import dev.tributary.cql.ast.ParsedStatement;
import dev.tributary.cql.lexer.Token;
import dev.tributary.cql.lexer.TokenKind;
import dev.tributary.cql.ast.AddColumns;
import dev.tributary.cql.ast.AddToColumn;
import dev.tributary.cql.ast.AlterAction;
import dev.tributary.cql.ast.AlterTable;
import dev.tributary.cql.ast.Argument;
import dev.tributary.cql.ast.Assignment;
import dev.tributary.cql.ast.Batch;
import dev.tributary.cql.ast.BatchKind;
import dev.tributary.cql.ast.BindMarker;
import dev.tributary.cql.ast.BlobLit;
import dev.tributary.cql.ast.BooleanLit;
import dev.tributary.cql.ast.Call;
import dev.tributary.cql.ast.ColumnLhs;
import dev.tributary.cql.ast.ColumnSelector;
import dev.tributary.cql.ast.ColumnSpec;
import dev.tributary.cql.ast.CreateKeyspace;
import dev.tributary.cql.ast.CreateTable;
import dev.tributary.cql.ast.CreateType;
import dev.tributary.cql.ast.DecimalLit;
import dev.tributary.cql.ast.Delete;
import dev.tributary.cql.ast.DropColumns;
import dev.tributary.cql.ast.DropKeyspace;
import dev.tributary.cql.ast.DropTable;
import dev.tributary.cql.ast.DropType;
import dev.tributary.cql.ast.DurationLit;
import dev.tributary.cql.ast.FieldSpec;
import dev.tributary.cql.ast.FloatSpecial;
import dev.tributary.cql.ast.FunctionCall;
import dev.tributary.cql.ast.FunctionSelector;
import dev.tributary.cql.ast.Insert;
import dev.tributary.cql.ast.IntegerLit;
import dev.tributary.cql.ast.Lhs;
import dev.tributary.cql.ast.ListLit;
import dev.tributary.cql.ast.MapLit;
import dev.tributary.cql.ast.ModificationStatement;
import dev.tributary.cql.ast.NullLit;
import dev.tributary.cql.ast.Operator;
import dev.tributary.cql.ast.Order;
import dev.tributary.cql.ast.Ordering;
import dev.tributary.cql.ast.PrependToColumn;
import dev.tributary.cql.ast.QualifiedName;
import dev.tributary.cql.ast.Relation;
import dev.tributary.cql.ast.RoleStatement;
import dev.tributary.cql.ast.RoleStatement.Permission;
import dev.tributary.cql.ast.RoleStatement.Resource;
import dev.tributary.cql.ast.RoleStatement.RoleOptions;
import dev.tributary.cql.ast.Select;
import dev.tributary.cql.ast.Selection;
import dev.tributary.cql.ast.Selector;
import dev.tributary.cql.ast.SetColumn;
import dev.tributary.cql.ast.SetElement;
import dev.tributary.cql.ast.SetLit;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.StringLit;
import dev.tributary.cql.ast.AlterSystem;
import dev.tributary.cql.ast.CreateDatabaseLink;
import dev.tributary.cql.ast.DropDatabaseLink;
import dev.tributary.cql.ast.SubtractFromColumn;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.TokenLhs;
import dev.tributary.cql.ast.Truncate;
import dev.tributary.cql.ast.Update;
import dev.tributary.cql.ast.TupleLhs;
import dev.tributary.cql.ast.TupleLit;
import dev.tributary.cql.ast.UdtLit;
import dev.tributary.cql.ast.UuidLit;
import dev.tributary.cql.ast.Use;
import dev.tributary.cql.ast.Using;
import dev.tributary.cql.ast.WithProperties;
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlSyntaxException;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlDuration;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The recursive-descent parser behind {@code CqlParser}: one method per grammar rule, reading
 * tokens from a {@link CqlLexer} on demand.
 *
 * <p>Error messages name what would have been accepted where parsing stopped. Every check of the
 * current token that fails adds its alternative to {@link #expected}; consuming a token clears it.
 * So at an error the set holds exactly the alternatives tried at that position (optional clauses
 * that were skipped included), which is what the message lists. A few optional checks are silent
 * ({@link #peekWord}) where listing them would only add noise.
 *
 * <p>Secrets: while a role statement or a {@code CREATE DATABASE LINK} is parsed ({@link #sensitive}),
 * a syntax error shows the offending token as {@code '***'} when it is a string literal or quoted
 * name, when it is where a password goes (from the {@code =} or {@code IDENTIFIED BY} on), when a
 * string came before it (an undoubled quote in a password splits it into other tokens), and for
 * an unfinished string or name. Invalid-request messages name options and roles, never values.
 * So a password is in no message.
 *
 * <p>Not thread-safe; one instance parses one text.
 */
public final class StatementParser {
    /** Deeper nesting of terms, selectors or types is refused rather than risking a stack overflow. */
    static final int MAX_DEPTH = 64;
    /** Cassandra's limit for a TTL: 20 years in seconds. */
    static final long MAX_TTL_SECONDS = 630_720_000L;

    private final String source;
    private final CqlLexer lexer;
    private final List<Token> lookahead = new ArrayList<>();
    private final Set<String> expected = new LinkedHashSet<>();
    private Token last;
    private int bindIndex;
    private int depth;
    /**
     * Set while parsing a statement that may hold a secret: errors then hide string literals and
     * quoted names (either may have swallowed a password when quotes are unbalanced).
     */
    private boolean sensitive;
    /** Set while the next token is where a password goes: errors then hide it whatever it is. */
    private boolean secretNext;
    /**
     * Set once the statement has consumed a string literal or quoted name: in a sensitive
     * statement, a quote inside a password (not doubled) ends it early and the rest reads as other
     * tokens, so errors then hide every token but punctuation.
     */
    private boolean stringSeen;

    public StatementParser(String source) {
        this.source = source;
        this.lexer = new CqlLexer(source);
    }

    /** Exactly one statement, with an optional trailing semicolon. */
    public Statement parseSingle() {
        Statement st = statement();
        accept(TokenKind.SEMICOLON);
        expect(TokenKind.EOF);
        return st;
    }

    /** True when another statement follows (skipping empty statements, i.e. stray semicolons). */
    public boolean hasNextStatement() {
        while (peek().kind() == TokenKind.SEMICOLON) {
            advance();
        }
        return peek().kind() != TokenKind.EOF;
    }

    /** The next statement of a script, which must end with a semicolon or the end of the input. */
    public ParsedStatement nextStatement() {
        Token first = peek();
        bindIndex = 0;
        Statement st = statement();
        String text = source.substring(first.offset(), last.end());
        if (!accept(TokenKind.SEMICOLON)) {
            expect(TokenKind.EOF);
        }
        sensitive = false;
        return new ParsedStatement(st, text, first.line());
    }

    // ---------------------------------------------------------------- statements

    private Statement statement() {
        sensitive = false;
        stringSeen = false;
        if (atWord("select")) {
            return select();
        }
        if (atWord("insert")) {
            return insert();
        }
        if (atWord("update")) {
            return update();
        }
        if (atWord("delete")) {
            return delete();
        }
        if (atWord("begin")) {
            return batch();
        }
        if (atWord("create")) {
            return create();
        }
        if (atWord("drop")) {
            return drop();
        }
        if (atWord("alter")) {
            return alter();
        }
        if (atWord("truncate")) {
            return truncate();
        }
        if (atWord("use")) {
            advance();
            return new Use(identifier());
        }
        if (atWord("call")) {
            return call();
        }
        if (atWord("grant")) {
            return grantOrRevoke(true);
        }
        if (atWord("revoke")) {
            return grantOrRevoke(false);
        }
        if (atWord("list")) {
            return list();
        }
        throw dispatchError();
    }

    /**
     * At a point that decides which statement this is, what follows is unknown: it may be a
     * mangled role statement, so a string literal there is not shown.
     */
    private CqlSyntaxException dispatchError() {
        sensitive = true;
        return error();
    }

    private Select select() {
        expectWord("select");
        boolean distinct = false;
        if (peekWord(0, "distinct") && !peekWord(1, "from") && !peekWord(1, "as")
                && peek(1).kind() != TokenKind.COMMA) {
            advance();
            distinct = true;
        }
        List<Selector> selectors = new ArrayList<>();
        if (!accept(TokenKind.STAR)) {
            do {
                selectors.add(aliasedSelector());
            } while (acceptSilently(TokenKind.COMMA));
        }
        expectWord("from");
        QualifiedName from = qualifiedName();
        List<Relation> where = List.of();
        if (acceptWord("where")) {
            where = whereClause();
        }
        List<Ordering> orderBy = new ArrayList<>();
        if (atWord("order", "ORDER BY")) {
            advance();
            expectWord("by");
            do {
                String column = identifier();
                orderBy.add(new Ordering(column, optionalOrder()));
            } while (accept(TokenKind.COMMA));
        }
        Term limit = null;
        if (acceptWord("limit")) {
            limit = limitValue();
        }
        boolean allowFiltering = false;
        if (atWord("allow", "ALLOW FILTERING")) {
            advance();
            expectWord("filtering");
            allowFiltering = true;
        }
        return new Select(distinct, selectors, from, where, orderBy, limit, allowFiltering);
    }

    private Term limitValue() {
        if (at(TokenKind.QMARK)) {
            advance();
            return new BindMarker(bindIndex++);
        }
        boolean negative = accept(TokenKind.MINUS);
        Token t = expect(TokenKind.INTEGER);
        BigInteger v = new BigInteger(t.text());
        if (negative || v.signum() == 0) {
            throw new CqlInvalidException("LIMIT must be strictly positive, but was " + (negative ? "-" : "") + v);
        }
        return new IntegerLit(v);
    }

    private Selector aliasedSelector() {
        Selector s = selector();
        if (peekWord(0, "as")) {
            advance();
            String alias = identifier();
            if (s instanceof ColumnSelector c) {
                return new ColumnSelector(c.name(), alias);
            }
            FunctionSelector f = (FunctionSelector) s;
            return new FunctionSelector(f.function(), f.args(), alias);
        }
        return s;
    }

    private Selector selector() {
        enter();
        try {
            Token t = peek();
            boolean name = t.kind() == TokenKind.IDENT || t.kind() == TokenKind.QUOTED_IDENT;
            if (t.isWord("token") && peek(1).kind() == TokenKind.LPAREN) {
                advance();
                return new FunctionSelector("token", selectorArgs(), null);
            }
            if (name && peek(1).kind() == TokenKind.LPAREN) {
                String fn = advance().text();
                if (t.kind() == TokenKind.IDENT && (fn.equals("writetime") || fn.equals("ttl"))) {
                    expect(TokenKind.LPAREN);
                    String column = identifier();
                    expect(TokenKind.RPAREN);
                    return new FunctionSelector(fn, List.of(ColumnSelector.of(column)), null);
                }
                if (t.kind() == TokenKind.IDENT && fn.equals("count") && countsRows()) {
                    return new FunctionSelector("count", List.of(), null);
                }
                return new FunctionSelector(fn, selectorArgs(), null);
            }
            if (name && peek(1).kind() == TokenKind.DOT && isName(peek(2)) && peek(3).kind() == TokenKind.LPAREN) {
                String keyspace = advance().text();
                advance();
                String fn = advance().text();
                String qualified = keyspace.equals("system") ? fn : keyspace + "." + fn;
                return new FunctionSelector(qualified, selectorArgs(), null);
            }
            if (name) {
                return ColumnSelector.of(advance().text());
            }
            expected.add(TokenKind.IDENT.description());
            throw error();
        } finally {
            depth--;
        }
    }

    /** After {@code count}: consumes {@code (*)} or {@code (1)} if present. */
    private boolean countsRows() {
        Token inside = peek(1);
        boolean star = inside.kind() == TokenKind.STAR;
        boolean one = inside.kind() == TokenKind.INTEGER && inside.text().equals("1");
        if ((star || one) && peek(2).kind() == TokenKind.RPAREN) {
            advance();
            advance();
            advance();
            return true;
        }
        return false;
    }

    private List<Selector> selectorArgs() {
        expect(TokenKind.LPAREN);
        List<Selector> args = new ArrayList<>();
        if (accept(TokenKind.RPAREN)) {
            return args;
        }
        do {
            args.add(selector());
        } while (accept(TokenKind.COMMA));
        expect(TokenKind.RPAREN);
        return args;
    }

    private Insert insert() {
        expectWord("insert");
        expectWord("into");
        QualifiedName table = qualifiedName();
        expect(TokenKind.LPAREN);
        List<String> columns = identifierList();
        expect(TokenKind.RPAREN);
        expectWord("values");
        expect(TokenKind.LPAREN);
        List<Term> values = new ArrayList<>();
        do {
            values.add(term());
        } while (accept(TokenKind.COMMA));
        expect(TokenKind.RPAREN);
        boolean ifNotExists = false;
        Using using = Using.NONE;
        boolean sawIf = false;
        boolean sawUsing = false;
        while (true) {
            if (!sawIf && atWord("if", "IF NOT EXISTS")) {
                advance();
                expectWord("not");
                expectWord("exists");
                ifNotExists = true;
                sawIf = true;
            } else if (!sawUsing && atWord("using")) {
                using = usingClause(using);
                sawUsing = true;
            } else {
                break;
            }
        }
        String what = "INSERT INTO " + table.cql();
        if (columns.size() != values.size()) {
            throw new CqlInvalidException("Unmatched column names/values in " + what + ": "
                    + columns.size() + " columns but " + values.size() + " values");
        }
        StatementChecks.distinct(columns, "column", what);
        return new Insert(table, columns, values, ifNotExists, using);
    }

    private Update update() {
        expectWord("update");
        QualifiedName table = qualifiedName();
        Using using = Using.NONE;
        if (atWord("using")) {
            using = usingClause(using);
        }
        expectWord("set");
        List<Assignment> assignments = new ArrayList<>();
        do {
            assignments.add(assignment());
        } while (accept(TokenKind.COMMA));
        expectWord("where");
        List<Relation> where = whereClause();
        boolean ifExists = optionalIfExists();
        StatementChecks.assignments(assignments, "UPDATE " + table.cql());
        return new Update(table, using, assignments, where, ifExists);
    }

    private Assignment assignment() {
        String column = identifier();
        if (accept(TokenKind.LBRACKET)) {
            Term key = term();
            expect(TokenKind.RBRACKET);
            expect(TokenKind.EQ);
            return new SetElement(column, key, term());
        }
        if (peek().kind() == TokenKind.PLUS && peek(1).kind() == TokenKind.EQ) {
            advance();
            advance();
            return new AddToColumn(column, term());
        }
        if (peek().kind() == TokenKind.MINUS && peek(1).kind() == TokenKind.EQ) {
            advance();
            advance();
            return new SubtractFromColumn(column, term());
        }
        expect(TokenKind.EQ);
        Token t = peek();
        boolean columnRef = isName(t) && peek(1).kind() != TokenKind.LPAREN && peek(1).kind() != TokenKind.DOT;
        if (columnRef) {
            String other = advance().text();
            boolean plus = at(TokenKind.PLUS);
            if (!plus && !at(TokenKind.MINUS)) {
                throw error();
            }
            advance();
            requireSameColumn(column, other, plus ? "X = X + <value>" : "X = X - <value>");
            Term value = term();
            return plus ? new AddToColumn(column, value) : new SubtractFromColumn(column, value);
        }
        Term value = term();
        if (peek().kind() == TokenKind.PLUS) {
            advance();
            String other = identifier();
            requireSameColumn(column, other, "X = <value> + X");
            return new PrependToColumn(column, value);
        }
        return new SetColumn(column, value);
    }

    private static void requireSameColumn(String column, String other, String form) {
        if (!column.equals(other)) {
            throw new CqlInvalidException("Only expressions of the form " + form + " are supported, but the assignment to "
                    + Identifiers.quoteIfNeeded(column) + " reads " + Identifiers.quoteIfNeeded(other));
        }
    }

    private Delete delete() {
        expectWord("delete");
        List<Selection> columns = new ArrayList<>();
        if (!peekWord(0, "from")) {
            do {
                String column = identifier();
                Term element = null;
                if (accept(TokenKind.LBRACKET)) {
                    element = term();
                    expect(TokenKind.RBRACKET);
                }
                columns.add(new Selection(column, element));
            } while (accept(TokenKind.COMMA));
        }
        expectWord("from");
        QualifiedName table = qualifiedName();
        Using using = Using.NONE;
        if (atWord("using")) {
            using = usingClause(using);
            if (using.ttl() != null) {
                throw new CqlInvalidException("DELETE FROM " + table.cql() + " cannot have USING TTL");
            }
        }
        expectWord("where");
        List<Relation> where = whereClause();
        boolean ifExists = optionalIfExists();
        return new Delete(table, columns, using, where, ifExists);
    }

    private Batch batch() {
        expectWord("begin");
        BatchKind kind = BatchKind.LOGGED;
        if (acceptWord("unlogged")) {
            kind = BatchKind.UNLOGGED;
        } else if (acceptWord("counter")) {
            kind = BatchKind.COUNTER;
        } else if (acceptWord("logged")) {
            kind = BatchKind.LOGGED;
        }
        expectWord("batch");
        Using using = Using.NONE;
        if (atWord("using")) {
            using = usingClause(using);
        }
        List<ModificationStatement> statements = new ArrayList<>();
        while (true) {
            ModificationStatement st;
            if (atWord("insert")) {
                st = insert();
            } else if (atWord("update")) {
                st = update();
            } else if (atWord("delete")) {
                st = delete();
            } else if (atWord("apply", "APPLY BATCH")) {
                advance();
                expectWord("batch");
                break;
            } else {
                throw error();
            }
            statements.add(st);
            accept(TokenKind.SEMICOLON);
        }
        StatementChecks.batch(using, statements);
        return new Batch(kind, using, statements);
    }

    private Using usingClause(Using start) {
        Term timestamp = start.timestamp();
        Term ttl = start.ttl();
        do {
            expectWord("using");
            do {
                if (atWord("timestamp")) {
                    advance();
                    if (timestamp != null) {
                        throw new CqlInvalidException("USING TIMESTAMP given twice");
                    }
                    timestamp = usingValue("TIMESTAMP");
                } else if (atWord("ttl")) {
                    advance();
                    if (ttl != null) {
                        throw new CqlInvalidException("USING TTL given twice");
                    }
                    ttl = usingValue("TTL");
                } else {
                    throw error();
                }
            } while (acceptWord("and"));
        } while (peekWord(0, "using"));
        return new Using(timestamp, ttl);
    }

    private Term usingValue(String what) {
        if (at(TokenKind.QMARK)) {
            advance();
            return new BindMarker(bindIndex++);
        }
        boolean negative = accept(TokenKind.MINUS);
        BigInteger v = new BigInteger(expect(TokenKind.INTEGER).text());
        if (negative) {
            v = v.negate();
        }
        if (what.equals("TTL")) {
            if (v.signum() < 0) {
                throw new CqlInvalidException("A TTL must be greater or equal to 0, but was " + v);
            }
            if (v.compareTo(BigInteger.valueOf(MAX_TTL_SECONDS)) > 0) {
                throw new CqlInvalidException("ttl is too large. requested (" + v + ") maximum (" + MAX_TTL_SECONDS + ")");
            }
        } else if (v.bitLength() > 63) {
            throw new CqlInvalidException("USING TIMESTAMP " + v + " does not fit a 64-bit number of microseconds");
        }
        return new IntegerLit(v);
    }

    private boolean optionalIfExists() {
        if (atWord("if", "IF EXISTS")) {
            advance();
            expectWord("exists", "EXISTS");
            return true;
        }
        return false;
    }

    private boolean optionalIfNotExists() {
        if (atWord("if", "IF NOT EXISTS")) {
            advance();
            expectWord("not");
            expectWord("exists");
            return true;
        }
        return false;
    }

    private Statement create() {
        expectWord("create");
        if (acceptWord("keyspace")) {
            boolean ifNotExists = optionalIfNotExists();
            String name = identifier();
            expectWord("with");
            return new CreateKeyspace(ifNotExists, name, properties("CREATE KEYSPACE " + Identifiers.quoteIfNeeded(name)));
        }
        if (acceptWord("table") || acceptWord("columnfamily")) {
            return createTable();
        }
        if (acceptWord("database")) {
            sensitive = true;
            expectWord("link");
            String name = identifier();
            String user = null;
            String password = null;
            if (atWord("connect", "CONNECT TO")) {
                advance();
                expectWord("to");
                user = identifier();
                password = secret(() -> {
                    expectWord("identified", "IDENTIFIED BY");
                    expectWord("by");
                });
            }
            expectWord("using");
            String target = stringLiteral("the link's target in quotes ('HOST:PORT' or 'jdbc:...')");
            return new CreateDatabaseLink(name, target, user, password);
        }
        if (acceptWord("type")) {
            boolean ifNotExists = optionalIfNotExists();
            QualifiedName name = qualifiedName();
            expect(TokenKind.LPAREN);
            List<FieldSpec> fields = new ArrayList<>();
            do {
                String field = identifier();
                fields.add(new FieldSpec(field, type()));
            } while (accept(TokenKind.COMMA));
            expect(TokenKind.RPAREN);
            StatementChecks.distinct(fields.stream().map(FieldSpec::name).toList(), "field", "CREATE TYPE " + name.cql());
            return new CreateType(ifNotExists, name, fields);
        }
        if (acceptWord("role")) {
            sensitive = true;
            boolean ifNotExists = optionalIfNotExists();
            String name = roleName();
            RoleOptions options = RoleOptions.NONE;
            if (acceptWord("with")) {
                options = roleOptions("CREATE ROLE " + Identifiers.quoteIfNeeded(name));
            }
            return new RoleStatement.CreateRole(ifNotExists, name, options);
        }
        throw dispatchError();
    }

    private CreateTable createTable() {
        boolean ifNotExists = optionalIfNotExists();
        QualifiedName name = qualifiedName();
        String what = "CREATE TABLE " + name.cql();
        expect(TokenKind.LPAREN);
        List<ColumnSpec> columns = new ArrayList<>();
        List<List<String>> keys = new ArrayList<>();
        List<List<String>> partitions = new ArrayList<>();
        do {
            if (atWord("primary", "PRIMARY KEY")) {
                advance();
                expectWord("key");
                expect(TokenKind.LPAREN);
                List<String> partition;
                if (accept(TokenKind.LPAREN)) {
                    partition = identifierList();
                    expect(TokenKind.RPAREN);
                } else {
                    partition = List.of(identifier());
                }
                List<String> clustering = new ArrayList<>();
                while (accept(TokenKind.COMMA)) {
                    clustering.add(identifier());
                }
                expect(TokenKind.RPAREN);
                partitions.add(partition);
                keys.add(clustering);
            } else {
                String column = identifier();
                String typeText = type();
                boolean isStatic = acceptWord("static");
                if (atWord("primary", "PRIMARY KEY")) {
                    advance();
                    expectWord("key");
                    partitions.add(List.of(column));
                    keys.add(List.of());
                }
                columns.add(new ColumnSpec(column, typeText, isStatic));
            }
        } while (accept(TokenKind.COMMA));
        expect(TokenKind.RPAREN);
        Map<String, Order> givenOrder = null;
        Map<String, Term> properties = new LinkedHashMap<>();
        if (acceptWord("with")) {
            do {
                if (atWord("clustering", "CLUSTERING ORDER BY")) {
                    advance();
                    expectWord("order");
                    expectWord("by");
                    if (givenOrder != null) {
                        throw new CqlInvalidException("CLUSTERING ORDER BY given twice in " + what);
                    }
                    givenOrder = clusteringOrder(what);
                } else if (peekWord(0, "compact")) {
                    Token t = peek();
                    throw new CqlSyntaxException(t.line(), t.column(), t.display(), "a table property",
                            "COMPACT STORAGE is not supported");
                } else {
                    property(properties, what);
                }
            } while (acceptWord("and"));
        }
        return StatementChecks.createTable(ifNotExists, name, columns, partitions, keys,
                givenOrder == null ? Map.of() : givenOrder, properties);
    }

    private Map<String, Order> clusteringOrder(String what) {
        expect(TokenKind.LPAREN);
        Map<String, Order> order = new LinkedHashMap<>();
        do {
            String column = identifier();
            Order o = optionalOrder();
            if (order.put(column, o) != null) {
                throw new CqlInvalidException("Column " + Identifiers.quoteIfNeeded(column)
                        + " appears twice in the CLUSTERING ORDER of " + what);
            }
        } while (accept(TokenKind.COMMA));
        expect(TokenKind.RPAREN);
        return order;
    }

    private Order optionalOrder() {
        if (acceptWord("asc")) {
            return Order.ASC;
        }
        if (acceptWord("desc")) {
            return Order.DESC;
        }
        return Order.ASC;
    }

    private Map<String, Term> properties(String what) {
        Map<String, Term> properties = new LinkedHashMap<>();
        do {
            property(properties, what);
        } while (acceptWord("and"));
        return properties;
    }

    private void property(Map<String, Term> properties, String what) {
        String name = identifier();
        expect(TokenKind.EQ);
        Term value = term();
        if (properties.put(name, value) != null) {
            throw new CqlInvalidException("Multiple definitions for property " + name + " in " + what);
        }
    }

    private Statement drop() {
        expectWord("drop");
        if (acceptWord("keyspace")) {
            boolean ifExists = optionalIfExists();
            return new DropKeyspace(ifExists, identifier());
        }
        if (acceptWord("table") || acceptWord("columnfamily")) {
            boolean ifExists = optionalIfExists();
            return new DropTable(ifExists, qualifiedName());
        }
        if (acceptWord("type")) {
            boolean ifExists = optionalIfExists();
            return new DropType(ifExists, qualifiedName());
        }
        if (acceptWord("database")) {
            expectWord("link");
            boolean ifExists = optionalIfExists();
            return new DropDatabaseLink(ifExists, identifier());
        }
        if (acceptWord("role")) {
            sensitive = true;
            boolean ifExists = optionalIfExists();
            return new RoleStatement.DropRole(ifExists, roleName());
        }
        throw dispatchError();
    }

    private String stringLiteral(String description) {
        Token t = peek();
        if (t.kind() != TokenKind.STRING) {
            expected.add(description);
            throw error();
        }
        advance();
        return t.text();
    }

    private Statement alter() {
        expectWord("alter");
        if (acceptWord("system")) {
            if (acceptWord("switch")) {
                expectWord("logfile");
                return new AlterSystem.SwitchLogfile();
            }
            if (acceptWord("archive")) {
                expectWord("log");
                expectWord("current");
                return new AlterSystem.ArchiveLogCurrent();
            }
            expectWord("set");
            String parameter = identifier();
            expect(TokenKind.EQ);
            if (peek().kind() == TokenKind.INTEGER) {
                return new AlterSystem.Set(parameter, advance().text()); // Oracle writes numeric parameters bare
            }
            return new AlterSystem.Set(parameter, stringLiteral("the parameter's value in quotes or a number"));
        }
        if (acceptWord("role")) {
            sensitive = true;
            String name = roleName();
            expectWord("with");
            return new RoleStatement.AlterRole(name, roleOptions("ALTER ROLE " + Identifiers.quoteIfNeeded(name)));
        }
        if (!acceptWord("table") && !acceptWord("columnfamily")) {
            throw dispatchError();
        }
        QualifiedName name = qualifiedName();
        String what = "ALTER TABLE " + name.cql();
        AlterAction action;
        if (acceptWord("add")) {
            List<ColumnSpec> columns = new ArrayList<>();
            if (accept(TokenKind.LPAREN)) {
                do {
                    columns.add(columnSpec());
                } while (accept(TokenKind.COMMA));
                expect(TokenKind.RPAREN);
            } else {
                columns.add(columnSpec());
            }
            StatementChecks.distinct(columns.stream().map(ColumnSpec::name).toList(), "column", what);
            action = new AddColumns(columns);
        } else if (acceptWord("drop")) {
            List<String> columns;
            if (accept(TokenKind.LPAREN)) {
                columns = identifierList();
                expect(TokenKind.RPAREN);
            } else {
                columns = List.of(identifier());
            }
            StatementChecks.distinct(columns, "column", what);
            action = new DropColumns(columns);
        } else if (acceptWord("with")) {
            action = new WithProperties(properties(what));
        } else {
            throw error();
        }
        return new AlterTable(name, action);
    }

    private ColumnSpec columnSpec() {
        String column = identifier();
        String typeText = type();
        return new ColumnSpec(column, typeText, acceptWord("static"));
    }

    // ---------------------------------------------------------------- roles and permissions

    /** A role's name: a name (lowercased unless double-quoted) or a string literal (as written). */
    private String roleName() {
        Token t = peek();
        if (t.kind() == TokenKind.STRING) {
            advance();
            if (t.text().isEmpty()) {
                throw new CqlInvalidException("A role name can't be an empty string");
            }
            return t.text();
        }
        if (isName(t)) {
            return advance().text();
        }
        expected.add("a role name");
        throw error(reservedHint(t));
    }

    /** {@code opt [AND opt]*}, each of PASSWORD, LOGIN and SUPERUSER at most once. */
    private RoleOptions roleOptions(String what) {
        String password = null;
        Boolean login = null;
        Boolean superuser = null;
        do {
            if (atWord("password")) {
                advance();
                String value = secret(() -> expect(TokenKind.EQ));
                once(password != null, "password", what);
                password = value;
            } else if (atWord("login")) {
                advance();
                expect(TokenKind.EQ);
                boolean value = booleanValue();
                once(login != null, "login", what);
                login = value;
            } else if (atWord("superuser")) {
                advance();
                expect(TokenKind.EQ);
                boolean value = booleanValue();
                once(superuser != null, "superuser", what);
                superuser = value;
            } else {
                throw error();
            }
        } while (acceptWord("and"));
        return new RoleOptions(password, login, superuser);
    }

    private static void once(boolean given, String option, String what) {
        if (given) {
            throw new CqlInvalidException("Multiple definitions for property " + option + " in " + what);
        }
    }

    private boolean booleanValue() {
        Token t = peek();
        if (t.kind() == TokenKind.BOOLEAN) {
            advance();
            return t.text().equals("true");
        }
        expected.add("true or false");
        throw error();
    }

    /**
     * A password, a string literal, after what {@code before} reads (the '=' or BY in front of it).
     * An error from there to the password shows the token as {@code '***'}, whatever it is: a
     * password written without its quotes, or with '=' left out, would otherwise be echoed.
     */
    private String secret(Runnable before) {
        secretNext = true;
        try {
            before.run();
            Token t = peek();
            if (t.kind() != TokenKind.STRING) {
                expected.add("the password in quotes");
                throw error();
            }
            advance();
            return t.text();
        } finally {
            secretNext = false;
        }
    }

    private RoleStatement grantOrRevoke(boolean grant) {
        advance();
        sensitive = true;
        if (!atPermissions() && (isName(peek()) || peek().kind() == TokenKind.STRING) && peekWord(1, grant ? "to" : "from")) {
            // GRANT role TO role / REVOKE role FROM role, as Cassandra's role membership
            String role = roleName();
            expectWord(grant ? "to" : "from");
            String other = roleName();
            return grant ? new RoleStatement.GrantRole(role, other) : new RoleStatement.RevokeRole(role, other);
        }
        Set<Permission> permissions = permissions();
        expectWord("on");
        Resource resource = resource();
        expectWord(grant ? "to" : "from");
        String role = roleName();
        return grant ? new RoleStatement.Grant(permissions, resource, role)
                : new RoleStatement.Revoke(permissions, resource, role);
    }

    /**
     * Whether a permission list starts here. GRANT and REVOKE name a role instead when a name that is
     * no permission is followed by TO / FROM; anything else takes the permission path, whose errors
     * say what was expected.
     */
    private boolean atPermissions() {
        if (atWord("all")) {
            return true;
        }
        for (Permission p : Permission.values()) {
            if (atWord(p.name().toLowerCase(java.util.Locale.ROOT), p.name())) {
                return true;
            }
        }
        return false;
    }

    /** {@code ALL [PERMISSIONS]} or {@code perm [PERMISSION] [, perm [PERMISSION]]*}. */
    private Set<Permission> permissions() {
        if (acceptWord("all")) {
            acceptWord("permissions");
            return EnumSet.allOf(Permission.class);
        }
        Set<Permission> permissions = EnumSet.noneOf(Permission.class);
        do {
            permissions.add(permission());
            acceptWord("permission");
        } while (accept(TokenKind.COMMA));
        return permissions;
    }

    private Permission permission() {
        for (Permission p : Permission.values()) {
            if (atWord(p.name().toLowerCase(java.util.Locale.ROOT), p.name())) {
                advance();
                return p;
            }
        }
        Token t = peek();
        boolean word = t.kind() == TokenKind.IDENT || t.kind() == TokenKind.KEYWORD;
        throw error(word ? t.image().toUpperCase(java.util.Locale.ROOT) + " is not a known permission" : null);
    }

    /** {@code ALL KEYSPACES | KEYSPACE ks | [TABLE] [ks.]t}. */
    private Resource resource() {
        if (atWord("all", "ALL KEYSPACES") && peekWord(1, "keyspaces")) {
            advance();
            advance();
            return Resource.allKeyspaces();
        }
        if (acceptWord("keyspace")) {
            return Resource.keyspace(identifier());
        }
        if (atWord("table")) {
            advance();
            QualifiedName t = qualifiedName();
            return Resource.table(t.keyspace(), t.name());
        }
        if (isName(peek())) {
            QualifiedName t = qualifiedName();
            return Resource.table(t.keyspace(), t.name());
        }
        expected.add("a table name");
        throw error(reservedHint(peek()));
    }

    /** {@code LIST ROLES [OF role]} or {@code LIST perms [ON resource] [OF role]}, each [NORECURSIVE]. */
    private RoleStatement list() {
        expectWord("list");
        sensitive = true;
        if (acceptWord("roles")) {
            String of = acceptWord("of") ? roleName() : null;
            return new RoleStatement.ListRoles(of, !acceptWord("norecursive"));
        }
        Set<Permission> permissions = permissions();
        Resource resource = acceptWord("on") ? resource() : null;
        String of = acceptWord("of") ? roleName() : null;
        return new RoleStatement.ListPermissions(permissions, resource, of, !acceptWord("norecursive"));
    }

    private Truncate truncate() {
        expectWord("truncate");
        acceptWord("table");
        return new Truncate(qualifiedName());
    }

    private Call call() {
        expectWord("call");
        QualifiedName procedure = qualifiedName();
        expect(TokenKind.LPAREN);
        List<Argument> args = new ArrayList<>();
        if (!accept(TokenKind.RPAREN)) {
            do {
                if (isName(peek()) && peek(1).kind() == TokenKind.ARROW) {
                    String name = advance().text();
                    advance();
                    args.add(new Argument(name, term()));
                } else {
                    args.add(new Argument(null, term()));
                }
            } while (accept(TokenKind.COMMA));
            expect(TokenKind.RPAREN);
        }
        StatementChecks.callArguments(procedure, args);
        return new Call(procedure, args);
    }

    // ---------------------------------------------------------------- WHERE

    private List<Relation> whereClause() {
        List<Relation> relations = new ArrayList<>();
        do {
            relations.add(relation());
        } while (acceptWord("and"));
        return relations;
    }

    private Relation relation() {
        Token t = peek();
        if (t.isWord("token") && peek(1).kind() == TokenKind.LPAREN) {
            advance();
            advance();
            List<String> columns = identifierList();
            expect(TokenKind.RPAREN);
            Operator op = comparison(false);
            return new Relation(new TokenLhs(columns), op, term());
        }
        if (t.kind() == TokenKind.LPAREN) {
            advance();
            List<String> columns = identifierList();
            expect(TokenKind.RPAREN);
            Lhs lhs = new TupleLhs(columns);
            Relation r;
            if (peekWord(0, "in")) {
                advance();
                r = new Relation(lhs, Operator.IN, inValues());
            } else {
                r = new Relation(lhs, comparison(true), term());
            }
            StatementChecks.tupleArity(columns, r.rhs());
            return r;
        }
        if (!isName(t)) {
            expected.add("a column, token(...) or '('");
            throw error(reservedHint(t));
        }
        String column = advance().text();
        Lhs lhs = new ColumnLhs(column);
        if (peekWord(0, "in")) {
            advance();
            return new Relation(lhs, Operator.IN, inValues());
        }
        if (peekWord(0, "contains")) {
            advance();
            if (peekWord(0, "key")) {
                advance();
                return new Relation(lhs, Operator.CONTAINS_KEY, term());
            }
            return new Relation(lhs, Operator.CONTAINS, term());
        }
        return new Relation(lhs, comparison(true), term());
    }

    private Operator comparison(boolean inAndContains) {
        Token t = peek();
        Operator op = switch (t.kind()) {
            case EQ -> Operator.EQ;
            case NEQ -> Operator.NEQ;
            case LT -> Operator.LT;
            case LTE -> Operator.LTE;
            case GT -> Operator.GT;
            case GTE -> Operator.GTE;
            default -> null;
        };
        if (op == null) {
            expected.add(inAndContains ? "an operator (=, !=, <, <=, >, >=, IN, CONTAINS)"
                    : "a comparison operator (=, !=, <, <=, >, >=)");
            throw error();
        }
        advance();
        return op;
    }

    private Term inValues() {
        if (at(TokenKind.QMARK)) {
            advance();
            return new BindMarker(bindIndex++);
        }
        expect(TokenKind.LPAREN);
        List<Term> values = new ArrayList<>();
        if (!accept(TokenKind.RPAREN)) {
            do {
                values.add(term());
            } while (accept(TokenKind.COMMA));
            expect(TokenKind.RPAREN);
        }
        return new ListLit(values);
    }

    // ---------------------------------------------------------------- terms

    private Term term() {
        enter();
        try {
            Token t = peek();
            switch (t.kind()) {
                case STRING:
                    advance();
                    return new StringLit(t.text());
                case INTEGER:
                case FLOAT:
                case DURATION:
                    advance();
                    return number(t, false);
                case MINUS: {
                    advance();
                    Token n = peek();
                    if (n.kind() == TokenKind.INTEGER || n.kind() == TokenKind.FLOAT || n.kind() == TokenKind.DURATION) {
                        advance();
                        return number(n, true);
                    }
                    expected.add("a number or duration");
                    throw error();
                }
                case BOOLEAN:
                    advance();
                    return new BooleanLit(t.text().equals("true"));
                case UUID:
                    advance();
                    return new UuidLit(UUID.fromString(t.text()));
                case HEX_BLOB:
                    advance();
                    return new BlobLit(Blob.fromHex(t.text()));
                case QMARK:
                    advance();
                    return new BindMarker(bindIndex++);
                case LBRACKET:
                    return listLiteral();
                case LBRACE:
                    return braceLiteral();
                case LPAREN:
                    return tupleLiteral();
                case KEYWORD:
                    if (t.text().equals("null")) {
                        advance();
                        return NullLit.INSTANCE;
                    }
                    if (t.text().equals("token") && peek(1).kind() == TokenKind.LPAREN) {
                        return functionCall();
                    }
                    break;
                case IDENT:
                case QUOTED_IDENT:
                    if (peek(1).kind() == TokenKind.LPAREN
                            || (peek(1).kind() == TokenKind.DOT && isName(peek(2)) && peek(3).kind() == TokenKind.LPAREN)) {
                        return functionCall();
                    }
                    break;
                default:
                    break;
            }
            expected.add("a value");
            throw error();
        } finally {
            depth--;
        }
    }

    private Term number(Token t, boolean negative) {
        switch (t.kind()) {
            case INTEGER: {
                BigInteger v = new BigInteger(t.text());
                return new IntegerLit(negative ? v.negate() : v);
            }
            case DURATION: {
                CqlDuration d = DurationLiterals.parse(t.image());
                return new DurationLit(negative ? new CqlDuration(-d.months(), -d.days(), -d.nanos()) : d);
            }
            default:
                if (t.text().equals("nan")) {
                    return FloatSpecial.NAN;
                }
                if (t.text().equals("infinity")) {
                    return negative ? FloatSpecial.NEGATIVE_INFINITY : FloatSpecial.INFINITY;
                }
                return new DecimalLit(negative ? "-" + t.text() : t.text());
        }
    }

    private Term listLiteral() {
        expect(TokenKind.LBRACKET);
        List<Term> elements = new ArrayList<>();
        if (!accept(TokenKind.RBRACKET)) {
            do {
                elements.add(term());
            } while (accept(TokenKind.COMMA));
            expect(TokenKind.RBRACKET);
        }
        return new ListLit(elements);
    }

    private Term braceLiteral() {
        expect(TokenKind.LBRACE);
        if (accept(TokenKind.RBRACE)) {
            return MapLit.EMPTY;
        }
        if (isName(peek()) && peek(1).kind() == TokenKind.COLON) {
            Map<String, Term> fields = new LinkedHashMap<>();
            do {
                String field = identifier();
                expect(TokenKind.COLON);
                if (fields.put(field, term()) != null) {
                    throw new CqlInvalidException("Field " + Identifiers.quoteIfNeeded(field)
                            + " appears twice in a user type literal");
                }
            } while (accept(TokenKind.COMMA));
            expect(TokenKind.RBRACE);
            return new UdtLit(fields);
        }
        Term first = term();
        if (accept(TokenKind.COLON)) {
            List<MapLit.Entry> entries = new ArrayList<>();
            entries.add(new MapLit.Entry(first, term()));
            while (accept(TokenKind.COMMA)) {
                Term key = term();
                expect(TokenKind.COLON);
                entries.add(new MapLit.Entry(key, term()));
            }
            expect(TokenKind.RBRACE);
            return new MapLit(entries);
        }
        List<Term> elements = new ArrayList<>();
        elements.add(first);
        while (accept(TokenKind.COMMA)) {
            elements.add(term());
        }
        expect(TokenKind.RBRACE);
        return new SetLit(elements);
    }

    private Term tupleLiteral() {
        expect(TokenKind.LPAREN);
        List<Term> elements = new ArrayList<>();
        do {
            elements.add(term());
        } while (accept(TokenKind.COMMA));
        expect(TokenKind.RPAREN);
        return new TupleLit(elements);
    }

    private Term functionCall() {
        String name = advance().text();
        if (accept(TokenKind.DOT)) {
            String fn = advance().text();
            name = name.equals("system") ? fn : name + "." + fn;
        }
        expect(TokenKind.LPAREN);
        List<Term> args = new ArrayList<>();
        if (!accept(TokenKind.RPAREN)) {
            do {
                args.add(term());
            } while (accept(TokenKind.COMMA));
            expect(TokenKind.RPAREN);
        }
        return new FunctionCall(name, args);
    }

    // ---------------------------------------------------------------- names and types

    /**
     * A type as written, normalized: unquoted names lowercased, quoted ones re-quoted only when
     * needed, parameters separated by ", " ({@code map<text, frozen<list<int>>>}).
     */
    private String type() {
        enter();
        try {
            Token t = peek();
            if (!isName(t) && !t.isWord("set")) {
                expected.add("a type");
                throw error();
            }
            advance();
            StringBuilder sb = new StringBuilder(typeName(t));
            if (peek().kind() == TokenKind.DOT && isName(peek(1))) {
                advance();
                sb.append('.').append(typeName(advance()));
            }
            if (accept(TokenKind.LT)) {
                sb.append('<');
                String sep = "";
                do {
                    sb.append(sep).append(type());
                    sep = ", ";
                } while (accept(TokenKind.COMMA));
                expect(TokenKind.GT);
                sb.append('>');
            }
            return sb.toString();
        } finally {
            depth--;
        }
    }

    private static String typeName(Token t) {
        return t.kind() == TokenKind.QUOTED_IDENT ? Identifiers.quoteIfNeeded(t.text()) : t.text();
    }

    private QualifiedName qualifiedName() {
        String first = identifier();
        // silent: listing '.' after every name in error messages would be noise
        if (acceptSilently(TokenKind.DOT)) {
            // after "keyspace." only a name can follow, so a reserved word there is unambiguous:
            // system_views.apply (docs/REFERENCE.md's name for DBA_APPLY) needs no quotes
            if (peek().kind() == TokenKind.KEYWORD) {
                return new QualifiedName(first, advance().image().toLowerCase(java.util.Locale.ROOT));
            }
            return new QualifiedName(first, identifier());
        }
        return new QualifiedName(null, first);
    }

    private List<String> identifierList() {
        List<String> names = new ArrayList<>();
        do {
            names.add(identifier());
        } while (accept(TokenKind.COMMA));
        return names;
    }

    private String identifier() {
        Token t = peek();
        if (isName(t)) {
            return advance().text();
        }
        expected.add(TokenKind.IDENT.description());
        throw error(reservedHint(t));
    }

    /** For a reserved word where a name was expected, the hint to quote it; otherwise null. */
    private static String reservedHint(Token t) {
        boolean word = t.kind() == TokenKind.KEYWORD || t.kind() == TokenKind.BOOLEAN
                || (t.kind() == TokenKind.FLOAT && Character.isLetter(t.image().charAt(0)));
        return word ? t.image().toUpperCase(java.util.Locale.ROOT) + " is a reserved word; double-quote it to use it as a name"
                : null;
    }

    private static boolean isName(Token t) {
        return t.kind() == TokenKind.IDENT || t.kind() == TokenKind.QUOTED_IDENT;
    }

    // ---------------------------------------------------------------- token plumbing

    private Token peek() {
        return peek(0);
    }

    private Token peek(int k) {
        while (lookahead.size() <= k) {
            try {
                lookahead.add(lexer.next());
            } catch (CqlSyntaxException e) {
                throw hidingSecrets(e);
            }
        }
        return lookahead.get(k);
    }

    private Token advance() {
        Token t = peek();
        if (t.kind() == TokenKind.STRING || t.kind() == TokenKind.QUOTED_IDENT) {
            stringSeen = true;
        }
        if (t.kind() != TokenKind.EOF) {
            lookahead.remove(0);
        }
        last = t;
        expected.clear();
        return t;
    }

    /** Whether the current token is {@code kind}; records it as expected when not. */
    private boolean at(TokenKind kind) {
        if (peek().kind() == kind) {
            return true;
        }
        expected.add(kind.description());
        return false;
    }

    private boolean accept(TokenKind kind) {
        if (at(kind)) {
            advance();
            return true;
        }
        return false;
    }

    private boolean acceptSilently(TokenKind kind) {
        if (peek().kind() == kind) {
            advance();
            return true;
        }
        return false;
    }

    private Token expect(TokenKind kind) {
        if (!at(kind)) {
            throw error();
        }
        return advance();
    }

    private boolean atWord(String word) {
        return atWord(word, word.toUpperCase(java.util.Locale.ROOT));
    }

    /** Whether the current token is the word; records {@code description} as expected when not. */
    private boolean atWord(String word, String description) {
        if (peek().isWord(word)) {
            return true;
        }
        expected.add(description);
        return false;
    }

    private boolean peekWord(int k, String word) {
        return peek(k).isWord(word);
    }

    private boolean acceptWord(String word) {
        if (atWord(word)) {
            advance();
            return true;
        }
        return false;
    }

    private void expectWord(String word) {
        expectWord(word, word.toUpperCase(java.util.Locale.ROOT));
    }

    private void expectWord(String word, String description) {
        if (!atWord(word, description)) {
            throw error();
        }
        advance();
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            Token t = peek();
            throw new CqlSyntaxException(t.line(), t.column(), shown(t),
                    "at most " + MAX_DEPTH + " levels of nesting");
        }
    }

    private CqlSyntaxException error() {
        return error(null);
    }

    private CqlSyntaxException error(String detail) {
        Token t = peek();
        String shown = shown(t);
        // a detail may quote the token (a reserved word's hint): not when the token is hidden
        return new CqlSyntaxException(t.line(), t.column(), shown, describeExpected(),
                shown.equals(HIDDEN) ? null : detail);
    }

    private static final String HIDDEN = "'***'";
    /** Tokens of one fixed character or two: showing them cannot give a secret away. */
    private static final Set<TokenKind> PUNCTUATION = EnumSet.range(TokenKind.QMARK, TokenKind.ARROW);

    /** The token as an error shows it: {@link Token#display()}, unless it may be a secret. */
    private String shown(Token t) {
        if (t.kind() == TokenKind.EOF) {
            return t.display();
        }
        boolean quoted = t.kind() == TokenKind.STRING || t.kind() == TokenKind.QUOTED_IDENT;
        if (secretNext || (sensitive && (quoted || (stringSeen && !PUNCTUATION.contains(t.kind()))))) {
            return HIDDEN;
        }
        return t.display();
    }

    /**
     * A lexer error, its text hidden when it may hold a secret: at a password, or in a sensitive
     * statement when it is an unfinished string or quoted name (whose text runs on to the end of
     * the input) or follows a string. Elsewhere an unfinished string or name is shown only up to
     * the next quote, so a later statement's string literal is never shown.
     */
    private CqlSyntaxException hidingSecrets(CqlSyntaxException e) {
        String found = e.found();
        if (CqlSyntaxException.EOF.equals(found) || found.isEmpty()) {
            return e;
        }
        char first = found.charAt(0);
        boolean quoted = first == '\'' || first == '"' || found.startsWith("$$");
        if (secretNext || (sensitive && (quoted || stringSeen))) {
            return new CqlSyntaxException(e.line(), e.column(), HIDDEN, e.expected());
        }
        if (quoted) {
            int from = first == '$' ? 2 : 1;
            for (int i = from; i < found.length(); i++) {
                char c = found.charAt(i);
                if (c == '\'' || c == '"' || c == '$') {
                    return new CqlSyntaxException(e.line(), e.column(), found.substring(0, i) + "...", e.expected());
                }
            }
        }
        return e;
    }

    private String describeExpected() {
        List<String> items = new ArrayList<>(expected);
        if (items.isEmpty()) {
            return "a statement";
        }
        if (items.size() == 1) {
            return items.get(0);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " or " + items.get(items.size() - 1);
    }
}
