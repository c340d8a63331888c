package dev.tributary.capture.log;

import java.util.UUID;

/**
 * Version-1 (time) UUIDs with Cassandra's layout: 100-ns intervals since 1582-10-15 in the
 * most significant bits, variant and a caller-chosen clock/node part in the least.
 */
public final class TimeUuids {
    /** 100-ns intervals between 1582-10-15 and 1970-01-01. */
    private static final long GREGORIAN_OFFSET = 0x01B21DD213814000L;

    private TimeUuids() {
    }

    /** A timeuuid at {@code micros} since the epoch; {@code lsb} is forced to the IETF variant. */
    public static UUID of(long micros, long lsb) {
        long ts = micros * 10 + GREGORIAN_OFFSET;
        long msb = (ts << 32) | ((ts >>> 16) & 0xFFFF0000L) | 0x1000L | ((ts >>> 48) & 0x0FFFL);
        return new UUID(msb, (lsb & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L);
    }

    /**
     * Microseconds since the epoch of a version-1 UUID (rounded down when it has sub-microsecond ticks).
     *
     * @throws IllegalArgumentException if {@code u} is not a version-1 UUID
     */
    public static long micros(UUID u) {
        return Math.floorDiv(ticks(u), 10);
    }

    /**
     * 100-ns ticks since the epoch of a version-1 UUID.
     *
     * @throws IllegalArgumentException if {@code u} is not a version-1 UUID
     */
    public static long ticks(UUID u) {
        if (u.version() != 1) {
            throw new IllegalArgumentException("not a timeuuid: " + u);
        }
        return u.timestamp() - GREGORIAN_OFFSET;
    }

    public static long millis(UUID u) {
        return Math.floorDiv(micros(u), 1000);
    }
}
