/** The exceptions of the statement language; see {@link dev.tributary.cql.errors.CqlException}. */
package dev.tributary.cql.errors;
