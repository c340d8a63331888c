package dev.tributary.client;

import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.ToLongFunction;

/**
 * One stream's merge across nodes, without I/O: each node's LCRs of the stream (in position
 * order, a complete prefix below that node's safe time) are merged by position, and what lies
 * below the release bound — the lowest safe time of every node that may hold LCRs of the stream —
 * is released once, in order. An LCR at or behind the last one released is a copy (two nodes hold
 * it: a decommissioned node's handover) and is dropped. The consumer's event loop calls it; the
 * seeded simulation (ConsumerSimulationTest) drives it with fake nodes.
 */
final class StreamMerge {
    private StreamMerge() {
    }

    /** What one release took: the LCRs in position order, the last one released, and the copies dropped. */
    record Released<T>(List<T> lcrs, T last, int duplicates) {
    }

    /**
     * Takes from the nodes' buffers every LCR below {@code bound} (microseconds), merged by
     * position, after {@code lastReleased} (null: none yet).
     */
    static <T extends Comparable<T>> Released<T> release(List<? extends Deque<T>> buffers, long bound, T lastReleased,
            ToLongFunction<T> micros) {
        PriorityQueue<Deque<T>> heads = new PriorityQueue<>((a, b) -> a.peekFirst().compareTo(b.peekFirst()));
        for (Deque<T> b : buffers) {
            if (!b.isEmpty()) {
                heads.add(b);
            }
        }
        List<T> out = new ArrayList<>();
        T last = lastReleased;
        int duplicates = 0;
        while (!heads.isEmpty() && micros.applyAsLong(heads.peek().peekFirst()) < bound) {
            Deque<T> b = heads.poll();
            T h = b.pollFirst();
            if (last != null && last.compareTo(h) >= 0) {
                // the same LCR from a second node: next to its twin in the merge, or — a copy a
                // decommissioned node handed over, written below the receiver's safe time —
                // behind what was released (everything below the bound came from its first node)
                duplicates++;
            } else {
                out.add(h);
                last = h;
            }
            if (!b.isEmpty()) {
                heads.add(b);
            }
        }
        return new Released<>(out, last, duplicates);
    }

    /**
     * A member's low watermark (microseconds): every LCR of its streams below it has been
     * handled. The lowest delivered-through time over the streams not done — a stream waiting for
     * its parents counts from its set's timestamp, since earlier writes went to the parents — and
     * no later than the last listing, since a stream set not listed yet starts after it.
     */
    static long lowWatermark(long listedAtMicros, Iterable<? extends StreamProgress> streams) {
        long w = listedAtMicros;
        for (StreamProgress s : streams) {
            if (s.done()) {
                continue;
            }
            long through = s.deliveredMicros();
            if (s.waiting() && s.openedMillis() != Long.MIN_VALUE) {
                through = Math.max(through, s.openedMillis() * 1000);
            }
            w = Math.min(w, through);
        }
        return w;
    }

    /** What the watermark needs of a stream. */
    interface StreamProgress {
        boolean done();

        boolean waiting();

        /** Every LCR below this has been handled. */
        long deliveredMicros();

        /** Its stream set's timestamp; {@link Long#MIN_VALUE} for the first set or the schema stream. */
        long openedMillis();
    }
}
