package dev.tributary.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.client.ChangeRecord;
import dev.tributary.client.LcrPosition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ChangeFollowerTest {
    /**
     * A change log in memory, ordered as the node orders it (stream, then time, then batch
     * sequence number), read like ReadChanges: after a position, at most a limit.
     */
    static final class MemoryLog implements ChangeSource {
        static final Comparator<LcrPosition> ORDER = Comparator
                .comparing((LcrPosition p) -> p.streamId(), ByteBuffer::compareTo)
                .thenComparingLong(p -> p.time().timestamp())
                .thenComparingInt(LcrPosition::batchSeqNo);
        final NavigableMap<LcrPosition, ChangeRecord> records = new TreeMap<>(ORDER);
        int opened;
        int closed;
        private long micros = 1_000_000;

        ChangeRecord append(ByteBuffer stream, String command) {
            micros++;
            LcrPosition p = new LcrPosition(stream, TimeUuids.of(micros, 1), 0);
            ChangeRecord r = new ChangeRecord("ROW", "tributary", command, "bench", "t", null, "1." + micros,
                    (micros / 1000) << 16, (micros / 1000) << 16, null, Map.of("pk", micros), p, true, Map.of(), null, null,
                    null, null, null, null);
            records.put(p, r);
            return r;
        }

        @Override
        public ChangeCursor open(LcrPosition after, int limit) {
            opened++;
            Iterator<ChangeRecord> it = records.tailMap(after, false).values().stream().limit(limit).toList().iterator();
            return new ChangeCursor() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public ChangeRecord next() {
                    return it.next();
                }

                @Override
                public void close() {
                    closed++;
                }
            };
        }
    }

    static ByteBuffer stream(int i) {
        return ByteBuffer.wrap(new byte[] {(byte) i, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
    }

    @Test
    void lcrsWrittenBehindTheReaderInEarlierStreamsStillArriveExactlyOnce() {
        MemoryLog log = new MemoryLog();
        List<ByteBuffer> streams = List.of(stream(1), stream(2), stream(3));
        List<ChangeRecord> got = new ArrayList<>();
        ChangeFollower f = new ChangeFollower(log, streams, got::add);
        List<ChangeRecord> written = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 7; i++) {
                written.add(log.append(streams.get(i % 3), "INSERT"));
            }
            f.pollOnce();
        }
        assertEquals(written.size(), got.size());
        assertEquals(new java.util.HashSet<>(written), new java.util.HashSet<>(got), "each LCR once");
        assertEquals(15, f.reads(), "one read per stream and pass");
        assertEquals(log.opened, log.closed, "every read is closed");
        assertEquals(0, f.pollOnce(), "nothing new");
    }

    @Test
    void withinAStreamLcrsArriveInLogOrder() {
        MemoryLog log = new MemoryLog();
        List<ChangeRecord> got = new ArrayList<>();
        ChangeFollower f = new ChangeFollower(log, List.of(stream(5), stream(9)), got::add);
        for (int i = 0; i < 40; i++) {
            log.append(stream(i % 2 == 0 ? 5 : 9), "INSERT");
        }
        f.pollOnce();
        List<ChangeRecord> in5 = got.stream().filter(r -> r.position().streamId().equals(stream(5))).toList();
        assertEquals(new ArrayList<>(log.records.headMap(new LcrPosition(stream(6), ChangeFollower.EPOCH, 0)).values()), in5);
    }

    @Test
    void aStreamWithMoreThanTheReadLimitIsDrainedInOnePass() {
        MemoryLog log = new MemoryLog();
        List<ChangeRecord> got = new ArrayList<>();
        ChangeFollower f = new ChangeFollower(log, List.of(stream(1), stream(2)), got::add);
        int many = ChangeFollower.MIN_LIMIT * 40 + 3;
        for (int i = 0; i < many; i++) {
            log.append(stream(1), "INSERT");
        }
        log.append(stream(2), "INSERT");
        assertEquals(many + 1, f.pollOnce());
        assertTrue(f.reads() > 2, "stream 1 took several reads: " + f.reads());
    }

    @Test
    void streamsTheFollowerDoesNotOwnAreNotDelivered() {
        MemoryLog log = new MemoryLog();
        List<ChangeRecord> got = new ArrayList<>();
        ChangeFollower f = new ChangeFollower(log, List.of(stream(2)), got::add);
        log.append(stream(1), "INSERT");
        log.append(stream(2), "INSERT");
        log.append(stream(3), "INSERT");
        assertEquals(1, f.pollOnce());
        assertEquals(stream(2), got.get(0).position().streamId());
    }

    @Test
    void theStreamStartPrecedesEveryLcrOfTheStream() {
        MemoryLog log = new MemoryLog();
        ChangeRecord first = log.append(stream(4), "INSERT");
        assertTrue(MemoryLog.ORDER.compare(ChangeFollower.streamStart(stream(4)), first.position()) < 0);
        assertEquals(0, TimeUuids.micros(ChangeFollower.EPOCH));
    }

    @Test
    void partitionSplitsStreamsRoundRobin() {
        List<ByteBuffer> s = List.of(stream(1), stream(2), stream(3), stream(4), stream(5));
        List<List<ByteBuffer>> parts = ChangeFollower.partition(s, 2);
        assertEquals(List.of(List.of(stream(1), stream(3), stream(5)), List.of(stream(2), stream(4))), parts);
        assertEquals(2, ChangeFollower.partition(s.subList(0, 2), 4).size(), "no empty shares");
        assertThrows(IllegalArgumentException.class, () -> new ChangeFollower(new MemoryLog(), List.of(), r -> { }));
    }

    @Test
    void theCounterSeparatesMeasuredPreloadAndOtherLcrs() {
        DeliveryProgress p = new DeliveryProgress();
        LcrCounter c = new LcrCounter("UPDATE", p, 0);
        MemoryLog log = new MemoryLog();
        c.accept(log.append(stream(1), "UPDATE"));
        assertEquals(0, p.measured(), "before the measured phase every row LCR is preload or warm-up");
        assertEquals(1, p.preload());
        p.startMeasuring();
        c.accept(log.append(stream(1), "UPDATE"));
        c.accept(log.append(stream(1), "INSERT"));
        c.accept(log.append(stream(1), "DELETE"));
        assertEquals(1, p.measured());
        assertEquals(1, p.preload());
        assertEquals(2, p.others(), "an INSERT or DELETE in an UPDATE run is unexpected");
        assertEquals(1, c.latency().count());
        assertTrue(p.newestCommitMillis() > 0);
    }
}
