package dev.tributary.cql.ast;

/** A sort direction of a clustering column or an ORDER BY item. */
public enum Order {
    ASC, DESC
}
