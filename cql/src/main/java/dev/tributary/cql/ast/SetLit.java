package dev.tributary.cql.ast;

import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code {a, b, ...}} with at least one element, in the order written, duplicates kept (typing
 * removes them). The empty {@code {}} is a {@link MapLit} with no entries, which typing also
 * accepts for a set column.
 */
public record SetLit(List<Term> elements) implements Term {
    public SetLit {
        elements = List.copyOf(elements);
    }

    @Override
    public String cql() {
        return elements.stream().map(Term::cql).collect(Collectors.joining(", ", "{", "}"));
    }
}
