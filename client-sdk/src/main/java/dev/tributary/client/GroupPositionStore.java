package dev.tributary.client;

import com.google.protobuf.ByteString;
import dev.tributary.protocol.v1.StreamPosition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link PositionStore} of one consumer group session (one epoch's share): the group's
 * committed positions as last fetched, and what this member handled on top of them. A stream
 * resumes from whichever is further; {@link #deliveredThrough} of a stream another member reads
 * is that member's committed progress, so a child stream of ours waits for its parent there.
 * Thread-safe.
 */
final class GroupPositionStore implements PositionStore {
    /** How far a stream is handled: the last LCR (null when none) and the time everything below is handled by. */
    record Progress(LcrPosition last, long through) {
        /** The further of two; a later through means a longer prefix handled. */
        static Progress further(Progress a, Progress b) {
            if (a == null) {
                return b;
            }
            if (b == null) {
                return a;
            }
            Progress f = b.through > a.through ? b : a;
            // an empty delivery (no LCR, only the safe time moved) keeps the last LCR known
            return f.last != null ? f : new Progress(a.last != null ? a.last : b.last, f.through);
        }

        static Progress fromWire(StreamPosition p) {
            return new Progress(p.hasLast() ? Lcrs.toPosition(p.getLast(), "committed position") : null, p.getThroughMicros());
        }

        StreamPosition toWire(StreamKey stream) {
            StreamPosition.Builder b = StreamPosition.newBuilder().setStreamId(ByteString.copyFrom(stream.bytes()))
                    .setThroughMicros(through);
            if (last != null) {
                b.setLast(Lcrs.toWire(last));
            }
            return b.build();
        }
    }

    private final Map<StreamKey, Progress> committed = new ConcurrentHashMap<>();
    private final Map<StreamKey, Progress> local = new ConcurrentHashMap<>();
    private final Set<StreamKey> dirty = ConcurrentHashMap.newKeySet();

    /**
     * @param committed the group's committed positions
     * @param handled   what this member handled in earlier sessions (it resumes after that, not
     *                  before: it does not hand its handler the same LCRs again)
     */
    GroupPositionStore(List<StreamPosition> committed, Map<StreamKey, Progress> handled) {
        refresh(committed);
        local.putAll(handled);
    }

    /** Takes in a newer fetch of the committed positions. */
    void refresh(List<StreamPosition> positions) {
        for (StreamPosition p : positions) {
            committed.merge(StreamKey.of(p.getStreamId().asReadOnlyByteBuffer()), Progress.fromWire(p), Progress::further);
        }
    }

    private Progress best(StreamKey k) {
        return Progress.further(committed.get(k), local.get(k));
    }

    @Override
    public Optional<LcrPosition> load(ByteBuffer streamId) {
        Progress p = best(StreamKey.of(streamId));
        return p == null ? Optional.empty() : Optional.ofNullable(p.last());
    }

    @Override
    public void delivered(ByteBuffer streamId, LcrPosition last, long throughMicros) {
        StreamKey k = StreamKey.of(streamId);
        Progress base = best(k);
        local.merge(k, Progress.further(base, new Progress(last, throughMicros)), Progress::further);
        dirty.add(k);
    }

    @Override
    public long deliveredThrough(ByteBuffer streamId) {
        Progress p = best(StreamKey.of(streamId));
        return p == null ? Long.MIN_VALUE : p.through();
    }

    /** The positions handled since the last call, to commit; {@link #unsent} puts them back when the commit failed. */
    List<StreamPosition> takeDirty() {
        List<StreamPosition> out = new ArrayList<>();
        for (StreamKey k : List.copyOf(dirty)) {
            dirty.remove(k);
            out.add(local.get(k).toWire(k));
        }
        return out;
    }

    void unsent(List<StreamPosition> positions) {
        for (StreamPosition p : positions) {
            dirty.add(StreamKey.of(p.getStreamId().asReadOnlyByteBuffer()));
        }
    }

    /** What this member handled (in this session and those it was seeded with). */
    Map<StreamKey, Progress> handled() {
        return Map.copyOf(local);
    }
}
