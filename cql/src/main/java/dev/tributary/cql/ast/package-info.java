/**
 * The syntax tree: a sealed {@link dev.tributary.cql.ast.Statement} hierarchy of immutable
 * records, with the sealed families {@link dev.tributary.cql.ast.Term},
 * {@link dev.tributary.cql.ast.Selector}, {@link dev.tributary.cql.ast.Assignment},
 * {@link dev.tributary.cql.ast.Lhs} and {@link dev.tributary.cql.ast.AlterAction}. Names are
 * normalized (unquoted lowercased, quoted kept as written); lists and maps are unmodifiable
 * copies, maps in the order written.
 */
package dev.tributary.cql.ast;
