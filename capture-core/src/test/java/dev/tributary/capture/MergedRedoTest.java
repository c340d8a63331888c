package dev.tributary.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.SessionInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class MergedRedoTest {
    /** A thread in memory: its committed entries and how far it is complete. */
    private static final class Thread implements RedoThread {
        final int number;
        final TreeMap<Long, RedoEntry> entries = new TreeMap<>();
        long complete = Long.MIN_VALUE;
        boolean down;

        Thread(int number) {
            this.number = number;
        }

        void commit(long... scns) {
            for (long s : scns) {
                entries.put(s, new RedoEntry(s, number + "." + s, null, new SessionInfo("u", 1, 0, number), List.of(), null));
                complete = Math.max(complete, s);
            }
        }

        @Override
        public Batch read(long afterScn, int max) {
            if (down) {
                throw new ThreadUnavailableException("node down", null);
            }
            long c = complete;
            return new Batch(entries.tailMap(afterScn, false).values().stream().limit(max).toList(), c);
        }
    }

    private static final RedoSource NO_LOCAL = new RedoSource() {
        @Override
        public List<RedoEntry> readAfter(long afterScn, int max) {
            return List.of();
        }

        @Override
        public void awaitNewer(long afterScn, long timeoutMillis) {
        }
    };

    private static MergedRedo merge(Thread... ts) {
        Map<String, RedoThread> m = new LinkedHashMap<>();
        for (Thread t : ts) {
            m.put("thread " + t.number, t);
        }
        return new MergedRedo(() -> m, NO_LOCAL, 10);
    }

    private static List<String> ids(List<RedoEntry> es) {
        return es.stream().map(RedoEntry::transactionId).toList();
    }

    @Test
    @DisplayName("CAP-RAC-1: the threads merge in SCN order, released only up to where every thread is complete")
    void mergesUpToTheSlowestThread() {
        Thread a = new Thread(1);
        Thread b = new Thread(2);
        a.commit(10, 30, 50);
        b.commit(20, 40);
        MergedRedo m = merge(a, b);
        assertEquals(List.of("1.10", "2.20", "1.30", "2.40"), ids(m.readAfter(0, 100)), "1.50 waits: thread 2 may still bring 45");
        assertEquals(40, m.completeThrough());
        b.complete = 60; // thread 2 moved on without a change
        assertEquals(List.of("1.50"), ids(m.readAfter(40, 100)));
        assertEquals(50, m.completeThrough(), "thread 1 is complete through 50 only");
    }

    @Test
    @DisplayName("CAP-RAC-1: a full read bounds its thread at its last entry; one SCN on two threads is never split")
    void fullReadsAndEqualScns() {
        Thread a = new Thread(1);
        Thread b = new Thread(2);
        a.commit(10, 20, 30, 40);
        b.commit(20, 25, 60);
        MergedRedo m = merge(a, b);
        List<RedoEntry> first = m.readAfter(0, 2);
        assertEquals(List.of("1.10", "1.20", "2.20"), ids(first), "both SCN 20 entries come together, thread 1 first");
        assertEquals(20, m.completeThrough());
        assertEquals(List.of("2.25", "1.30"), ids(m.readAfter(20, 2)));

        Thread c = new Thread(1);
        Thread idle = new Thread(2);
        c.commit(10, 20, 30, 40);
        idle.complete = 50;
        MergedRedo n = merge(c, idle);
        assertEquals(List.of("1.10", "1.20"), ids(n.readAfter(0, 2)));
        assertEquals(20, n.completeThrough(), "30 and 40 are not handed out yet, though thread 1 is complete through 40");
    }

    @Test
    @DisplayName("CAP-RAC-1: a thread that cannot be read holds the merge back, saying which; nothing is passed by")
    void unavailableThreadHoldsBack() {
        Thread a = new Thread(1);
        Thread b = new Thread(2);
        a.commit(10, 30);
        b.commit(20);
        MergedRedo m = merge(a, b);
        b.down = true;
        assertTrue(m.readAfter(0, 100).isEmpty());
        assertTrue(m.waitingFor().startsWith("thread 2: node down"), m.waitingFor());
        assertEquals(Long.MIN_VALUE, m.completeThrough());
        b.down = false;
        assertEquals(List.of("1.10", "2.20"), ids(m.readAfter(0, 100)));
        assertNull(m.waitingFor());
    }

    @Test
    @DisplayName("CAP-RAC-1: whatever the interleaving of commits and reads, a reader following its position gets every "
            + "entry of every thread once, in SCN order (seeded)")
    void randomInterleavings() {
        long seed = Long.getLong("tributary.merge.seed", System.nanoTime());
        System.out.println("MergedRedoTest seed " + seed + " (-Dtributary.merge.seed=" + seed + " replays)");
        Random r = new Random(seed);
        for (int round = 0; round < 200; round++) {
            Thread[] ts = {new Thread(1), new Thread(2), new Thread(3)};
            MergedRedo m = merge(ts);
            long clock = 0;
            long position = Long.MIN_VALUE;
            List<RedoEntry> got = new ArrayList<>();
            int committed = 0;
            for (int step = 0; step < 200; step++) {
                Thread t = ts[r.nextInt(ts.length)];
                switch (r.nextInt(4)) {
                    case 0 -> {
                        clock += r.nextInt(3); // equal SCNs on different threads happen
                        // a thread never commits at or below what it said it is complete through
                        long scn = Math.max(Math.max(clock, t.complete + 1), t.entries.isEmpty() ? 0 : t.entries.lastKey() + 1);
                        t.commit(scn);
                        committed++;
                    }
                    case 1 -> t.complete = Math.max(t.complete, clock);
                    default -> {
                        List<RedoEntry> es = m.readAfter(position, 1 + r.nextInt(4));
                        if (!es.isEmpty()) {
                            position = es.get(es.size() - 1).scn();
                            got.addAll(es);
                        }
                    }
                }
            }
            for (Thread t : ts) {
                t.complete = Long.MAX_VALUE - 1;
            }
            for (List<RedoEntry> es = m.readAfter(position, 3); !es.isEmpty(); es = m.readAfter(position, 3)) {
                position = es.get(es.size() - 1).scn();
                got.addAll(es);
            }
            assertEquals(committed, got.size(), "seed " + seed + " round " + round + ": every entry once");
            assertEquals(committed, got.stream().map(RedoEntry::transactionId).distinct().count(), "seed " + seed);
            for (int i = 1; i < got.size(); i++) {
                assertTrue(got.get(i - 1).scn() <= got.get(i).scn(), "seed " + seed + " round " + round + ": SCN order");
            }
        }
    }
}
