package dev.tributary.cql.ast;

/**
 * {@code ?}. {@link #index()} is 0-based and counts the markers of one statement (a whole batch is
 * one statement) in the order they are written; the caller binds values by this index.
 */
public record BindMarker(int index) implements Term {
    public BindMarker {
        if (index < 0) {
            throw new IllegalArgumentException("bind marker index " + index + " < 0");
        }
    }

    @Override
    public String cql() {
        return "?";
    }
}
