package dev.tributary.cql.ast;

import java.util.Objects;

/**
 * One statement of a script: the parsed statement, its source text (from its first token to its
 * last, without the terminating semicolon) and the 1-based line it starts on. toString hides the
 * text of a statement that may hold a password (a role statement or a database link).
 */
public record ParsedStatement(Statement statement, String text, int line) {
    public ParsedStatement {
        Objects.requireNonNull(statement, "statement");
        Objects.requireNonNull(text, "text");
    }

    @Override
    public String toString() {
        boolean secret = statement instanceof RoleStatement || statement instanceof CreateDatabaseLink;
        return "ParsedStatement[statement=" + statement + ", text=" + (secret ? "***" : text) + ", line=" + line + "]";
    }
}
