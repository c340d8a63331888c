package dev.tributary.cql;

import dev.tributary.cql.ast.Statement;
import java.util.Objects;

/**
 * One statement of a script: the parsed statement, its source text (from its first token to its
 * last, without the terminating semicolon) and the 1-based line it starts on.
 */
public record ParsedStatement(Statement statement, String text, int line) {
    public ParsedStatement {
        Objects.requireNonNull(statement, "statement");
        Objects.requireNonNull(text, "text");
    }
}
