package dev.tributary.cql.ast;

import java.util.List;

/** {@code token(c1, c2, ...)}: the partitioner token of the partition key columns. */
public record TokenLhs(List<String> columns) implements Lhs {
    public TokenLhs {
        columns = List.copyOf(columns);
    }
}
