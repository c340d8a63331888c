package dev.tributary.capture.redo;

import java.util.Arrays;

/**
 * One column of a redo record: the column's internal number (never reused, so a record stays
 * decodable after the column is dropped) and its value serialized by {@code ValueCodec};
 * {@code value == null} is NULL.
 */
public record ColumnValue(int columnNumber, byte[] value) {
    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnValue c && c.columnNumber == columnNumber && Arrays.equals(c.value, value);
    }

    @Override
    public int hashCode() {
        return 31 * columnNumber + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "#" + columnNumber + "=" + (value == null ? "null" : value.length + "B");
    }
}
