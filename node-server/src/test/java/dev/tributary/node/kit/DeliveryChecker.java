package dev.tributary.node.kit;

import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.client.ChangeRecord;
import dev.tributary.client.LcrPosition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The delivery kit's checker, one per consumer (or group: its members, sessions after crashes,
 * share one): its handler records every row LCR it is given; {@link #verify} then proves against
 * the workload's {@link History} that, after dedupe by position, every acknowledged write was
 * delivered at exactly one position, a write of unknown outcome at most at one, no definitely
 * refused write and no key no write produced was delivered, and per stream the LCRs first seen
 * came in strictly increasing position (SCN) order.
 * Repeats of one position (at-least-once after a crash) are counted, not failed: {@link #repeats}.
 * Thread-safe.
 */
public final class DeliveryChecker {
    public static final Comparator<LcrPosition> ORDER = Comparator.<LcrPosition>comparingLong(p -> TimeUuids.micros(p.time()))
            .thenComparing((a, b) -> Long.compareUnsigned(a.time().getLeastSignificantBits(), b.time().getLeastSignificantBits()))
            .thenComparingInt(LcrPosition::batchSeqNo);

    /** What one delivery was: its position and its key. */
    private record Delivered(LcrPosition position, int pk) {
    }

    private final Map<ByteBuffer, List<Delivered>> byStream = new ConcurrentHashMap<>();
    /** The column whose value is a write's unique key in the history. */
    private final String keyColumn;
    /** Rows each write inserts, all under its key ({@link UniqueWriters#pkCkVBatches}). */
    private final int rowsPerWrite;

    /** A checker whose writes are keyed by column {@code pk} (UniqueWriters' tables). */
    public DeliveryChecker() {
        this("pk");
    }

    /** A checker whose writes are keyed by {@code keyColumn}: each write of the history gave it a value of its own. */
    public DeliveryChecker(String keyColumn) {
        this(keyColumn, 1);
    }

    /**
     * A checker of writes that each insert {@code rowsPerWrite} rows under their key in one
     * transaction: a write is delivered whole (one LCR at a position of its own per row) or, when
     * its outcome is unknown, not at all; part of one, or more, is a problem.
     */
    public DeliveryChecker(String keyColumn, int rowsPerWrite) {
        this.keyColumn = keyColumn;
        this.rowsPerWrite = rowsPerWrite;
    }

    /** The handler's body: records a row LCR (DDL LCRs are not the workload's). */
    public void record(ChangeRecord r) {
        if (r.isDdl()) {
            return;
        }
        Object pk = r.newValues() != null ? r.newValues().get(keyColumn) : r.oldValues().get(keyColumn);
        byStream.computeIfAbsent(r.position().streamId(), k -> Collections.synchronizedList(new ArrayList<>()))
                .add(new Delivered(r.position(), ((Number) pk).intValue()));
    }

    /** The keys delivered so far (after dedupe). */
    public Set<Integer> keys() {
        Set<Integer> out = new HashSet<>();
        for (List<Delivered> l : byStream.values()) {
            synchronized (l) {
                l.forEach(d -> out.add(d.pk()));
            }
        }
        return out;
    }

    /** Whether every acknowledged write has been delivered. */
    public boolean hasAll(UniqueWriters w) {
        return keys().containsAll(w.acked);
    }

    /** LCRs handed over again at a position already delivered. */
    public int repeats() {
        int n = 0;
        for (List<Delivered> l : byStream.values()) {
            synchronized (l) {
                n += l.size() - new HashSet<>(l).size();
            }
        }
        return n;
    }

    /** A description of what is wrong, or empty when delivery was exact (see the class comment). */
    public List<String> problems(UniqueWriters w) {
        return problems(w.history);
    }

    /** As {@link #problems(UniqueWriters)}, against a history its test recorded itself. */
    public List<String> problems(History h) {
        List<String> out = new ArrayList<>();
        Map<Integer, Set<LcrPosition>> positionsOf = new HashMap<>();
        for (Map.Entry<ByteBuffer, List<Delivered>> e : byStream.entrySet()) {
            List<Delivered> l;
            synchronized (e.getValue()) {
                l = new ArrayList<>(e.getValue());
            }
            Set<LcrPosition> had = new HashSet<>();
            LcrPosition newest = null;
            for (Delivered d : l) {
                positionsOf.computeIfAbsent(d.pk(), k -> new HashSet<>()).add(d.position());
                if (had.add(d.position())) {
                    if (newest != null && ORDER.compare(newest, d.position()) >= 0) {
                        out.add("out of order in its stream: " + d.position() + " after " + newest);
                    }
                    newest = d.position();
                }
            }
        }
        TreeSet<Integer> missing = new TreeSet<>(h.ok());
        missing.removeAll(positionsOf.keySet());
        if (!missing.isEmpty()) {
            out.add(missing.size() + " acknowledged writes never delivered (gaps), e.g. " + missing.stream().limit(20).toList());
        }
        for (Map.Entry<Integer, Set<LcrPosition>> e : positionsOf.entrySet()) {
            if (h.refused().contains(e.getKey())) {
                out.add("delivered a definitely refused write: " + e.getKey() + " (" + h.whyFailed(e.getKey()) + ")");
            } else if (!h.written(e.getKey())) {
                out.add("delivered a key no write produced: " + e.getKey());
            } else if (e.getValue().size() > rowsPerWrite) {
                out.add("key " + e.getKey() + " logged at " + e.getValue().size() + " positions"
                        + (rowsPerWrite > 1 ? " for its " + rowsPerWrite + " rows" : "") + ": " + e.getValue());
            } else if (e.getValue().size() < rowsPerWrite) {
                out.add("write " + e.getKey() + " delivered in part: " + e.getValue().size() + " of its " + rowsPerWrite
                        + " rows");
            }
        }
        return out;
    }

    /** Fails with every problem found. */
    public void verify(UniqueWriters w) {
        verify(w.history);
    }

    /** Fails with every problem found against {@code h}. */
    public void verify(History h) {
        List<String> p = problems(h);
        if (!p.isEmpty()) {
            throw new AssertionError(String.join("\n", p.subList(0, Math.min(30, p.size()))) + "\n" + h.summary());
        }
    }
}
