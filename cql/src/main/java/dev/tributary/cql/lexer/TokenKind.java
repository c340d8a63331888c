package dev.tributary.cql.lexer;

/** The kinds of {@link Token} the {@link CqlLexer} produces. */
public enum TokenKind {
    /** An unquoted name or an unreserved keyword; {@link Token#text()} is lowercased. */
    IDENT("an identifier"),
    /** A double-quoted name; {@link Token#text()} keeps case, {@code ""} unescaped. */
    QUOTED_IDENT("a quoted identifier"),
    /** A reserved keyword (SELECT, FROM, ...); {@link Token#text()} is lowercased. */
    KEYWORD("a keyword"),
    /** {@code '...'} or {@code $$...$$}; {@link Token#text()} is the unescaped content. */
    STRING("a string"),
    INTEGER("an integer"),
    /** A number with a fraction or exponent, or {@code NaN} / {@code Infinity}. */
    FLOAT("a float"),
    /** {@code 0x...}; {@link Token#text()} is the hex digits after {@code 0x}. */
    HEX_BLOB("a blob"),
    UUID("a UUID"),
    /** {@code 1h30m}, {@code 2d}, {@code P1DT2H}, ... */
    DURATION("a duration"),
    BOOLEAN("a boolean"),
    QMARK("'?'"),
    EQ("'='"), NEQ("'!='"), LT("'<'"), LTE("'<='"), GT("'>'"), GTE("'>='"),
    PLUS("'+'"), MINUS("'-'"), STAR("'*'"),
    LPAREN("'('"), RPAREN("')'"), LBRACKET("'['"), RBRACKET("']'"), LBRACE("'{'"), RBRACE("'}'"),
    COMMA("','"), SEMICOLON("';'"), DOT("'.'"), COLON("':'"), ARROW("'=>'"),
    EOF("end of input");

    private final String description;

    TokenKind(String description) {
        this.description = description;
    }

    /** How an error message names this kind, e.g. {@code ','} or {@code an identifier}. */
    public String description() {
        return description;
    }
}
