package dev.tributary.capture.apply;

import dev.tributary.capture.lcr.Lcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The rows a transaction touches, for {@link ApplySchedule}: for each row LCR its table and the
 * values of its primary key, in its old and its new image. A transaction with DDL, or with a row
 * of a table whose key is unknown or missing from an image, is a barrier.
 */
public final class TransactionKeys {
    /** The primary key columns of a source table. */
    @FunctionalInterface
    public interface KeyColumns {
        /** Empty when the key is not known for certain (another source's table, a dropped table). */
        Optional<List<String>> of(String sourceDatabase, String owner, String table);
    }

    private TransactionKeys() {
    }

    public static ApplySchedule.Keys of(ApplyTransaction tx, KeyColumns keyColumns) {
        Set<String> keys = new HashSet<>();
        for (Lcr lcr : tx.lcrs()) {
            if (!(lcr instanceof RowLcr row)) {
                return ApplySchedule.Keys.BARRIER;
            }
            Optional<List<String>> columns = keyColumns.of(row.sourceDatabaseName(), row.objectOwner(), row.objectName());
            if (columns.isEmpty() || columns.get().isEmpty()) {
                return ApplySchedule.Keys.BARRIER;
            }
            for (List<LcrColumn> image : Arrays.asList(row.oldValues(), row.newValues())) {
                if (image == null) {
                    continue;
                }
                StringBuilder key = new StringBuilder(row.objectOwner()).append('.').append(row.objectName());
                for (String c : columns.get()) {
                    LcrColumn v = RowLcr.find(image, c);
                    if (v == null || v.value() == null) {
                        return ApplySchedule.Keys.BARRIER;
                    }
                    key.append('\0').append(v.value());
                }
                keys.add(key.toString());
            }
        }
        return ApplySchedule.Keys.of(keys);
    }
}
