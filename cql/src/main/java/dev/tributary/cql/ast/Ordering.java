package dev.tributary.cql.ast;

import java.util.Objects;

/** One {@code ORDER BY} item; {@code ASC} when no direction is written. */
public record Ordering(String column, Order order) {
    public Ordering {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(order, "order");
    }
}
