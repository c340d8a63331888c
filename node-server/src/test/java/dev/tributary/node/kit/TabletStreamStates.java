package dev.tributary.node.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.generations.StreamId;
import dev.tributary.generations.TabletMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The stream sets of table {@code ks.t} of a tablets keyspace as {@code system.cdc_streams} and
 * {@code system.cdc_timestamps} show them (CDC-TAB-2, CDC-TAB-3), and the check that they form a
 * valid history: each set one stream per tablet at its tablet's last token, and at each timestamp
 * the streams the previous set had and this one lacks CLOSED (1), the ones it adds OPENED (2).
 */
public final class TabletStreamStates {
    /** stream_state of system.cdc_streams, as the seed numbers them. */
    public static final long CURRENT = 0;
    public static final long CLOSED = 1;
    public static final long OPENED = 2;

    /** One row of system.cdc_streams. */
    public record Entry(long timestampMillis, long state, StreamId stream) {
    }

    /** The rows of ks.t, and the timestamps of system.cdc_timestamps in the order it lists them. */
    public record Read(List<Entry> rows, List<Long> timestamps) {
        /** timestamp → state → the streams listed with that state. */
        public NavigableMap<Long, Map<Long, Set<StreamId>>> byTimestamp() {
            NavigableMap<Long, Map<Long, Set<StreamId>>> out = new TreeMap<>();
            for (Entry e : rows) {
                out.computeIfAbsent(e.timestampMillis(), k -> new TreeMap<>())
                        .computeIfAbsent(e.state(), k -> new TreeSet<>()).add(e.stream());
            }
            return out;
        }

        /** The current streams of each timestamp, by their token (ChurnIT's stream sets). */
        public NavigableMap<Long, NavigableMap<Long, Set<StreamId>>> currentSets() {
            NavigableMap<Long, NavigableMap<Long, Set<StreamId>>> out = new TreeMap<>();
            for (Entry e : rows) {
                if (e.state() == CURRENT) {
                    out.computeIfAbsent(e.timestampMillis(), k -> new TreeMap<>()).put(e.stream().token(), Set.of(e.stream()));
                }
            }
            return out;
        }
    }

    private TabletStreamStates() {
    }

    private static final String STREAMS = "SELECT timestamp, stream_state, stream_id FROM system.cdc_streams "
            + "WHERE keyspace_name = 'ks' AND table_name = 't'";
    private static final String TIMESTAMPS = "SELECT timestamp FROM system.cdc_timestamps "
            + "WHERE keyspace_name = 'ks' AND table_name = 't'";

    /** Reads ks.t's rows through the raw wire. */
    public static Read read(dev.tributary.node.TestNodes.Wire w) {
        List<Entry> rows = new ArrayList<>();
        for (dev.tributary.protocol.v1.Row r : w.exec(STREAMS).getRowsList()) {
            rows.add(new Entry(r.getValues(0).getTimestampMillis(), r.getValues(1).getInteger(),
                    StreamId.fromBytes(r.getValues(2).getBlob().toByteArray())));
        }
        List<Long> timestamps = w.exec(TIMESTAMPS).getRowsList().stream().map(r -> r.getValues(0).getTimestampMillis()).toList();
        return new Read(rows, timestamps);
    }

    /** Reads ks.t's rows through the SDK. */
    public static Read read(dev.tributary.client.TributaryClient client) {
        List<Entry> rows = new ArrayList<>();
        for (dev.tributary.client.Row r : client.execute(STREAMS)) {
            java.nio.ByteBuffer b = r.getBytes(2);
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            rows.add(new Entry(r.getInstant(0).toEpochMilli(), ((Number) r.getObject(1)).longValue(), StreamId.fromBytes(bytes)));
        }
        List<Long> timestamps = client.execute(TIMESTAMPS).all().stream().map(r -> r.getInstant(0).toEpochMilli()).toList();
        return new Read(rows, timestamps);
    }

    /**
     * Asserts the history is valid and its sets have {@code tabletCounts} streams, oldest first:
     * system.cdc_timestamps lists exactly the sets' timestamps, newest first; each set has one
     * current stream per tablet, at that tablet's last token; the first set's streams are all
     * OPENED and none CLOSED; at each later timestamp CLOSED is exactly the previous set less this
     * one and OPENED exactly this one less the previous; and no row has another state.
     */
    public static void verify(Read read, List<Integer> tabletCounts) {
        NavigableMap<Long, Map<Long, Set<StreamId>>> by = read.byTimestamp();
        List<Long> ascending = new ArrayList<>(by.keySet());
        assertEquals(tabletCounts.size(), ascending.size(), "stream sets (of " + tabletCounts + " tablets): " + by);
        List<Long> newestFirst = new ArrayList<>(ascending);
        java.util.Collections.reverse(newestFirst);
        assertEquals(newestFirst, read.timestamps(), "system.cdc_timestamps: the sets' timestamps, newest first");
        Set<StreamId> previous = Set.of();
        for (int i = 0; i < ascending.size(); i++) {
            long ts = ascending.get(i);
            Map<Long, Set<StreamId>> states = by.get(ts);
            Set<Long> unknownStates = new TreeSet<>(states.keySet());
            unknownStates.removeAll(Set.of(CURRENT, CLOSED, OPENED));
            assertEquals(Set.of(), unknownStates, "states at " + ts);
            Set<StreamId> current = states.getOrDefault(CURRENT, Set.of());
            int tablets = tabletCounts.get(i);
            TabletMap map = TabletMap.create(tablets, List.of("n"));
            Set<Long> lastTokens = new TreeSet<>();
            for (int t = 0; t < tablets; t++) {
                lastTokens.add(map.lastToken(t));
            }
            Set<Long> tokens = new TreeSet<>();
            current.forEach(s -> tokens.add(s.token()));
            assertEquals(tablets, current.size(), "set " + i + " at " + ts + ": one current stream per tablet");
            assertEquals(lastTokens, tokens, "set " + i + " at " + ts + ": each stream at its tablet's last token");
            Set<StreamId> closed = new HashSet<>(previous);
            closed.removeAll(current);
            Set<StreamId> opened = new HashSet<>(current);
            opened.removeAll(previous);
            assertEquals(closed, new HashSet<>(states.getOrDefault(CLOSED, Set.of())),
                    "set " + i + " at " + ts + ": CLOSED is every stream of the previous set it no longer has");
            assertEquals(opened, new HashSet<>(states.getOrDefault(OPENED, Set.of())),
                    "set " + i + " at " + ts + ": OPENED is every stream it adds");
            previous = current;
        }
    }
}
