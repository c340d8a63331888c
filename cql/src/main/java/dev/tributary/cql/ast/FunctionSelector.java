package dev.tributary.cql.ast;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A function over selectors: {@code token(a, b)}, {@code writetime(v)}, {@code ttl(v)},
 * {@code totimestamp(now())}, {@code count(*)}. {@link #function()} is lowercased without a
 * {@code system.} prefix (another keyspace's function reads {@code ks.fn}). {@code count(*)} and
 * {@code count(1)} are {@code count} with no arguments (count rows); {@code writetime} and
 * {@code ttl} always have exactly one {@link ColumnSelector} argument. Arguments have no alias.
 *
 * <p>Without an alias the display name follows cqlsh: {@code token(pk)}, {@code writetime(v)},
 * {@code ttl(v)} and {@code count} as they are, other functions qualified by their keyspace, e.g.
 * {@code system.totimestamp(system.now())}.
 */
public record FunctionSelector(String function, List<Selector> args, String alias) implements Selector {
    public FunctionSelector {
        Objects.requireNonNull(function, "function");
        args = List.copyOf(args);
    }

    @Override
    public String displayName() {
        if (alias != null) {
            return alias;
        }
        if (function.equals("count") && args.isEmpty()) {
            return "count";
        }
        String argNames = args.stream().map(Selector::displayName).collect(Collectors.joining(", ", "(", ")"));
        boolean bare = function.equals("token") || function.equals("writetime") || function.equals("ttl")
                || function.indexOf('.') >= 0;
        return (bare ? function : "system." + function) + argNames;
    }
}
