package dev.tributary.kafka.internal;

import dev.tributary.client.SnapshotHandover;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * How far a table's initial snapshot is, as the source offset of its snapshot partition records
 * it: per node (host id), its redo thread, the pieces of its rows sent so far — each the SCN it
 * was read at and the token through which its rows are sent — and whether all of them are. A
 * restarted task goes on with each node after its last sent token at a new SCN (a new piece): the
 * node snapshot that was open is gone with the call, and reading the sent tokens again would send
 * their rows twice. The pieces become the {@link SnapshotHandover}: per key, the changes after
 * the SCN its row was read at. Immutable; advancing returns a new value.
 */
public record SnapshotProgress(Map<String, Node> nodes, boolean done) {
    /** One node's progress: its thread, its pieces in token order, and whether its last piece reached the end. */
    public record Node(int redoThread, List<SnapshotHandover.Segment> segments, boolean complete) {
        public Node {
            segments = List.copyOf(segments);
        }

        /** The token after which a new read goes on, or empty to read from the start. */
        public OptionalLong resumeAfter() {
            return segments.isEmpty() ? OptionalLong.empty()
                    : OptionalLong.of(segments.get(segments.size() - 1).throughToken());
        }
    }

    public SnapshotProgress {
        nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
    }

    public static SnapshotProgress none() {
        return new SnapshotProgress(Map.of(), false);
    }

    /**
     * The node's rows through {@code token} are sent, read at {@code scn}: the node's last piece
     * when it was read at that SCN, else a new piece after it.
     */
    public SnapshotProgress sentThrough(String hostId, int redoThread, long scn, long token) {
        Node n = nodes.get(hostId);
        List<SnapshotHandover.Segment> segments = new ArrayList<>(n == null ? List.of() : n.segments());
        if (n != null && n.redoThread() != redoThread) {
            throw new IllegalStateException("node " + hostId + " answered with redo thread " + redoThread + ", but its "
                    + "snapshot so far was of thread " + n.redoThread());
        }
        if (!segments.isEmpty() && segments.get(segments.size() - 1).scn() == scn) {
            segments.set(segments.size() - 1, new SnapshotHandover.Segment(scn, token));
        } else {
            segments.add(new SnapshotHandover.Segment(scn, token));
        }
        return with(hostId, new Node(redoThread, segments, token == Long.MAX_VALUE));
    }

    /** Every row of the node is sent, the last ones read at {@code scn}. */
    public SnapshotProgress nodeComplete(String hostId, int redoThread, long scn) {
        return sentThrough(hostId, redoThread, scn, Long.MAX_VALUE);
    }

    /** Every node's rows are sent: the changes after them come next. */
    public SnapshotProgress finished() {
        for (Map.Entry<String, Node> e : nodes.entrySet()) {
            if (!e.getValue().complete()) {
                throw new IllegalStateException("the snapshot of node " + e.getKey() + " is not complete");
            }
        }
        return new SnapshotProgress(nodes, true);
    }

    public boolean complete(String hostId) {
        Node n = nodes.get(hostId);
        return n != null && n.complete();
    }

    public OptionalLong resumeAfter(String hostId) {
        Node n = nodes.get(hostId);
        return n == null ? OptionalLong.empty() : n.resumeAfter();
    }

    /** The hand-over of a finished snapshot. */
    public SnapshotHandover handover() {
        if (!done) {
            throw new IllegalStateException("the snapshot is not finished: " + encode());
        }
        Map<Integer, List<SnapshotHandover.Segment>> threads = new LinkedHashMap<>();
        for (Node n : nodes.values()) {
            threads.put(n.redoThread(), n.segments());
        }
        return SnapshotHandover.of(threads);
    }

    private SnapshotProgress with(String hostId, Node n) {
        Map<String, Node> next = new LinkedHashMap<>(nodes);
        next.put(hostId, n);
        return new SnapshotProgress(next, false);
    }

    // ---------------------------------------------------------------- the offset's form

    public static final String PROGRESS = "snapshot_progress";
    public static final String DONE = "snapshot_done";

    /** The source offset: the progress as text, and whether it is done. */
    public Map<String, Object> offset() {
        Map<String, Object> o = new LinkedHashMap<>(2);
        o.put(PROGRESS, encode());
        o.put(DONE, done);
        return o;
    }

    /** From a committed offset; none when there is no offset. */
    public static SnapshotProgress of(Map<String, Object> offset) {
        if (offset == null || offset.get(PROGRESS) == null) {
            return none();
        }
        return decode((String) offset.get(PROGRESS), Boolean.TRUE.equals(offset.get(DONE)));
    }

    /** {@code hostId/thread/scn:through,scn:through hostId/...}; a complete node's last piece goes through Long.MAX_VALUE. */
    String encode() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Node> e : nodes.entrySet()) {
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(e.getKey()).append('/').append(e.getValue().redoThread()).append('/');
            List<SnapshotHandover.Segment> segments = e.getValue().segments();
            for (int i = 0; i < segments.size(); i++) {
                b.append(i == 0 ? "" : ",").append(segments.get(i).scn()).append(':').append(segments.get(i).throughToken());
            }
        }
        return b.toString();
    }

    static SnapshotProgress decode(String text, boolean done) {
        Map<String, Node> nodes = new LinkedHashMap<>();
        try {
            for (String node : text.isBlank() ? new String[0] : text.trim().split(" ")) {
                String[] parts = node.split("/", -1);
                List<SnapshotHandover.Segment> segments = new ArrayList<>();
                for (String seg : parts[2].isEmpty() ? new String[0] : parts[2].split(",")) {
                    int colon = seg.indexOf(':');
                    segments.add(new SnapshotHandover.Segment(Long.parseLong(seg.substring(0, colon)),
                            Long.parseLong(seg.substring(colon + 1))));
                }
                boolean complete = !segments.isEmpty() && segments.get(segments.size() - 1).throughToken() == Long.MAX_VALUE;
                nodes.put(parts[0], new Node(Integer.parseInt(parts[1]), segments, complete));
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a snapshot progress offset: '" + text + "' (" + e.getMessage() + ")", e);
        }
        return new SnapshotProgress(nodes, done);
    }
}
