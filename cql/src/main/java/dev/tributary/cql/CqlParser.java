package dev.tributary.cql;

import dev.tributary.cql.ast.BindMarker;
import dev.tributary.cql.ast.ParsedStatement;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlSyntaxException;
import dev.tributary.cql.internal.AstTerms;
import dev.tributary.cql.internal.StatementParser;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * Entry point of the statement language: parses text into {@link Statement}s (see the records of
 * {@code dev.tributary.cql.ast}). Stateless and thread-safe; each call parses independently.
 *
 * <p>Every method throws {@link CqlSyntaxException} for text that is not CQL (with line, column
 * and the token found) and {@link CqlInvalidException} for a statement that is well-formed but
 * makes no sense without looking at any schema (e.g. an INSERT with more columns than values). No
 * other exception escapes for any input.
 */
public final class CqlParser {
    private CqlParser() {
    }

    /** Exactly one statement, optionally followed by {@code ;}. */
    public static Statement parse(String text) {
        return new StatementParser(Objects.requireNonNull(text, "text")).parseSingle();
    }

    /**
     * All statements of a {@code ;}-separated script, in order (a {@code BEGIN BATCH ... APPLY BATCH}
     * is one statement). Empty statements (stray semicolons, comments only) are skipped. Fails on the
     * first bad statement; use {@link #iterateScript} to run the statements before it.
     */
    public static List<ParsedStatement> parseScript(String text) {
        List<ParsedStatement> out = new ArrayList<>();
        iterateScript(text).forEachRemaining(out::add);
        return out;
    }

    /**
     * The statements of a script, parsed one at a time as they are requested: a syntax error in a
     * later statement is thrown (from {@code hasNext()} or {@code next()}) only when that statement
     * is reached, so a shell can execute the earlier ones first. Line numbers in errors count from
     * the start of the script.
     */
    public static Iterator<ParsedStatement> iterateScript(String text) {
        StatementParser parser = new StatementParser(Objects.requireNonNull(text, "text"));
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return parser.hasNextStatement();
            }

            @Override
            public ParsedStatement next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("no more statements");
                }
                return parser.nextStatement();
            }
        };
    }

    /** How many bind markers ({@code ?}) the statement holds: the number of values to bind. */
    public static int countBindMarkers(Statement statement) {
        int[] count = {0};
        AstTerms.forEach(statement, t -> {
            if (t instanceof BindMarker) {
                count[0]++;
            }
        });
        return count[0];
    }
}
