package dev.tributary.cql.lexer;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Names as CQL writes them: unquoted names are case-insensitive (the lexer lowercases them),
 * double-quoted ones keep their case. Stateless and thread-safe.
 */
public final class Identifiers {
    /** Words that cannot be used as unquoted names (Cassandra's reserved keywords). */
    public static final Set<String> RESERVED = Set.of(
            "add", "allow", "alter", "and", "apply", "asc", "authorize", "batch", "begin", "by", "columnfamily",
            "create", "delete", "desc", "describe", "drop", "entries", "execute", "from", "full", "grant", "if",
            "in", "index", "infinity", "insert", "into", "is", "keyspace", "limit", "modify", "nan",
            "norecursive", "not", "null", "of", "on", "order", "primary", "rename", "replace", "revoke",
            "schema", "select", "set", "table", "to", "token", "truncate", "unlogged", "update", "use",
            "using", "view", "where", "with");

    private static final Pattern PLAIN = Pattern.compile("[a-z][a-z0-9_]*");

    private Identifiers() {
    }

    /** True when {@code word} (any case) is reserved, or is a literal word (true, false, NaN, Infinity). */
    public static boolean isReserved(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        return RESERVED.contains(w) || w.equals("true") || w.equals("false");
    }

    /**
     * The name as CQL must write it: as is when it reads back the same unquoted, otherwise
     * double-quoted with embedded quotes doubled ({@code cdc$stream_id} becomes
     * {@code "cdc$stream_id"}).
     */
    public static String quoteIfNeeded(String name) {
        if (PLAIN.matcher(name).matches() && !isReserved(name)) {
            return name;
        }
        return quote(name);
    }

    /** Always double-quotes. */
    public static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
