package dev.tributary.generations;

import java.util.Objects;

/**
 * One row of {@code system.cdc_streams} for a table: at {@code timestampMillis}, {@code streamId}
 * is in {@code state}. Immutable.
 *
 * @param timestampMillis the stream set's timestamp, milliseconds since the epoch
 * @param state current, closed or opened at that timestamp
 * @param streamId the stream
 */
public record StreamStateRow(long timestampMillis, StreamState state, StreamId streamId) {

    public StreamStateRow {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(streamId, "streamId");
    }
}
