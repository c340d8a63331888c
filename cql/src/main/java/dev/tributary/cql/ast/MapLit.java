package dev.tributary.cql.ast;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * {@code {k: v, ...}} in the order written, or the empty {@code {}} (which is also an empty set).
 * Entries are a list so that a duplicate key stays visible to typing.
 */
public record MapLit(List<Entry> entries) implements Term {
    public static final MapLit EMPTY = new MapLit(List.of());

    public MapLit {
        entries = List.copyOf(entries);
    }

    /** One {@code key: value} pair. */
    public record Entry(Term key, Term value) {
        public Entry {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }

    @Override
    public String cql() {
        return entries.stream().map(e -> e.key().cql() + ": " + e.value().cql())
                .collect(Collectors.joining(", ", "{", "}"));
    }
}
