package dev.tributary.cql.ast;

/** What an {@code ALTER TABLE} does. */
public sealed interface AlterAction permits AddColumns, DropColumns, WithProperties {
}
