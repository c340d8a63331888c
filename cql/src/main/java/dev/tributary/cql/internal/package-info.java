/** Implementation of the parser and literal readers; not an API, may change without notice. */
package dev.tributary.cql.internal;
