package dev.tributary.capture.redo;

/** What a row change did to its row, as the write path found it. */
public enum RowOperation {
    /** The row did not exist before. */
    INSERT,
    /** The row existed; some columns were written (an upsert over an existing row is an UPDATE). */
    UPDATE,
    /** The row existed and was removed (a partition or range delete logs one per row). */
    DELETE
}
