package dev.tributary.cql.ast;

/** {@code BEGIN BATCH} (LOGGED), {@code BEGIN UNLOGGED BATCH}, {@code BEGIN COUNTER BATCH}. */
public enum BatchKind {
    LOGGED, UNLOGGED, COUNTER
}
