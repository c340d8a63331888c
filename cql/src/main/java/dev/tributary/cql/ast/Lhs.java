package dev.tributary.cql.ast;

/** The left-hand side of a WHERE relation. */
public sealed interface Lhs permits ColumnLhs, TokenLhs, TupleLhs {
}
