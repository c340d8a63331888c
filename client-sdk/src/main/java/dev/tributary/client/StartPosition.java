package dev.tributary.client;

import java.time.Instant;
import java.util.Objects;

/**
 * Where a {@link ChangeConsumer} starts in streams that its {@link PositionStore} has no position
 * for: the beginning of the log, now, or a point in time (by LCR time, i.e. write timestamp).
 */
public final class StartPosition {
    private final Instant at;

    private StartPosition(Instant at) {
        this.at = at;
    }

    /** Every LCR the log holds, oldest stream set first. */
    public static StartPosition earliest() {
        return new StartPosition(null);
    }

    /** The LCRs whose time is at or after the moment the consumer starts. */
    public static StartPosition latest() {
        return new StartPosition(Instant.EPOCH.minusNanos(1));
    }

    /** The LCRs whose time is at or after {@code t}. */
    public static StartPosition at(Instant t) {
        return new StartPosition(Objects.requireNonNull(t, "t"));
    }

    /** The first LCR time delivered, in microseconds; {@link Long#MIN_VALUE} for earliest. */
    long startMicros(Instant now) {
        if (at == null) {
            return Long.MIN_VALUE;
        }
        Instant t = at.equals(Instant.EPOCH.minusNanos(1)) ? now : at;
        return Math.multiplyExact(t.getEpochSecond(), 1_000_000L) + t.getNano() / 1000;
    }

    @Override
    public String toString() {
        return at == null ? "earliest" : at.equals(Instant.EPOCH.minusNanos(1)) ? "latest" : at.toString();
    }
}
