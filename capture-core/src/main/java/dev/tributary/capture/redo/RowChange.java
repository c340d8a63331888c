package dev.tributary.capture.redo;

import java.util.Arrays;
import java.util.List;

/**
 * The redo of one changed row, in physical terms only: object number and internal column
 * numbers, never names, so capture must resolve it through the dictionary version of its SCN.
 *
 * @param objectNumber     the table's object number
 * @param operation        INSERT, UPDATE or DELETE
 * @param partitionKey     the serialized partition key (the bytes the token is computed from)
 * @param key              every primary-key column of the row
 * @param newValues        the regular columns the write set (empty for DELETE)
 * @param oldValues        the regular columns of the row before the change (empty for INSERT)
 * @param writeTimeMicros  the write timestamp (USING TIMESTAMP, or the commit SCN's time)
 * @param ttlSeconds       the TTL the write set, 0 for none
 */
public record RowChange(long objectNumber, RowOperation operation, byte[] partitionKey,
        List<ColumnValue> key, List<ColumnValue> newValues, List<ColumnValue> oldValues,
        long writeTimeMicros, int ttlSeconds) {
    public RowChange {
        key = List.copyOf(key);
        newValues = List.copyOf(newValues);
        oldValues = List.copyOf(oldValues);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowChange r && r.objectNumber == objectNumber && r.operation == operation
                && Arrays.equals(r.partitionKey, partitionKey) && r.key.equals(key)
                && r.newValues.equals(newValues) && r.oldValues.equals(oldValues)
                && r.writeTimeMicros == writeTimeMicros && r.ttlSeconds == ttlSeconds;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(objectNumber) * 31 + Arrays.hashCode(partitionKey);
    }
}
