package dev.tributary.kafka.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.kafka.internal.TransactionBuffer.Added;
import dev.tributary.kafka.internal.TransactionBuffer.Transaction;
import dev.tributary.kafka.internal.TransactionBuffer.TxKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The queue's buffering and release rule, seeded ({@code -Dtxbuffer.seed=} replays one seed over
 * every run): transactions of several "nodes" whose LCRs lie in several streams, each at a log time
 * from its commit up to the skew after it, delivered stream by stream in a random interleaving
 * while a watermark follows what was delivered (lagging at random); then a restart from a released
 * transaction, reading every stream again from its commit's millisecond.
 */
class TransactionBufferTest {
    private static final int RUNS = 300;

    /** One LCR of the simulation: its transaction, stream, log time and place in its transaction. */
    private record Lcr(TxKey tx, long commitMicros, int stream, long time, int seq) {
    }

    private static final Comparator<Lcr> WITHIN = Comparator.comparingInt(Lcr::seq);

    @Test
    void transactionsComeWholeInCommitOrderAndARestartResumesAfterTheCommittedOne() {
        Long fixed = Long.getLong("txbuffer.seed");
        long first = fixed != null ? fixed : System.nanoTime();
        for (int run = 0; run < RUNS; run++) {
            long seed = first + run;
            try {
                oneRun(seed);
            } catch (AssertionError e) {
                throw new AssertionError("seed " + seed + " (-Dtxbuffer.seed=" + seed + "): " + e.getMessage(), e);
            }
            if (fixed != null) {
                return;
            }
        }
    }

    private static void oneRun(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int streams = 1 + random.nextInt(6);
        long skewMillis = random.nextInt(4) == 0 ? 0 : random.nextLong(1, 50);
        int nodes = 1 + random.nextInt(3);
        List<List<Lcr>> perTx = new ArrayList<>();
        List<Lcr> all = new ArrayList<>();
        long[] nodeMillis = new long[nodes];
        for (int n = 0; n < nodes; n++) {
            nodeMillis[n] = 1_000_000 + random.nextInt(5);
        }
        int txs = 1 + random.nextInt(60);
        for (int t = 0; t < txs; t++) {
            int node = random.nextInt(nodes);
            nodeMillis[node] += random.nextInt(3); // several transactions in one millisecond, and ties across nodes
            long scn = (nodeMillis[node] << 16) | random.nextInt(1 << 16);
            TxKey key = new TxKey(scn, node + "." + t);
            long commitMicros = (scn >>> 16) * 1000 + Math.min(scn & 0xFFFF, 999);
            List<Lcr> items = new ArrayList<>();
            int size = 1 + random.nextInt(6);
            for (int i = 0; i < size; i++) {
                // at its commit mostly; up to the skew after it for a USING TIMESTAMP in the future
                long time = random.nextInt(3) > 0 ? commitMicros
                        : random.nextLong(commitMicros, (scn >>> 16) * 1000 + 1000 + skewMillis * 1000);
                items.add(new Lcr(key, commitMicros, random.nextInt(streams), time, i));
            }
            perTx.add(items);
            all.addAll(items);
        }
        perTx.sort(Comparator.comparing(l -> l.get(0).tx()));

        List<Transaction<Lcr>> released = deliver(random, all, streams, skewMillis, TxKey.NONE, Long.MIN_VALUE);
        assertReleased(perTx, released, 0);

        // a restart after a released transaction: every stream read again from its commit's millisecond
        int cut = random.nextInt(released.size());
        TxKey committed = released.get(cut).key();
        long fromMicros = (committed.commitScn() >>> 16) * 1000;
        List<Transaction<Lcr>> after = deliver(random, all, streams, skewMillis, committed, fromMicros);
        assertReleased(perTx, after, cut + 1);
    }

