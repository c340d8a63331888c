package dev.tributary.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Where a table's snapshot hands over to its change streams, with no gap and no overlap: which
 * row LCRs come after the rows read. Each node's rows were read as of SCNs of its own redo thread
 * ({@link SnapshotPoint}); a key's row lives on one node, and its changes are committed, and
 * captured, by that node's thread, so a row LCR follows the snapshot exactly when its commit SCN
 * is above the SCN its key's row was read at on the thread that captured it.
 *
 * <p>A node's rows may have been read in several pieces (a read that failed or was interrupted
 * goes on after its last complete token, at a new SCN): each piece is a {@link Segment}, the rows
 * with a token up to its {@code throughToken} (and above the segment before) as of its SCN. With
 * one segment per thread the token is not needed; with several it is computed from the key.
 *
 * <p>An LCR of a thread that took no snapshot (a node that joined later) follows it: its rows came
 * to it by range streaming, already in another node's snapshot, and each change it commits is
 * newer. Immutable and thread-safe.
 */
public final class SnapshotHandover {
    /** Rows with a token above the previous segment's {@code throughToken} and up to this one's, as of {@code scn}. */
    public record Segment(long scn, long throughToken) {
    }

    private final Map<Integer, List<Segment>> threads;

    private SnapshotHandover(Map<Integer, List<Segment>> threads) {
        this.threads = threads;
    }

    /**
     * The hand-over of a complete snapshot: per redo thread, its segments in token order, the last
     * one through {@link Long#MAX_VALUE}.
     */
    public static SnapshotHandover of(Map<Integer, List<Segment>> threads) {
        Map<Integer, List<Segment>> copy = new TreeMap<>();
        for (Map.Entry<Integer, List<Segment>> e : threads.entrySet()) {
            List<Segment> segments = List.copyOf(e.getValue());
            if (segments.isEmpty() || segments.get(segments.size() - 1).throughToken() != Long.MAX_VALUE) {
                throw new IllegalArgumentException("the snapshot of redo thread " + e.getKey() + " is not complete: "
                        + segments + " (its last segment must go through the ring's last token)");
            }
            for (int i = 1; i < segments.size(); i++) {
                if (segments.get(i).throughToken() <= segments.get(i - 1).throughToken()) {
                    throw new IllegalArgumentException("the segments of redo thread " + e.getKey() + " are not in token order: "
                            + segments);
                }
            }
            copy.put(e.getKey(), segments);
        }
        return new SnapshotHandover(Collections.unmodifiableMap(copy));
    }

    /** The segments by redo thread. */
    public Map<Integer, List<Segment>> threads() {
        return threads;
    }

    /**
     * Where a reader's change streams may start: the lowest snapshot SCN's physical time in
     * milliseconds. A change is logged no earlier than its commit SCN's time, so no LCR that
     * follows the snapshot lies before it.
     */
    public long startMillis() {
        long min = Long.MAX_VALUE;
        for (List<Segment> segments : threads.values()) {
            for (Segment s : segments) {
                min = Math.min(min, s.scn() >>> 16);
            }
        }
        return min == Long.MAX_VALUE ? 0 : min;
    }

    /**
     * True when the LCR comes after the snapshot: a row LCR when its commit SCN is above the SCN
     * its key's row was read at on its thread; a DDL LCR when above its thread's lowest snapshot
     * SCN. {@code token} gives the token of a row LCR's partition key; it is asked only when its
     * thread's rows were read in several segments, and an empty answer then is an error.
     *
     * @throws IllegalArgumentException for an LCR without a position (its thread is unknown) or a
     *                                  token needed and not given
     */
    public boolean follows(ChangeRecord lcr, Supplier<OptionalLong> token) {
        if (lcr.position() == null) {
            throw new IllegalArgumentException("an LCR without a position has no redo thread: " + lcr.transactionId());
        }
        List<Segment> segments = threads.get(redoThread(lcr.position()));
        if (segments == null) {
            return true;
        }
        if (!lcr.isRow()) {
            long lowest = Long.MAX_VALUE;
            for (Segment s : segments) {
                lowest = Math.min(lowest, s.scn());
            }
            return lcr.commitScn() > lowest;
        }
        if (segments.size() == 1) {
            return lcr.commitScn() > segments.get(0).scn();
        }
        OptionalLong t = token.get();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("the row LCR at " + lcr.position() + " of " + lcr.objectOwner() + "."
                    + lcr.objectName() + " needs its key's token (its node's rows were read in " + segments.size()
                    + " segments) and none could be computed");
        }
        return lcr.commitScn() > segmentOf(segments, t.getAsLong()).scn();
    }

    private static Segment segmentOf(List<Segment> segments, long token) {
        for (Segment s : segments) {
            if (token <= s.throughToken()) {
                return s;
            }
        }
        return segments.get(segments.size() - 1); // unreachable: the last goes through Long.MAX_VALUE
    }

    /**
     * The redo thread that captured an LCR: bits 52-61 of its position's timeuuid low half
     * (the rest of it is the commit SCN's low bits, which makes positions unique per thread).
     */
    public static int redoThread(LcrPosition position) {
        return (int) ((position.time().getLeastSignificantBits() >>> 52) & 0x3FF);
    }

    /** Segments for one thread read in one piece. */
    public static List<Segment> whole(long scn) {
        List<Segment> one = new ArrayList<>(1);
        one.add(new Segment(scn, Long.MAX_VALUE));
        return one;
    }

    @Override
    public String toString() {
        return "SnapshotHandover" + threads;
    }
}
