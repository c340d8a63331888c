package dev.tributary.capture.apply;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which of an apply's transactions may run now, and how far the apply has got. Transactions are
 * added in commit order; one may start once no earlier unfinished transaction shares a key with
 * it (a row both touch, by primary key, old or new values) and no earlier barrier (DDL, or a
 * table whose key is unknown) is unfinished; a barrier starts only when everything before it has
 * finished and nothing else runs. The low watermark is the last position at or below which every transaction has
 * finished: what the destination's progress says, plus the transactions finished above it.
 *
 * <p>Pure and single-threaded: the apply's coordinator owns it.
 */
public final class ApplySchedule {
    /** The keys a transaction touches, or a barrier that runs alone. */
    public record Keys(Set<String> keys, boolean barrier) {
        public static final Keys BARRIER = new Keys(Set.of(), true);

        public Keys {
            keys = Set.copyOf(keys);
        }

        public static Keys of(Set<String> keys) {
            return new Keys(keys, false);
        }
    }

    private static final class Entry {
        final ApplyTransaction tx;
        final Keys keys;
        boolean running;

        Entry(ApplyTransaction tx, Keys keys) {
            this.tx = tx;
            this.keys = keys;
        }
    }

    private final TreeMap<ApplyPosition, Entry> unfinished = new TreeMap<>();
    private final TreeSet<ApplyPosition> finishedAbove;
    private ApplyPosition lowWatermark;
    /** The last position the coordinator has read (added, or skipped as finished). */
    private ApplyPosition read;

    /**
     * @param lowWatermark  where the destination's progress stands
     * @param finishedAbove the transactions the destination holds above it
     */
    public ApplySchedule(ApplyPosition lowWatermark, Set<ApplyPosition> finishedAbove) {
        this.lowWatermark = lowWatermark;
        this.read = lowWatermark;
        this.finishedAbove = new TreeSet<>(finishedAbove.stream().filter(p -> p.compareTo(lowWatermark) > 0).toList());
    }

    /** Whether the destination holds this transaction already: the coordinator skips it (and says so with {@link #skip}). */
    public boolean finished(ApplyPosition p) {
        return p.compareTo(lowWatermark) <= 0 || finishedAbove.contains(p);
    }

    /**
     * The next transaction in commit order needs nothing done: the destination holds it, or
     * nothing of it is left to apply (it is older than the destination's copy).
     */
    public void skip(ApplyPosition p) {
        next(p);
        finishedAbove.add(p);
        advance();
    }

    /** Adds the next transaction in commit order. */
    public void add(ApplyTransaction tx, Keys keys) {
        next(tx.position());
        unfinished.put(tx.position(), new Entry(tx, keys));
    }

    private void next(ApplyPosition p) {
        if (p.compareTo(read) <= 0) {
            throw new IllegalArgumentException("read " + p + " after " + read + ": transactions come in commit order");
        }
        read = p;
    }

    /** The transactions that may start now, in commit order; they count as running from here. */
    public List<ApplyTransaction> startable(int limit) {
        List<ApplyTransaction> out = new ArrayList<>();
        Set<String> earlier = new HashSet<>();
        boolean first = true;
        for (Entry e : unfinished.values()) {
            if (out.size() >= limit) {
                break;
            }
            if (e.keys.barrier()) {
                // alone: after everything before it, and while nothing after it (started before it became one) runs
                if (first && !e.running && unfinished.values().stream().noneMatch(o -> o.running)) {
                    e.running = true;
                    out.add(e.tx);
                }
                break; // nothing after an unfinished barrier starts
            }
            if (!e.running && java.util.Collections.disjoint(earlier, e.keys.keys())) {
                e.running = true;
                out.add(e.tx);
            }
            earlier.addAll(e.keys.keys());
            first = false;
        }
        return out;
    }

    /** Whether every transaction before this one has finished: when it finishes, it is the low watermark. */
    public boolean firstUnfinished(ApplyPosition p) {
        return !unfinished.isEmpty() && unfinished.firstKey().equals(p);
    }

    /** A running transaction finished (applied, or put in the error queue). */
    public void finish(ApplyPosition p) {
        Entry e = unfinished.remove(p);
        if (e == null || !e.running) {
            throw new IllegalStateException("transaction " + p + " is not running");
        }
        finishedAbove.add(p);
        advance();
    }

    /**
     * A transaction that failed while it ran beside earlier ones runs again alone, once all
     * before it have finished: the failure may come from the order (a unique or foreign key the
     * destination has and the keys here do not know), and only alone is it the transaction's own.
     */
    public void retryAlone(ApplyPosition p) {
        Entry e = unfinished.get(p);
        if (e == null || !e.running) {
            throw new IllegalStateException("transaction " + p + " is not running");
        }
        unfinished.put(p, new Entry(e.tx, Keys.BARRIER));
    }

    /** Forgets what is running (the destination failed): they start again, as is. */
    public void abandonRunning() {
        unfinished.values().forEach(e -> e.running = false);
    }

    private void advance() {
        while (!finishedAbove.isEmpty()) {
            ApplyPosition next = finishedAbove.first();
            if (next.compareTo(read) > 0 || (!unfinished.isEmpty() && unfinished.firstKey().compareTo(next) < 0)) {
                return;
            }
            lowWatermark = finishedAbove.pollFirst();
        }
    }

    public ApplyPosition lowWatermark() {
        return lowWatermark;
    }

    /** The last position read from the queue: reading goes on after it. */
    public ApplyPosition read() {
        return read;
    }

    public int unfinished() {
        return unfinished.size();
    }

    public int running() {
        return (int) unfinished.values().stream().filter(e -> e.running).count();
    }
}