    /** The LCRs at or after {@code fromMicros}, each stream in time order, streams interleaved at random. */
    private static List<Transaction<Lcr>> deliver(SplittableRandom random, List<Lcr> all, int streams, long skewMillis,
            TxKey after, long fromMicros) {
        List<List<Lcr>> byStream = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            byStream.add(new ArrayList<>());
        }
        for (Lcr l : all) {
            if (l.time() >= fromMicros) {
                byStream.get(l.stream()).add(l);
            }
        }
        byStream.forEach(s -> s.sort(Comparator.comparingLong(Lcr::time)));
        int[] next = new int[streams];
        TransactionBuffer<Lcr> buffer = new TransactionBuffer<>(after, WITHIN);
        List<Transaction<Lcr>> out = new ArrayList<>();
        long watermark = Long.MIN_VALUE;
        while (true) {
            List<Integer> left = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                if (next[s] < byStream.get(s).size()) {
                    left.add(s);
                }
            }
            if (left.isEmpty()) {
                break;
            }
            int s = left.get(random.nextInt(left.size()));
            Lcr l = byStream.get(s).get(next[s]++);
            Added a = buffer.add(l.tx(), l.commitMicros(), l);
            assertFalse(a == Added.LATE, "an LCR of a transaction already released: " + l);
            // the true watermark: below the next undelivered LCR of every stream; the consumer's may lag it
            long low = Long.MAX_VALUE / 2;
            for (int t = 0; t < streams; t++) {
                if (next[t] < byStream.get(t).size()) {
                    low = Math.min(low, byStream.get(t).get(next[t]).time());
                }
            }
            if (random.nextInt(3) > 0) {
                watermark = Math.max(watermark, low - random.nextLong(0, 3_000));
                buffer.promote(watermark - skewMillis * 1000 - 1000);
            }
            if (random.nextBoolean()) {
                out.addAll(buffer.take(1 + random.nextInt(8)));
            }
        }
        buffer.promote(Long.MAX_VALUE);
        out.addAll(buffer.take(Integer.MAX_VALUE));
        assertEquals(0, buffer.openItems() + buffer.readyItems());
        return out;
    }

    private static void assertReleased(List<List<Lcr>> perTx, List<Transaction<Lcr>> released, int from) {
        assertEquals(perTx.size() - from, released.size(), "every transaction after the start once");
        for (int i = 0; i < released.size(); i++) {
            List<Lcr> expected = perTx.get(from + i);
            Transaction<Lcr> t = released.get(i);
            assertEquals(expected.get(0).tx(), t.key(), "commit order at " + i);
            assertEquals(expected, t.items(), "transaction " + t.key() + " whole, in its order");
            assertFalse(t.late());
        }
    }

    @Test
    void takeNeverSplitsATransactionAndGivesOneEvenWhenLargerThanAsked() {
        TransactionBuffer<Integer> b = new TransactionBuffer<>(TxKey.NONE, Comparator.<Integer>naturalOrder());
        TxKey a = new TxKey(10 << 16, "1.a");
        TxKey c = new TxKey(11 << 16, "1.c");
        for (int i = 0; i < 5; i++) {
            b.add(a, 10_000, i);
        }
        b.add(c, 11_000, 0);
        b.promote(10_500);
        assertEquals(5, b.readyItems());
        assertEquals(1, b.openItems(), "c is not whole yet");
        List<Transaction<Integer>> t = b.take(2);
        assertEquals(1, t.size());
        assertEquals(List.of(0, 1, 2, 3, 4), t.get(0).items());
        assertTrue(b.take(2).isEmpty());
        b.promote(10_000); // lower: ignored
        assertEquals(0, b.readyItems());
    }

    @Test
    void anLcrOfASentTransactionIsDroppedAndOneOfAReleasedTransactionGoesOnLate() {
        TxKey sent = new TxKey(10 << 16, "1.a");
        TransactionBuffer<Integer> b = new TransactionBuffer<>(sent, Comparator.<Integer>naturalOrder());
        assertEquals(Added.SENT_BEFORE, b.add(sent, 10_000, 1));
        assertEquals(Added.SENT_BEFORE, b.add(new TxKey(9 << 16, "2.z"), 9_000, 1));
        TxKey next = new TxKey(12 << 16, "1.b");
        assertEquals(Added.HELD, b.add(next, 12_000, 1));
        b.promote(13_000);
        assertEquals(next, b.take(10).get(0).key());
        assertEquals(Added.LATE, b.add(next, 12_000, 2));
        List<Transaction<Integer>> late = b.take(10);
        assertTrue(late.get(0).late());
        assertEquals(List.of(2), late.get(0).items());
    }
}
