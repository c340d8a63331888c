package dev.tributary.cql.ast;

/** One item of an {@code UPDATE ... SET} list. */
public sealed interface Assignment permits SetColumn, SetElement, AddToColumn, PrependToColumn, SubtractFromColumn {
    /** The column written to. */
    String column();
}
