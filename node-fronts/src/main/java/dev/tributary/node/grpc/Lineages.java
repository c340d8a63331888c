package dev.tributary.node.grpc;

import com.google.protobuf.ByteString;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.generations.Generation;
import dev.tributary.generations.StreamId;
import dev.tributary.generations.TabletStreamHistory;
import dev.tributary.generations.TabletStreamSet;
import dev.tributary.generations.VnodeStreams;
import dev.tributary.node.capture.GenerationRouter;
import dev.tributary.protocol.v1.StreamInfo;
import dev.tributary.protocol.v1.StreamLineage;
import dev.tributary.protocol.v1.StreamSet;
import dev.tributary.protocol.v1.StreamState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The stream sets of a log on the wire (ListStreams): the vnode generations or a table's tablet
 * stream sets, each stream with the token range it holds, so a consumer can work out which
 * streams of the set before a new stream takes keys from.
 */
final class Lineages {
    static final String VNODES = "vnodes";

    /** Which stream sets a table uses, as capture routes its changes: the lineages list the same. */
    private final GenerationRouter streamSets;
    private final MultiversionDictionary dictionary;

    Lineages(GenerationRouter streamSets, MultiversionDictionary dictionary) {
        this.streamSets = streamSets;
        this.dictionary = dictionary;
    }

    StreamLineage ofTable(TableDef t) {
        if (streamSets.usesTablets(t)) {
            return tabletLineage(t.qualifiedName(), streamSets.tabletStreams(t));
        }
        return vnodeLineage();
    }

    /** A queue may hold changes of any table: the generations, and every tablets table's sets. */
    List<StreamLineage> ofQueue() {
        List<StreamLineage> out = new ArrayList<>();
        out.add(vnodeLineage());
        for (TableDef t : dictionary.latest().tables()) {
            if (streamSets.usesTablets(t)) {
                out.add(tabletLineage(t.qualifiedName(), streamSets.tabletStreams(t)));
            }
        }
        return out;
    }

    /** The newest set's timestamp of a table's lineage (null: of a queue's), 0 when none. */
    long newestMillis(TableDef t) {
        long newest = streamSets.generations().latest().map(Generation::timestampMillis).orElse(0L);
        if (t != null) {
            if (!streamSets.usesTablets(t)) {
                return newest;
            }
            return streamSets.tabletStreams(t).map(h -> h.latest().timestampMillis()).orElse(0L);
        }
        for (TableDef table : dictionary.latest().tables()) {
            if (streamSets.usesTablets(table)) {
                newest = Math.max(newest, streamSets.tabletStreams(table).map(h -> h.latest().timestampMillis()).orElse(0L));
            }
        }
        return newest;
    }

    private StreamLineage vnodeLineage() {
        StreamLineage.Builder b = StreamLineage.newBuilder().setName(VNODES);
        List<StreamInfo> previous = List.of();
        for (Generation g : streamSets.generations().generations()) {
            List<StreamInfo> streams = new ArrayList<>();
            List<VnodeStreams> vnodes = g.vnodes();
            for (int i = 0; i < vnodes.size(); i++) {
                // a vnode holds (previous vnode's end, its end]; the first one wraps from the last
                long start = vnodes.get(i == 0 ? vnodes.size() - 1 : i - 1).rangeEnd();
                for (StreamId s : vnodes.get(i).streams()) {
                    streams.add(info(s, start, vnodes.get(i).rangeEnd(), StreamState.STREAM_STATE_OPENED));
                }
            }
            b.addSets(StreamSet.newBuilder().setTimestampMillis(g.timestampMillis()).addAllStreams(streams)
                    .addAllClosed(closed(previous)));
            previous = streams;
        }
        return b.build();
    }

    private static StreamLineage tabletLineage(String name, Optional<TabletStreamHistory> history) {
        StreamLineage.Builder b = StreamLineage.newBuilder().setName(name);
        if (history.isEmpty()) {
            return b.build();
        }
        TabletStreamSet previousSet = null;
        List<StreamInfo> previous = List.of();
        for (TabletStreamSet set : history.get().sets()) {
            List<StreamInfo> streams = new ArrayList<>();
            List<StreamId> ids = set.streams();
            for (int i = 0; i < ids.size(); i++) {
                // a tablet's stream sits at the tablet's last token: it holds (previous stream's token, its token]
                long start = ids.get(i == 0 ? ids.size() - 1 : i - 1).token();
                boolean carried = previousSet != null && previousSet.contains(ids.get(i));
                streams.add(info(ids.get(i), start, ids.get(i).token(),
                        carried ? StreamState.STREAM_STATE_CURRENT : StreamState.STREAM_STATE_OPENED));
            }
            List<StreamInfo> closed = new ArrayList<>();
            for (StreamInfo p : previous) {
                if (!set.contains(StreamId.fromBytes(p.getStreamId().toByteArray()))) {
                    closed.add(p);
                }
            }
            b.addSets(StreamSet.newBuilder().setTimestampMillis(set.timestampMillis()).addAllStreams(streams)
                    .addAllClosed(closed(closed)));
            previousSet = set;
            previous = streams;
        }
        return b.build();
    }

    private static List<StreamInfo> closed(List<StreamInfo> streams) {
        return streams.stream().map(s -> s.toBuilder().setState(StreamState.STREAM_STATE_CLOSED).build()).toList();
    }

    private static StreamInfo info(StreamId s, long start, long end, StreamState state) {
        return StreamInfo.newBuilder().setStreamId(ByteString.copyFrom(s.toBytes())).setRangeStart(start).setRangeEnd(end)
                .setState(state).build();
    }
}
