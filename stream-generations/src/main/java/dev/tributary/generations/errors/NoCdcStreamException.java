package dev.tributary.generations.errors;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * No generation (or tablet stream set) is operating at the time a stream was asked for: the first
 * generation's timestamp is still in the future, or none was created yet. The message is
 * ScyllaDB's, word for word, with the time in UTC. The caller may retry once the first generation
 * starts operating (about a ring delay after the cluster started).
 */
public final class NoCdcStreamException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private static final DateTimeFormatter SCYLLA_TIME =
            DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss").withZone(ZoneOffset.UTC);

    private final long timeMillis;
    private final OptionalLong firstStreamsMillis;

    /** No stream at {@code timeMillis}, and no later generation or stream set is known either. */
    public NoCdcStreamException(long timeMillis) {
        this(timeMillis, OptionalLong.empty());
    }

    /**
     * No stream at {@code timeMillis}; streams start operating at {@code firstStreamsMillis}, if
     * present.
     */
    public NoCdcStreamException(long timeMillis, OptionalLong firstStreamsMillis) {
        super("cdc::metadata::get_stream: could not find any CDC stream (current time: "
                + SCYLLA_TIME.format(Instant.ofEpochMilli(timeMillis))
                + "). Are we in the middle of a cluster upgrade?");
        this.timeMillis = timeMillis;
        this.firstStreamsMillis = Objects.requireNonNull(firstStreamsMillis, "firstStreamsMillis");
    }

    /** The time, in milliseconds since the epoch, at which no stream was operating. */
    public long timeMillis() {
        return timeMillis;
    }

    /** When the first generation (or stream set) starts operating, if one is known; retry then. */
    public OptionalLong firstStreamsMillis() {
        return firstStreamsMillis;
    }
}
