package dev.tributary.cql;

import dev.tributary.dictionary.types.TimeUuids;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

/**
 * Makes unique, increasing timeuuids ({@code now()}) from a clock, a clock sequence and a node.
 * When the clock has not moved on since the last UUID (or went back), the next UUID takes the
 * next 100-ns step instead, so UUIDs from one generator never repeat and always increase in
 * time. Thread-safe.
 */
public final class TimeUuidGenerator {
    private final InstantSource clock;
    private final int clockSeq;
    private final long node;
    private final AtomicLong lastTimestamp = new AtomicLong(Long.MIN_VALUE);

    /**
     * @param clockSeq 14 bits (0..16383)
     * @param node     48 bits
     */
    public TimeUuidGenerator(InstantSource clock, int clockSeq, long node) {
        this.clock = Objects.requireNonNull(clock, "clock");
        if (clockSeq < 0 || clockSeq > 0x3FFF) {
            throw new IllegalArgumentException("clock sequence " + clockSeq + " is not 14 bits");
        }
        if ((node & ~0xFFFF_FFFF_FFFFL) != 0) {
            throw new IllegalArgumentException("node " + node + " is not 48 bits");
        }
        this.clockSeq = clockSeq;
        this.node = node;
    }

    /** A generator with a random clock sequence and a random node (multicast bit set, as RFC 4122 asks). */
    public static TimeUuidGenerator withRandomNode(InstantSource clock, RandomGenerator random) {
        long node = (random.nextLong() & 0xFFFF_FFFF_FFFFL) | 0x0100_0000_0000L;
        return new TimeUuidGenerator(clock, random.nextInt(0x4000), node);
    }

    public InstantSource clock() {
        return clock;
    }

    public UUID next() {
        Instant now = clock.instant();
        long ts = now.getEpochSecond() * 10_000_000L + now.getNano() / 100 + TimeUuids.UNIX_EPOCH_IN_UUID_TIME;
        long chosen = lastTimestamp.updateAndGet(prev -> prev >= ts ? prev + 1 : ts);
        return TimeUuids.fromUuidTimestamp(chosen, clockSeq, node);
    }
}
