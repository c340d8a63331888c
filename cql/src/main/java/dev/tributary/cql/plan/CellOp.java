package dev.tributary.cql.plan;

import java.util.List;

/** What a write does to one regular column. Values are in the value model (not yet encoded). */
public sealed interface CellOp {
    /** Set the whole value (null deletes the cell). */
    record Set(Object value) implements CellOp {
    }

    /** {@code col = col + v}: append to a list, add to a set, put into a map, add to a counter. */
    record Add(Object value) implements CellOp {
    }

    /** {@code col = v + col}: prepend to a list. */
    record Prepend(List<Object> value) implements CellOp {
    }

    /** {@code col = col - v}: remove list/set elements or map keys, subtract from a counter. */
    record Remove(Object value) implements CellOp {
    }

    /** {@code col[k] = v}: a map entry (null value removes it) or a list element by index. */
    record PutElement(Object key, Object value) implements CellOp {
    }

    /** {@code DELETE col[k]}: remove a map key or a list index. */
    record RemoveElement(Object key) implements CellOp {
    }
}
