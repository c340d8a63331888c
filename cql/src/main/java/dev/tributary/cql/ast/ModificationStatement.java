package dev.tributary.cql.ast;

/** A statement that writes rows of one table; these are the statements a batch may hold. */
public sealed interface ModificationStatement extends Statement permits Insert, Update, Delete {
    QualifiedName table();

    /** Never null; {@link Using#NONE} when no USING clause was written. */
    Using using();
}
