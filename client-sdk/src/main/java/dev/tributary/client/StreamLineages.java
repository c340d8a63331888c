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
            List<StreamInfo> previous = List.of();
            for (StreamSet set : l.getSetsList()) {
                long ts = set.getTimestampMillis();
                for (StreamInfo s : set.getStreamsList()) {
                    StreamKey k = StreamKey.of(s.getStreamId().asReadOnlyByteBuffer());
                    if (s.getState() == StreamState.STREAM_STATE_OPENED || !lifetimes.containsKey(k)) {
                        lifetimes.put(k, new long[] {ts, Long.MAX_VALUE});
                        infos.put(k, s);
                        List<ByteBuffer> ps = new ArrayList<>();
                        for (StreamInfo p : previous) {
                            if (!p.getStreamId().equals(s.getStreamId()) && overlap(p, s)) {
                                ps.add(p.getStreamId().asReadOnlyByteBuffer());
                            }
                        }
                        parents.put(k, ps);
                    }
                }
                for (StreamInfo c : set.getClosedList()) {
                    long[] life = lifetimes.get(StreamKey.of(c.getStreamId().asReadOnlyByteBuffer()));
                    if (life != null && life[1] == Long.MAX_VALUE) {
                        life[1] = ts;
                    }
                }
                previous = set.getStreamsList();
            }
            for (Map.Entry<StreamKey, long[]> e : lifetimes.entrySet()) {
                StreamInfo s = infos.get(e.getKey());
                out.put(e.getKey(), new StreamDescriptor(l.getName(), s.getStreamId().asReadOnlyByteBuffer(), s.getRangeStart(),
                        s.getRangeEnd(), e.getValue()[0], e.getValue()[1], parents.get(e.getKey())));
            }
        }
        return out;
    }

    /** Whether two ring ranges (start, end] overlap; a range wraps when start >= end. */
    static boolean overlap(StreamInfo a, StreamInfo b) {
        for (long[] x : intervals(a.getRangeStart(), a.getRangeEnd())) {
            for (long[] y : intervals(b.getRangeStart(), b.getRangeEnd())) {
                if (x[0] <= y[1] && y[0] <= x[1]) {
                    return true;
                }
            }
        }
        return false;
    }

    /** (start, end] as closed linear intervals [lo, hi]. */
    private static List<long[]> intervals(long start, long end) {
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
