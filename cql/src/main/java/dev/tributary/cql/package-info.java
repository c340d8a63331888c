/**
 * The statement language of Tributary: a CQL subset plus {@code CALL}.
 *
 * <p>{@link dev.tributary.cql.CqlParser} turns text into the immutable records of
 * {@link dev.tributary.cql.ast}; {@link dev.tributary.cql.TermTyper} turns a parsed term into a
 * Java value of a column's type (the value model of docs/ARCHITECTURE.md). Errors are the three
 * kinds of {@link dev.tributary.cql.errors.CqlException}. Nothing here looks at a schema: checks
 * that need one (does the table exist, is the WHERE clause a full primary key) belong to the node.
 */
package dev.tributary.cql;
