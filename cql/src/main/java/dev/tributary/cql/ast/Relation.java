package dev.tributary.cql.ast;

import java.util.Objects;

/**
 * One WHERE condition {@code lhs op rhs}. For {@link Operator#IN} the right-hand side is a
 * {@link ListLit} of the candidates (tuples for a {@link TupleLhs}) or a {@link BindMarker}.
 * A {@link TokenLhs} uses only = != &lt; &lt;= &gt; &gt;=; a {@link TupleLhs} never uses CONTAINS,
 * and its literal tuples have as many elements as it has columns.
 */
public record Relation(Lhs lhs, Operator op, Term rhs) {
    public Relation {
        Objects.requireNonNull(lhs, "lhs");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(rhs, "rhs");
    }
}
