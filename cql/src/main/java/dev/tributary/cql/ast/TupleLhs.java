package dev.tributary.cql.ast;

import java.util.List;

/** {@code (c1, c2, ...)}: a tuple of clustering columns compared as a whole. */
public record TupleLhs(List<String> columns) implements Lhs {
    public TupleLhs {
        columns = List.copyOf(columns);
    }
}
