package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.generations.StreamId;
import dev.tributary.generations.TabletMap;
import dev.tributary.node.kit.TabletStreamStates;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Row;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Scylla seed's "Example: Tablet Split", as written, on a real node. */
@Timeout(120)
class TabletSplitIT {
    private static List<StreamId> logStreams(TestNodes.Wire w) {
        return w.exec("SELECT \"cdc$stream_id\", pk FROM ks.t_scylla_cdc_log").getRowsList().stream()
                .map(r -> StreamId.fromBytes(r.getValues(0).getBlob().toByteArray())).toList();
    }

    /** stream_state → how many rows, per timestamp. */
    private static Map<Long, Map<Long, Long>> stateCounts(ExecuteResponse streams) {
        Map<Long, Map<Long, Long>> out = new TreeMap<>();
        for (Row r : streams.getRowsList()) {
            out.computeIfAbsent(r.getValues(2).getTimestampMillis(), k -> new TreeMap<>())
                    .merge(r.getValues(3).getInteger(), 1L, Long::sum);
        }
        return out;
    }

    @Test
    @DisplayName("CDC-TAB-1 CDC-TAB-2 CDC-TAB-3 CDC-TAB-4: min_tablet_count 2 → one stream set of 2 streams (4 rows); split to 4 → 2 timestamps and 14 rows with states 0, 1 and 2; the new write lands in a new stream of its tablet; merged back to 2 → 3 timestamps and 22 rows, the 4 closed, 2 opened, and the next write lands in an opened stream")
    void tabletSplit(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1} "
                    + "AND tablets = {'enabled': true}");
            w.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true} "
                    + "AND tablets = {'min_tablet_count': 2}");
            w.exec("INSERT INTO ks.t (pk, ck, v) values (0,0,0)");

            ExecuteResponse ts = w.exec("SELECT * FROM system.cdc_timestamps");
            assertEquals(List.of("keyspace_name", "table_name", "timestamp"),
                    ts.getColumnsList().stream().map(c -> c.getName()).toList());
            assertEquals(1, ts.getRowsCount());
            ExecuteResponse streams = w.exec("SELECT * FROM system.cdc_streams");
            assertEquals(List.of("keyspace_name", "table_name", "timestamp", "stream_state", "stream_id"),
                    streams.getColumnsList().stream().map(c -> c.getName()).toList());
            assertEquals(4, streams.getRowsCount());
            assertEquals(Map.of(0L, 2L, 2L, 2L), stateCounts(streams).values().iterator().next(),
                    "two current streams, both newly opened");
            TabletMap two = TabletMap.create(2, List.of("n"));
            assertEquals(java.util.Set.of(two.lastToken(0), two.lastToken(1)), streams.getRowsList().stream()
                    .map(r -> StreamId.fromBytes(r.getValues(4).getBlob().toByteArray()).token()).collect(Collectors.toSet()),
                    "each stream's token is its tablet's last token (0xffffffffffffffff.., 0x7fffffffffffffff..)");
            TestNodes.await(() -> logStreams(w).size() == 1, Duration.ofSeconds(20), "the first LCR");
            long token = w.exec("SELECT token(pk) FROM ks.t WHERE pk = 0").getRows(0).getValues(0).getInteger();
            StreamId first = logStreams(w).get(0);
            assertEquals(two.lastToken(two.tabletOf(token)), first.token(), "token(pk) and the stream in one tablet");

            w.exec("ALTER TABLE ks.t WITH tablets={'min_tablet_count':4}");
            TestNodes.await(() -> w.exec("SELECT * FROM system.cdc_timestamps").getRowsCount() == 2, Duration.ofSeconds(20),
                    "a new CDC timestamp");
            List<Long> times = w.exec("SELECT * FROM system.cdc_timestamps").getRowsList().stream()
                    .map(r -> r.getValues(2).getTimestampMillis()).toList();
            assertTrue(times.get(0) > times.get(1), "descending order");
            ExecuteResponse after = w.exec("SELECT * FROM system.cdc_streams");
            assertEquals(14, after.getRowsCount());
            Map<Long, Map<Long, Long>> counts = stateCounts(after);
            assertEquals(Map.of(0L, 2L, 2L, 2L), counts.get(times.get(1)));
            assertEquals(Map.of(0L, 4L, 1L, 2L, 2L, 4L), counts.get(times.get(0)), "4 current, the old 2 closed, 4 opened");

            TestNodes.await(() -> System.currentTimeMillis() >= times.get(0), Duration.ofSeconds(20), "the new stream set");
            w.exec("INSERT INTO ks.t (pk, ck, v) values (0,0,0)");
            TestNodes.await(() -> logStreams(w).size() == 2, Duration.ofSeconds(20), "the second LCR");
            TabletMap four = TabletMap.create(4, List.of("n"));
            // as in the seed, the old and the new stream of pk 0 share their high half (both tablets end at -1)
            StreamId newer = logStreams(w).stream().filter(s -> !s.equals(first)).findFirst().orElseThrow();
            assertEquals(four.lastToken(four.tabletOf(token)), newer.token(), "the new entry is in one of the new streams");
            assertTrue(after.getRowsList().stream().anyMatch(r -> r.getValues(3).getInteger() == 2
                    && StreamId.fromBytes(r.getValues(4).getBlob().toByteArray()).equals(newer)), "an opened stream of the new set");
            TabletStreamStates.verify(TabletStreamStates.read(w), List.of(2, 4));

            // the merge, as the seed's states describe it: 2 current, the 4 of the split closed, 2 opened
            w.exec("ALTER TABLE ks.t WITH tablets={'min_tablet_count':2}");
            TestNodes.await(() -> w.exec("SELECT * FROM system.cdc_timestamps").getRowsCount() == 3, Duration.ofSeconds(20),
                    "a third CDC timestamp");
            long merged = w.exec("SELECT * FROM system.cdc_timestamps").getRows(0).getValues(2).getTimestampMillis();
            assertTrue(merged > times.get(0), "the merge's timestamp is the newest, listed first");
            ExecuteResponse afterMerge = w.exec("SELECT * FROM system.cdc_streams");
            assertEquals(22, afterMerge.getRowsCount());
            Map<Long, Map<Long, Long>> mergeCounts = stateCounts(afterMerge);
            assertEquals(counts.get(times.get(1)), mergeCounts.get(times.get(1)), "the first set's rows unchanged");
            assertEquals(counts.get(times.get(0)), mergeCounts.get(times.get(0)), "the split's rows unchanged");
            assertEquals(Map.of(0L, 2L, 1L, 4L, 2L, 2L), mergeCounts.get(merged), "2 current, the split's 4 closed, 2 opened");
            TabletStreamStates.Read states = TabletStreamStates.read(w);
            TabletStreamStates.verify(states, List.of(2, 4, 2));
            assertEquals(states.byTimestamp().get(times.get(0)).get(TabletStreamStates.CURRENT),
                    states.byTimestamp().get(merged).get(TabletStreamStates.CLOSED), "the merge closes exactly the split's streams");

            TestNodes.await(() -> System.currentTimeMillis() >= merged, Duration.ofSeconds(20), "the merged stream set");
            w.exec("INSERT INTO ks.t (pk, ck, v) values (0,0,0)");
            TestNodes.await(() -> logStreams(w).size() == 3, Duration.ofSeconds(20), "the third LCR");
            Set<StreamId> before = Set.of(first, newer);
            StreamId third = logStreams(w).stream().filter(s -> !before.contains(s)).findFirst()
                    .orElseThrow(() -> new AssertionError("the write after the merge went to a stream of an older set"));
            assertEquals(two.lastToken(two.tabletOf(token)), third.token(), "the entry after the merge is in its merged tablet's stream");
            assertTrue(states.byTimestamp().get(merged).get(TabletStreamStates.OPENED).contains(third),
                    "an opened stream of the merged set");
        }
    }
}
