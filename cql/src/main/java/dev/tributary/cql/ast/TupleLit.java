package dev.tributary.cql.ast;

import java.util.List;
import java.util.stream.Collectors;

/** {@code (a, b, ...)}: the right-hand side of a column-tuple relation, or a tuple value. */
public record TupleLit(List<Term> elements) implements Term {
    public TupleLit {
        elements = List.copyOf(elements);
        if (elements.isEmpty()) {
            throw new IllegalArgumentException("a tuple literal has at least one element");
        }
    }

    @Override
    public String cql() {
        return elements.stream().map(Term::cql).collect(Collectors.joining(", ", "(", ")"));
    }
}
