package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import dev.tributary.protocol.v1.ListStreamsResponse;
import dev.tributary.protocol.v1.StreamInfo;
import dev.tributary.protocol.v1.StreamLineage;
import dev.tributary.protocol.v1.StreamSet;
import dev.tributary.protocol.v1.StreamState;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StreamLineagesTest {
    private static StreamInfo s(int id, long start, long end, StreamState state) {
        return StreamInfo.newBuilder().setStreamId(ByteString.copyFrom(ByteBuffer.allocate(16).putLong(id).putLong(id).array()))
                .setRangeStart(start).setRangeEnd(end).setState(state).build();
    }

    private static StreamKey k(int id) {
        return new StreamKey(id, id);
    }

    private static Set<StreamKey> parents(Map<StreamKey, StreamDescriptor> d, int id) {
        return d.get(k(id)).parents().stream().map(StreamKey::of).collect(Collectors.toSet());
    }

    @Test
    @DisplayName("CDC-TAB-4: a split 2 → 4 gives each new stream the old stream whose range holds it; the old ones close "
            + "at the new set's timestamp; a wrapping range overlaps both ends of the ring")
    void tabletSplit() {
        // seed: CDC-TAB-4
        long mid = 0;
        StreamSet first = StreamSet.newBuilder().setTimestampMillis(100)
                .addStreams(s(1, Long.MAX_VALUE, mid, StreamState.STREAM_STATE_OPENED))
                .addStreams(s(2, mid, Long.MAX_VALUE, StreamState.STREAM_STATE_OPENED)).build();
        StreamSet second = StreamSet.newBuilder().setTimestampMillis(200)
                .addStreams(s(3, Long.MAX_VALUE, -1000, StreamState.STREAM_STATE_OPENED))
                .addStreams(s(4, -1000, mid, StreamState.STREAM_STATE_OPENED))
                .addStreams(s(5, mid, 1000, StreamState.STREAM_STATE_OPENED))
                .addStreams(s(6, 1000, Long.MAX_VALUE, StreamState.STREAM_STATE_OPENED))
                .addClosed(s(1, Long.MAX_VALUE, mid, StreamState.STREAM_STATE_CLOSED))
                .addClosed(s(2, mid, Long.MAX_VALUE, StreamState.STREAM_STATE_CLOSED)).build();
        Map<StreamKey, StreamDescriptor> d = StreamLineages.describe(ListStreamsResponse.newBuilder()
                .setSchemaStream(ByteString.copyFrom(new byte[16]))
                .addLineages(StreamLineage.newBuilder().setName("ks.t").addSets(first).addSets(second)).build());
        assertEquals(7, d.size(), "the schema stream and six streams");
        assertEquals(Set.of(), parents(d, 1));
        assertEquals(Set.of(k(1)), parents(d, 3));
        assertEquals(Set.of(k(1)), parents(d, 4));
        assertEquals(Set.of(k(2)), parents(d, 5));
        assertEquals(Set.of(k(2)), parents(d, 6));
        assertEquals(200, d.get(k(1)).closedMillis());
        assertEquals(100, d.get(k(1)).openedMillis());
        assertEquals(Long.MAX_VALUE, d.get(k(5)).closedMillis());
        assertEquals(200, d.get(k(5)).openedMillis());
    }

    @Test
    @DisplayName("CDC-GEN-3: vnode generations: a new vnode's stream has as parents every old stream whose vnode overlaps "
            + "it, including across the wrap-around")
    void vnodeGenerations() {
        // seed: CDC-GEN-3
        StreamSet g1 = StreamSet.newBuilder().setTimestampMillis(10)
                .addStreams(s(1, 500, -500, StreamState.STREAM_STATE_OPENED))
                .addStreams(s(2, -500, 500, StreamState.STREAM_STATE_OPENED)).build();
        StreamSet g2 = StreamSet.newBuilder().setTimestampMillis(20)
                .addStreams(s(3, 900, -900, StreamState.STREAM_STATE_OPENED))
                .addStreams(s(4, -900, 0, StreamState.STREAM_STATE_OPENED))
                .addStreams(s(5, 0, 900, StreamState.STREAM_STATE_OPENED))
                .addAllClosed(List.of(s(1, 500, -500, StreamState.STREAM_STATE_CLOSED),
                        s(2, -500, 500, StreamState.STREAM_STATE_CLOSED))).build();
        Map<StreamKey, StreamDescriptor> d = StreamLineages.describe(ListStreamsResponse.newBuilder()
                .setSchemaStream(ByteString.copyFrom(new byte[16]))
                .addLineages(StreamLineage.newBuilder().setName("vnodes").addSets(g1).addSets(g2)).build());
        assertEquals(Set.of(k(1)), parents(d, 3), "(900, -900] wraps and lies inside (500, -500]");
        assertEquals(Set.of(k(1), k(2)), parents(d, 4));
        assertEquals(Set.of(k(1), k(2)), parents(d, 5));
    }

    /** The reference: every pair compared, as (start, end] ring ranges. */
    private static boolean overlap(StreamInfo a, StreamInfo b) {
        for (long[] x : StreamLineages.intervals(a.getRangeStart(), a.getRangeEnd())) {
            for (long[] y : StreamLineages.intervals(b.getRangeStart(), b.getRangeEnd())) {
                if (x[0] <= y[1] && y[0] <= x[1]) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    @DisplayName("CDC-GEN-2: the parents found through the range index are exactly the overlapping streams, for random "
            + "vnode sets (several streams per range, wrapping ranges) one after another")
    void parentsMatchPairwiseOverlap() {
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 20; round++) {
            StreamLineage.Builder lineage = StreamLineage.newBuilder().setName("ks.t");
            List<List<StreamInfo>> sets = new java.util.ArrayList<>();
            int id = 1;
            for (int set = 0; set < 3; set++) {
                java.util.TreeSet<Long> tokens = new java.util.TreeSet<>();
                int vnodes = 1 + random.nextInt(40);
                while (tokens.size() < vnodes) {
                    tokens.add(random.nextLong());
                }
                List<Long> t = List.copyOf(tokens);
                List<StreamInfo> streams = new java.util.ArrayList<>();
                for (int v = 0; v < t.size(); v++) {
                    long end = t.get(v);
                    long start = t.get((v + t.size() - 1) % t.size()); // the first vnode wraps from the last token
                    for (int shard = 0; shard < 1 + random.nextInt(3); shard++) {
                        streams.add(s(id++, start, end, StreamState.STREAM_STATE_CURRENT));
                    }
                }
                sets.add(streams);
                lineage.addSets(StreamSet.newBuilder().setTimestampMillis(100L * (set + 1)).addAllStreams(streams));
            }
            Map<StreamKey, StreamDescriptor> d = StreamLineages.describe(ListStreamsResponse.newBuilder()
                    .setSchemaStream(ByteString.copyFrom(new byte[16])).addLineages(lineage).build());
            for (int set = 1; set < sets.size(); set++) {
                for (StreamInfo child : sets.get(set)) {
                    Set<StreamKey> expected = sets.get(set - 1).stream().filter(p -> overlap(p, child))
                            .map(p -> StreamKey.of(p.getStreamId().asReadOnlyByteBuffer())).collect(Collectors.toSet());
                    StreamKey key = StreamKey.of(child.getStreamId().asReadOnlyByteBuffer());
                    assertEquals(expected, d.get(key).parents().stream().map(StreamKey::of).collect(Collectors.toSet()));
                    assertEquals(expected.size(), d.get(key).parents().size(), "each parent once");
                }
            }
        }
    }
}
