package dev.tributary.generations;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The CDC streams of one table of a tablets keyspace from a timestamp on: one stream per tablet,
 * whose token is the tablet's last token, so the token of a key and of its stream lie in the same
 * tablet.
 *
 * <p>A token maps to the first stream whose token is {@code >=} it (wrapping to the first), which for
 * streams at tablet ends is the stream of the token's tablet. Immutable.
 *
 * @param timestampMillis milliseconds since the epoch from which writes use these streams
 * @param streams the streams, sorted by {@link StreamId} order (by token); tokens distinct
 */
public record TabletStreamSet(long timestampMillis, List<StreamId> streams) {

    public TabletStreamSet {
        Objects.requireNonNull(streams, "streams");
        List<StreamId> sorted = new ArrayList<>(streams);
        sorted.sort(null);
        if (sorted.isEmpty()) {
            throw new IllegalArgumentException("tablet stream set " + timestampMillis + " has no streams");
        }
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i - 1).token() == sorted.get(i).token()) {
                throw new IllegalArgumentException("tablet stream set " + timestampMillis + " has two streams at token "
                        + sorted.get(i).token() + ": " + sorted.get(i - 1) + " and " + sorted.get(i));
            }
        }
        streams = List.copyOf(sorted);
    }

    /**
     * New streams for the tablets of {@code map}: for each tablet a version-1 stream at its last
     * token with index 0 and random bits from {@code rnd}, as ScyllaDB creates them.
     */
    public static TabletStreamSet create(long timestampMillis, TabletMap map, RandomGenerator rnd) {
        Objects.requireNonNull(map, "map");
        Objects.requireNonNull(rnd, "rnd");
        List<StreamId> streams = new ArrayList<>(map.tabletCount());
        for (int tablet = 0; tablet < map.tabletCount(); tablet++) {
            streams.add(StreamId.create(map.lastToken(tablet), 0, rnd));
        }
        return new TabletStreamSet(timestampMillis, streams);
    }

    /** The stream a write of a key with this token goes to. */
    public StreamId streamFor(long token) {
        int lo = 0;
        int hi = streams.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (streams.get(mid).token() < token) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return streams.get(lo == streams.size() ? 0 : lo);
    }

    /** Whether {@code stream} is one of this set's streams. */
    public boolean contains(StreamId stream) {
        return Collections.binarySearch(streams, Objects.requireNonNull(stream, "stream")) >= 0;
    }
}
