package dev.tributary.cql.ast;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A function used as a value: {@code now()}, {@code uuid()}, {@code totimestamp(now())},
 * {@code token(?)}. {@link #name()} is lowercased (unless quoted) and has no {@code system.}
 * prefix; a function of another keyspace reads {@code ks.fn}.
 */
public record FunctionCall(String name, List<Term> args) implements Term {
    public FunctionCall {
        Objects.requireNonNull(name, "name");
        args = List.copyOf(args);
    }

    @Override
    public String cql() {
        return name + args.stream().map(Term::cql).collect(Collectors.joining(", ", "(", ")"));
    }
}
