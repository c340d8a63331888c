package dev.tributary.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A row of a table snapshot ({@link TableSnapshotRead}). Immutable.
 *
 * @param token          the row's token (Murmur3 of its partition key, {@code token(pk)} in CQL)
 * @param values         its live values by column name, primary key first; a column without a
 *                       live value is absent
 * @param completesToken true when no later row of the read has this token: a read interrupted
 *                       after this row goes on after this token and repeats none of it
 */
public record SnapshotRow(long token, Map<String, Object> values, boolean completesToken) {
    public SnapshotRow {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
