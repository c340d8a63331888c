package dev.tributary.cql.ast;

import java.util.Objects;

/** A column, e.g. {@code "cdc$stream_id"} or {@code pk AS k}. */
public record ColumnSelector(String name, String alias) implements Selector {
    public ColumnSelector {
        Objects.requireNonNull(name, "name");
    }

    public static ColumnSelector of(String name) {
        return new ColumnSelector(name, null);
    }

    @Override
    public String displayName() {
        return alias != null ? alias : name;
    }
}
