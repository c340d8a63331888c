package dev.tributary.dictionary.types;

import java.util.UUID;

/**
 * Version-1 (time-based) UUIDs in Cassandra's layout: a 60-bit timestamp counting 100-nanosecond
 * intervals since 1582-10-15 (split into time_low, time_mid and time_hi around the version
 * nibble), then the IETF variant, a 14-bit clock sequence and a 48-bit node. Stateless and
 * thread-safe; cql's {@code TimeUuidGenerator} makes unique ones from a clock. Here, below the
 * statements (cql) and the capture (capture-core), so that both read and make them one way.
 */
public final class TimeUuids {
    /** 100-ns intervals between 1582-10-15T00:00Z (the UUID epoch) and 1970-01-01T00:00Z. */
    public static final long UNIX_EPOCH_IN_UUID_TIME = 0x01B21DD213814000L;
    /** Cassandra's clock-sequence-and-node half of {@code minTimeuuid()}: the least under signed byte order. */
    static final long MIN_CLOCK_SEQ_AND_NODE = 0x8080808080808080L;
    /** Cassandra's clock-sequence-and-node half of {@code maxTimeuuid()}. */
    static final long MAX_CLOCK_SEQ_AND_NODE = 0x7f7f7f7f7f7f7f7fL;

    private TimeUuids() {
    }

    /** A timeuuid for a UUID timestamp (100-ns units since 1582-10-15). */
    public static UUID fromUuidTimestamp(long uuidTimestamp, int clockSeq, long node) {
        return new UUID(mostSigBits(uuidTimestamp), leastSigBits(clockSeq, node));
    }

    /** A timeuuid for a Unix time in microseconds. */
    public static UUID fromUnixMicros(long unixMicros, int clockSeq, long node) {
        return fromUuidTimestamp(unixMicros * 10 + UNIX_EPOCH_IN_UUID_TIME, clockSeq, node);
    }

    /** Cassandra's {@code minTimeuuid(t)}: the smallest timeuuid of that millisecond. */
    public static UUID minTimeUuid(long unixMillis) {
        return new UUID(mostSigBits(unixMillis * 10_000 + UNIX_EPOCH_IN_UUID_TIME), MIN_CLOCK_SEQ_AND_NODE);
    }

    /** Cassandra's {@code maxTimeuuid(t)}: the largest timeuuid of that millisecond. */
    public static UUID maxTimeUuid(long unixMillis) {
        return new UUID(mostSigBits((unixMillis + 1) * 10_000 + UNIX_EPOCH_IN_UUID_TIME - 1), MAX_CLOCK_SEQ_AND_NODE);
    }

    /** A timeuuid at {@code micros} since the Unix epoch; {@code lsb} is forced to the IETF variant. */
    public static UUID of(long micros, long lsb) {
        return new UUID(mostSigBits(micros * 10 + UNIX_EPOCH_IN_UUID_TIME), (lsb & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L);
    }

    /** True for a version-1 UUID. */
    public static boolean isTimeUuid(UUID uuid) {
        return uuid.version() == 1;
    }

    /**
     * The 60-bit UUID timestamp (100-ns units since 1582-10-15).
     *
     * @throws IllegalArgumentException when {@code uuid} is not version 1
     */
    public static long uuidTimestamp(UUID uuid) {
        requireTimeUuid(uuid);
        long msb = uuid.getMostSignificantBits();
        return ((msb & 0x0FFFL) << 48) | (((msb >>> 16) & 0xFFFFL) << 32) | (msb >>> 32);
    }

    /**
     * 100-ns ticks since the Unix epoch.
     *
     * @throws IllegalArgumentException when {@code uuid} is not version 1
     */
    public static long ticks(UUID uuid) {
        return uuidTimestamp(uuid) - UNIX_EPOCH_IN_UUID_TIME;
    }

    /** Unix time in microseconds (rounded down). */
    public static long micros(UUID uuid) {
        return Math.floorDiv(ticks(uuid), 10L);
    }

    /** Unix time in milliseconds (rounded down). */
    public static long millis(UUID uuid) {
        return Math.floorDiv(ticks(uuid), 10_000L);
    }

    /** {@link #micros}, under the name the CQL layer's callers know it by. */
    public static long unixMicros(UUID uuid) {
        return micros(uuid);
    }

    /** {@link #millis}, under the name the CQL layer's callers know it by. */
    public static long unixMillis(UUID uuid) {
        return millis(uuid);
    }

    /** The 14-bit clock sequence. */
    public static int clockSeq(UUID uuid) {
        requireTimeUuid(uuid);
        return (int) ((uuid.getLeastSignificantBits() >>> 48) & 0x3FFF);
    }

    /** The 48-bit node. */
    public static long node(UUID uuid) {
        requireTimeUuid(uuid);
        return uuid.getLeastSignificantBits() & 0xFFFF_FFFF_FFFFL;
    }

    private static long mostSigBits(long ts) {
        return (ts << 32) | ((ts & 0x0000_FFFF_0000_0000L) >>> 16) | 0x1000L | ((ts >>> 48) & 0x0FFFL);
    }

    private static long leastSigBits(int clockSeq, long node) {
        return 0x8000_0000_0000_0000L | ((long) (clockSeq & 0x3FFF) << 48) | (node & 0xFFFF_FFFF_FFFFL);
    }

    private static void requireTimeUuid(UUID uuid) {
        if (uuid.version() != 1) {
            throw new IllegalArgumentException("not a time-based (version 1) UUID: " + uuid + " is version " + uuid.version());
        }
    }
}
