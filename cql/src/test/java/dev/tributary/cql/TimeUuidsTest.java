package dev.tributary.cql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.dictionary.types.TimeUuids;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TimeUuidsTest {

    @Test
    void rfc9562VersionOneExample() {
        // RFC 9562 appendix A.1: 2022-02-22 14:22:22 -05:00, clock sequence 0x33C8, node 0x9F6BDECED846
        UUID expected = UUID.fromString("c232ab00-9414-11ec-b3c8-9f6bdeced846");
        UUID made = TimeUuids.fromUuidTimestamp(0x1EC9414C232AB00L, 0x33C8, 0x9F6BDECED846L);
        assertEquals(expected, made);
        assertEquals(0x1EC9414C232AB00L, TimeUuids.uuidTimestamp(expected));
        assertEquals(Instant.parse("2022-02-22T19:22:22Z").toEpochMilli(), TimeUuids.unixMillis(expected));
        assertEquals(0x33C8, TimeUuids.clockSeq(expected));
        assertEquals(0x9F6BDECED846L, TimeUuids.node(expected));
    }

    @Test
    void fromUnixMicrosAgreesWithTheJdkView() {
        long micros = 1_585_140_283_006_123L;
        UUID u = TimeUuids.fromUnixMicros(micros, 0x1234, 0xABCDEF012345L);
        assertEquals(1, u.version());
        assertEquals(2, u.variant());
        assertEquals(micros * 10 + TimeUuids.UNIX_EPOCH_IN_UUID_TIME, u.timestamp());
        assertEquals(0x1234, u.clockSequence());
        assertEquals(0xABCDEF012345L, u.node());
        assertEquals(micros, TimeUuids.unixMicros(u));
        assertEquals(1_585_140_283_006L, TimeUuids.unixMillis(u));
    }

    @Test
    void timesBeforeTheUnixEpochRoundDown() {
        UUID u = TimeUuids.fromUnixMicros(-1, 0, 0);
        assertEquals(-1, TimeUuids.unixMicros(u));
        assertEquals(-1, TimeUuids.unixMillis(u));
    }

    @Test
    void minAndMaxTimeUuidBracketAMillisecond() {
        long ms = 1_359_799_200_000L;
        UUID min = TimeUuids.minTimeUuid(ms);
        UUID max = TimeUuids.maxTimeUuid(ms);
        assertEquals(ms, TimeUuids.unixMillis(min));
        assertEquals(ms, TimeUuids.unixMillis(max));
        assertEquals(9_999, TimeUuids.uuidTimestamp(max) - TimeUuids.uuidTimestamp(min));
        assertEquals(0x8080808080808080L, min.getLeastSignificantBits());
        assertEquals(0x7f7f7f7f7f7f7f7fL, max.getLeastSignificantBits());
    }

    @Test
    void otherVersionsAreRefused() {
        UUID v4 = UUID.fromString("550e8400-e29b-41d4-a716-446655440000");
        assertFalse(TimeUuids.isTimeUuid(v4));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TimeUuids.unixMillis(v4));
        assertTrue(e.getMessage().contains("version 4"), e.getMessage());
    }

    @Test
    void generatorUsesTheClockAndNeverRepeats() {
        Instant t0 = Instant.parse("2020-03-25T16:05:31.939Z");
        TimeUuidGenerator gen = new TimeUuidGenerator(InstantSource.fixed(t0), 5, 0x0102030405L);
        UUID a = gen.next();
        UUID b = gen.next();
        assertEquals(t0.toEpochMilli(), TimeUuids.unixMillis(a));
        assertEquals(1, TimeUuids.uuidTimestamp(b) - TimeUuids.uuidTimestamp(a));
        assertEquals(5, TimeUuids.clockSeq(a));
        assertEquals(0x0102030405L, TimeUuids.node(a));
    }

    @Test
    void generatorKeepsIncreasingWhenTheClockGoesBack() {
        AtomicLong millis = new AtomicLong(1_000_000);
        TimeUuidGenerator gen = new TimeUuidGenerator(() -> Instant.ofEpochMilli(millis.get()), 0, 0);
        UUID first = gen.next();
        millis.addAndGet(-500);
        UUID second = gen.next();
        assertTrue(TimeUuids.uuidTimestamp(second) > TimeUuids.uuidTimestamp(first));
        millis.addAndGet(1_000);
        assertEquals(1_000_500, TimeUuids.unixMillis(gen.next()));
    }

    @Test
    void generatorIsUniqueAcrossThreads() throws InterruptedException {
        TimeUuidGenerator gen = new TimeUuidGenerator(InstantSource.fixed(Instant.EPOCH), 1, 1);
        Set<UUID> seen = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread th = new Thread(() -> {
                for (int k = 0; k < 5_000; k++) {
                    seen.add(gen.next());
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        assertEquals(20_000, seen.size());
    }

    @Test
    void randomNodeHasTheMulticastBitAndValidation() {
        TimeUuidGenerator gen = TimeUuidGenerator.withRandomNode(InstantSource.fixed(Instant.EPOCH), new SplittableRandom(7));
        assertTrue((TimeUuids.node(gen.next()) & 0x0100_0000_0000L) != 0);
        assertThrows(IllegalArgumentException.class, () -> new TimeUuidGenerator(InstantSource.system(), 0x4000, 0));
        assertThrows(IllegalArgumentException.class, () -> new TimeUuidGenerator(InstantSource.system(), 0, 1L << 48));
        Set<Long> nodes = new HashSet<>();
        SplittableRandom r = new SplittableRandom(1);
        for (int k = 0; k < 10; k++) {
            nodes.add(TimeUuids.node(TimeUuidGenerator.withRandomNode(InstantSource.system(), r).next()));
        }
        assertEquals(10, nodes.size());
    }
}
