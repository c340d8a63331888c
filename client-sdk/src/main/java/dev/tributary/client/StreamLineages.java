package dev.tributary.client;

import dev.tributary.protocol.v1.ListStreamsResponse;
import dev.tributary.protocol.v1.StreamInfo;
import dev.tributary.protocol.v1.StreamLineage;
import dev.tributary.protocol.v1.StreamSet;
import dev.tributary.protocol.v1.StreamState;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a ListStreams answer into one {@link StreamDescriptor} per stream: when it opened and
 * closed, and its parents — the streams of the set before whose token ranges overlap its own.
 */
final class StreamLineages {
    static final String SCHEMA = "schema";

    private StreamLineages() {
    }

    /** Descriptors by stream key, the schema stream first, then each lineage oldest set first. */
    static Map<StreamKey, StreamDescriptor> describe(ListStreamsResponse r) {
        Map<StreamKey, StreamDescriptor> out = new LinkedHashMap<>();
        ByteBuffer schema = r.getSchemaStream().asReadOnlyByteBuffer();
        out.put(StreamKey.of(schema), new StreamDescriptor(SCHEMA, schema, 0, 0, Long.MIN_VALUE, Long.MAX_VALUE, List.of()));
        for (StreamLineage l : r.getLineagesList()) {
            Map<StreamKey, long[]> lifetimes = new LinkedHashMap<>();
            Map<StreamKey, StreamInfo> infos = new LinkedHashMap<>();
            Map<StreamKey, List<ByteBuffer>> parents = new LinkedHashMap<>();
            RangeIndex previous = new RangeIndex(List.of());
            for (StreamSet set : l.getSetsList()) {
                long ts = set.getTimestampMillis();
                for (StreamInfo s : set.getStreamsList()) {
                    StreamKey k = StreamKey.of(s.getStreamId().asReadOnlyByteBuffer());
                    if (s.getState() == StreamState.STREAM_STATE_OPENED || !lifetimes.containsKey(k)) {
                        lifetimes.put(k, new long[] {ts, Long.MAX_VALUE});
                        infos.put(k, s);
                        parents.put(k, previous.overlapping(s));
                    }
                }
                for (StreamInfo c : set.getClosedList()) {
                    long[] life = lifetimes.get(StreamKey.of(c.getStreamId().asReadOnlyByteBuffer()));
                    if (life != null && life[1] == Long.MAX_VALUE) {
                        life[1] = ts;
                    }
                }
                previous = new RangeIndex(set.getStreamsList());
            }
            for (Map.Entry<StreamKey, long[]> e : lifetimes.entrySet()) {
                StreamInfo s = infos.get(e.getKey());
                out.put(e.getKey(), new StreamDescriptor(l.getName(), s.getStreamId().asReadOnlyByteBuffer(), s.getRangeStart(),
                        s.getRangeEnd(), e.getValue()[0], e.getValue()[1], parents.get(e.getKey())));
            }
        }
        return out;
    }

    /**
     * One set's streams by range, to find those overlapping a range in O(log n + matches) rather
     * than by comparing every pair: a listing after a few joins of 256-token nodes holds thousands
     * of streams per set, and the consumer lists again every few seconds.
     */
    private static final class RangeIndex {
        private final long[] lo;
        private final long[] hi;
        /** The highest {@code hi} among intervals 0..i: below the first whose value is under a query's lo, none overlaps it. */
        private final long[] maxHi;
        private final StreamInfo[] streams;

        RangeIndex(List<StreamInfo> set) {
            List<Object[]> parts = new ArrayList<>();
            for (StreamInfo s : set) {
                for (long[] x : intervals(s.getRangeStart(), s.getRangeEnd())) {
                    parts.add(new Object[] {x, s});
                }
            }
            parts.sort((a, b) -> Long.compare(((long[]) a[0])[0], ((long[]) b[0])[0]));
            int n = parts.size();
            lo = new long[n];
            hi = new long[n];
            maxHi = new long[n];
            streams = new StreamInfo[n];
            for (int i = 0; i < n; i++) {
                long[] x = (long[]) parts.get(i)[0];
                lo[i] = x[0];
                hi[i] = x[1];
                maxHi[i] = i == 0 ? x[1] : Math.max(maxHi[i - 1], x[1]);
                streams[i] = (StreamInfo) parts.get(i)[1];
            }
        }

        /** The streams (other than {@code s} itself) whose ranges overlap s's, each once, in set order of their ranges. */
        List<ByteBuffer> overlapping(StreamInfo s) {
            Map<StreamKey, ByteBuffer> out = new LinkedHashMap<>();
            for (long[] q : intervals(s.getRangeStart(), s.getRangeEnd())) {
                int end = upperBound(q[1]); // intervals [0, end) start at or before q's end
                for (int i = end - 1; i >= 0 && maxHi[i] >= q[0]; i--) {
                    if (hi[i] >= q[0] && !streams[i].getStreamId().equals(s.getStreamId())) {
                        ByteBuffer id = streams[i].getStreamId().asReadOnlyByteBuffer();
                        out.putIfAbsent(StreamKey.of(id), id);
                    }
                }
            }
            return new ArrayList<>(out.values());
        }

        /** The first index whose lo is above {@code v}. */
        private int upperBound(long v) {
            int a = 0;
            int b = lo.length;
            while (a < b) {
                int m = (a + b) >>> 1;
                if (lo[m] <= v) {
                    a = m + 1;
                } else {
                    b = m;
                }
            }
            return a;
        }
    }

    /** (start, end] as closed linear intervals [lo, hi]. */
    static List<long[]> intervals(long start, long end) {
        List<long[]> out = new ArrayList<>(2);
        if (start < end) {
            out.add(new long[] {start + 1, end});
        } else {
            if (start != Long.MAX_VALUE) {
                out.add(new long[] {start + 1, Long.MAX_VALUE});
            }
            out.add(new long[] {Long.MIN_VALUE, end});
        }
        return out;
    }
}
