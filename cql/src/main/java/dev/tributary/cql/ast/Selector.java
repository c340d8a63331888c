package dev.tributary.cql.ast;

/** One item of a SELECT list. */
public sealed interface Selector permits ColumnSelector, FunctionSelector {
    /** The {@code AS} alias, or null. */
    String alias();

    /** The result column's name: the alias when given, otherwise as cqlsh shows it. */
    String displayName();
}
