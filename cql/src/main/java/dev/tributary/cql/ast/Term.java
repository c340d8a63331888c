package dev.tributary.cql.ast;

/**
 * A value expression as written in a statement: a literal, a collection or tuple literal, a bind
 * marker or a function call. Terms carry no type; {@code dev.tributary.cql.TermTyper} turns a term
 * into a Java value of a column's type. A leading minus sign is folded into numeric and duration
 * literals. All implementations are immutable records.
 */
public sealed interface Term permits StringLit, IntegerLit, DecimalLit, FloatSpecial, BooleanLit, UuidLit,
        BlobLit, DurationLit, NullLit, ListLit, SetLit, MapLit, UdtLit, TupleLit, BindMarker, FunctionCall {

    /** The term written back as CQL text, e.g. {@code 'it''s'}, {@code [1, 2]}, {@code now()}. */
    String cql();
}
