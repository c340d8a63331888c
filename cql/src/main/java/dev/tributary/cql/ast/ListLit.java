package dev.tributary.cql.ast;

import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code [a, b, ...]}. Also the right-hand side of {@code col IN (a, b, ...)}: the candidates,
 * in the order written (so that {@code IN ?} binds a {@code java.util.List} the same way).
 */
public record ListLit(List<Term> elements) implements Term {
    public ListLit {
        elements = List.copyOf(elements);
    }

    @Override
    public String cql() {
        return elements.stream().map(Term::cql).collect(Collectors.joining(", ", "[", "]"));
    }
}
