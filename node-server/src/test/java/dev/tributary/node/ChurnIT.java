package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.generations.Murmur3Partitioner;
import dev.tributary.generations.StreamId;
import dev.tributary.node.kit.Security;
import dev.tributary.node.kit.History;
import dev.tributary.node.kit.InProcessCluster;
import dev.tributary.node.kit.TabletStreamStates;
import dev.tributary.node.kit.UniqueWriters;
import dev.tributary.protocol.v1.Row;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Continuous writes through a topology change, then a checker that reads the whole log of every
 * node and proves, for every write, that it was logged exactly once, in the stream the seed's
 * invariant names for its time: the stream set in force at the LCR's time, the stream whose vnode
 * (or tablet) holds token(pk). Writers never stop while the change happens.
 */
@Timeout(240)
class ChurnIT {
    private static final Duration RING_DELAY = Duration.ofMillis(1500);
    private static final long UUID_EPOCH_OFFSET = 0x01b21dd213814000L;

    /** One change in the log: its stream, the time of its timeuuid and its key. */
    record Logged(StreamId stream, long timeMillis, int pk, int operation) {
    }

    /** The cluster of the multi-node tests, secured as {@code security} says (no node runs yet). */
    private static InProcessCluster cluster(Path dir, Security security) {
        return InProcessCluster.builder(dir).ringDelay(RING_DELAY).security(security).build();
    }

    private static long token(int pk) {
        return Murmur3Partitioner.token(ByteBuffer.allocate(4).putInt(pk).array());
    }

    private static long millisOf(String timeuuid) {
        return (UUID.fromString(timeuuid).timestamp() - UUID_EPOCH_OFFSET) / 10_000;
    }

    static List<Logged> wholeLog(TestNodes.Wire w) {
        List<Logged> out = new ArrayList<>();
        for (Row r : w.exec("SELECT \"cdc$stream_id\", \"cdc$time\", pk, \"cdc$operation\" FROM ks.t_scylla_cdc_log")
                .getRowsList()) {
            out.add(new Logged(StreamId.fromBytes(r.getValues(0).getBlob().toByteArray()), millisOf(r.getValues(1).getUuid()),
                    (int) r.getValues(2).getInteger(), (int) r.getValues(3).getInteger()));
        }
        return out;
    }

    /**
     * The stream sets as the cluster publishes them: set timestamp → (last token of each range →
     * the streams of that range). The stream a key belongs to at a time is in the range of the
     * smallest last token at or above token(pk), wrapping to the first.
     */
    static NavigableMap<Long, NavigableMap<Long, Set<StreamId>>> vnodeStreamSets(TestNodes.Wire w) {
        NavigableMap<Long, NavigableMap<Long, Set<StreamId>>> out = new TreeMap<>();
        for (Row r : w.exec("SELECT time, range_end, streams FROM system_distributed.cdc_streams_descriptions_v2").getRowsList()) {
            Set<StreamId> streams = new HashSet<>();
            for (var v : r.getValues(2).getCollection().getElementsList()) {
                streams.add(StreamId.fromBytes(v.getBlob().toByteArray()));
            }
            out.computeIfAbsent(r.getValues(0).getTimestampMillis(), k -> new TreeMap<>()).put(r.getValues(1).getInteger(), streams);
        }
        return out;
    }

    /** The tablet stream sets of ks.t: the current streams (state 0) of each timestamp, by their token. */
    static NavigableMap<Long, NavigableMap<Long, Set<StreamId>>> tabletStreamSets(TestNodes.Wire w) {
        NavigableMap<Long, NavigableMap<Long, Set<StreamId>>> out = new TreeMap<>();
        for (Row r : w.exec("SELECT timestamp, stream_state, stream_id FROM system.cdc_streams WHERE keyspace_name = 'ks' "
                + "AND table_name = 't'").getRowsList()) {
            if (r.getValues(1).getInteger() == 0) {
                StreamId s = StreamId.fromBytes(r.getValues(2).getBlob().toByteArray());
                out.computeIfAbsent(r.getValues(0).getTimestampMillis(), k -> new TreeMap<>()).put(s.token(), Set.of(s));
            }
        }
        return out;
    }

    /**
     * Reads the whole log once capture has caught up and checks every acknowledged write is in it
     * exactly once, in the stream its token and time name; a write whose acknowledgement was lost
     * is there at most once; nothing else is there. Returns the log.
     */
    static List<Logged> checkLog(TestNodes.Wire w, UniqueWriters writers,
            NavigableMap<Long, NavigableMap<Long, Set<StreamId>>> sets) {
        TestNodes.await(() -> wholeLog(w).stream().map(Logged::pk).collect(java.util.stream.Collectors.toSet())
                .containsAll(writers.acked), Duration.ofSeconds(60), "every acknowledged write in the log");
        List<Logged> log = wholeLog(w);
        Map<Integer, Integer> times = new HashMap<>();
        for (Logged l : log) {
            times.merge(l.pk(), 1, Integer::sum);
            assertEquals(2, l.operation(), "an INSERT delta: " + l);
            assertTrue(writers.history.written(l.pk()), "a change no write produced: " + l);
            assertTrue(!writers.refused.contains(l.pk()), "a definitely refused write logged: " + l + " ("
                    + writers.history.whyFailed(l.pk()) + ")");
            Map.Entry<Long, NavigableMap<Long, Set<StreamId>>> set = sets.floorEntry(l.timeMillis());
            assertTrue(set != null, "no stream set in force at " + l);
            Map.Entry<Long, Set<StreamId>> range = set.getValue().ceilingEntry(token(l.pk()));
            if (range == null) {
                range = set.getValue().firstEntry();
            }
            assertTrue(range.getValue().contains(l.stream()), "pk " + l.pk() + " (token " + token(l.pk()) + ") at "
                    + l.timeMillis() + " belongs in a stream of the range ending at " + range.getKey() + " of the set of "
                    + set.getKey() + ", found in " + l.stream());
        }
        for (int pk : writers.acked) {
            assertEquals(1, times.get(pk), "acknowledged write pk=" + pk + " logged exactly once");
        }
        for (int pk : writers.unknown()) {
            assertTrue(times.getOrDefault(pk, 0) <= 1, "an unacknowledged write pk=" + pk + " logged at most once");
        }
        return log;
    }

    static long logged(List<Logged> log, java.util.function.LongPredicate time) {
        return log.stream().filter(l -> time.test(l.timeMillis())).count();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Security.class)
    @DisplayName("CDC-GEN-2 CDC-GEN-6 CDC-GEN-7: writes through a join are each logged exactly once, in the stream of token(pk) in the generation of their time; base rows end on their owner (issue 29 item 10: also with TLS and the password authenticator)")
    void continuousWritesThroughAJoin(Security security, @TempDir Path dir) throws Exception {
        TributaryNode[] second = new TributaryNode[1];
        try (InProcessCluster cluster = cluster(dir, security)) {
            TributaryNode first = cluster.startOperating("n1");
            TestNodes.Wire w1 = cluster.wire("n1");
            security.assertEnforcedAt(first.endpoint());
            w1.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            w1.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            List<Logged> log;
            long gen2;
            try (UniqueWriters writers = UniqueWriters.pkCkV()) {
                writers.start(1, () -> first);
                writers.start(2, () -> first);
                writers.awaitMore(200);
                second[0] = cluster.start("n2");
                writers.start(3, () -> second[0]);
                gen2 = second[0].generations().latest().orElseThrow().timestampMillis();
                assertEquals(2, second[0].generations().newestFirst().size(), "the join made a generation");
                TestNodes.await(() -> System.currentTimeMillis() > gen2 + 500, Duration.ofSeconds(20), "the new generation");
                writers.awaitMore(200);
                writers.close();
                log = checkLog(w1, writers, vnodeStreamSets(w1));
                writers.history.verifyRead("the base table", History.keys(w1, "SELECT pk FROM ks.t"), Set.of());
                writers.history.verifyUnknownAtMost(0); // no fault here leaves a write in doubt
            }
            assertTrue(logged(log, t -> t < gen2) > 0 && logged(log, t -> t >= gen2) > 0,
                    "writes on both sides of the switch");
            // every base row sits on the owner of its token: none was left behind on the old owner
            dev.tributary.generations.TokenRing ring = dev.tributary.generations.TokenRing.empty()
                    .with(first.hostId().toString(), first.tokens()).with(second[0].hostId().toString(), second[0].tokens());
            for (TributaryNode n : List.of(first, second[0])) {
                for (Row r : TestNodes.localOnly(n, "SELECT pk, token(pk) FROM ks.t").getRowsList()) {
                    assertEquals(n.hostId().toString(), ring.owner(r.getValues(1).getInteger()),
                            "row " + r.getValues(0).getInteger() + " on the owner of its token");
                }
            }
        }
    }

    @Test
    @DisplayName("CDC-TAB-2 CDC-TAB-3 CDC-TAB-4: writes through a tablet split and a merge are each logged exactly once, in the current stream of their tablet at their time; after each, system.cdc_streams lists the new set current, the old one's streams closed and the new ones opened")
    void continuousWritesThroughASplitAndAMerge(@TempDir Path dir) throws Exception {
        try (TributaryNode node = TributaryNode.start(TestNodes.config(dir, RING_DELAY));
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            long gen1 = node.generations().latest().orElseThrow().timestampMillis();
            TestNodes.await(() -> System.currentTimeMillis() >= gen1, Duration.ofSeconds(10), "the first generation");
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1} "
                    + "AND tablets = {'enabled': true}");
            w.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true} "
                    + "AND tablets = {'min_tablet_count': 2}");
            List<Logged> log;
            NavigableMap<Long, NavigableMap<Long, Set<StreamId>>> sets;
            try (UniqueWriters writers = UniqueWriters.pkCkV()) {
                for (int i = 1; i <= 3; i++) {
                    writers.start(i, () -> node);
                }
                writers.awaitMore(200);
                w.exec("ALTER TABLE ks.t WITH tablets = {'min_tablet_count': 4}");
                long split = tabletStreamSets(w).lastKey();
                TabletStreamStates.verify(TabletStreamStates.read(w), List.of(2, 4)); // CDC-TAB-3 during the writes
                TestNodes.await(() -> System.currentTimeMillis() > split + 300, Duration.ofSeconds(20), "the split");
                writers.awaitMore(200);
                w.exec("ALTER TABLE ks.t WITH tablets = {'min_tablet_count': 2}");
                long merge = tabletStreamSets(w).lastKey();
                assertTrue(merge > split, "the merge made a third stream set");
                TabletStreamStates.verify(TabletStreamStates.read(w), List.of(2, 4, 2)); // the split's 4 closed, 2 opened
                TestNodes.await(() -> System.currentTimeMillis() > merge + 300, Duration.ofSeconds(20), "the merge");
                writers.awaitMore(200);
                writers.close();
                sets = tabletStreamSets(w);
                log = checkLog(w, writers, sets);
            }
            assertEquals(3, sets.size(), "three stream sets: 2, 4 and 2 tablets");
            List<Long> ts = new ArrayList<>(sets.keySet());
            assertEquals(List.of(2, 4, 2), sets.values().stream().map(Map::size).toList());
            assertTrue(logged(log, t -> t < ts.get(1)) > 0, "writes before the split");
            assertTrue(logged(log, t -> t >= ts.get(1) && t < ts.get(2)) > 0, "writes between the split and the merge");
            assertTrue(logged(log, t -> t >= ts.get(2)) > 0, "writes after the merge");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Security.class)
    @DisplayName("CDC-GEN-2 CDC-GEN-6: writes through a decommission are each logged exactly once in their invariant stream; the leaving node's rows and log move to the node that stays (issue 29 item 10: also with TLS and the password authenticator)")
    void continuousWritesThroughADecommission(Security security, @TempDir Path dir) throws Exception {
        try (InProcessCluster cluster = cluster(dir, security)) {
            TributaryNode first = cluster.startOperating("n1");
            TestNodes.Wire w1 = cluster.wire("n1");
            TributaryNode second = cluster.start("n2");
            long gen2 = second.generations().latest().orElseThrow().timestampMillis();
            TestNodes.await(() -> System.currentTimeMillis() >= gen2, Duration.ofSeconds(10), "the generation of the join");
            w1.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            w1.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            List<Logged> log;
            long gen3;
            try (UniqueWriters writers = UniqueWriters.pkCkV()) {
                writers.start(1, () -> first);
                writers.start(2, () -> first);
                writers.start(3, () -> second); // fails once node 2 is gone: those writes count as unacknowledged
                writers.awaitMore(300);
                try (TestNodes.Wire w2 = new TestNodes.Wire(second)) {
                    Row d = w2.exec("CALL system.decommission()").getRows(0);
                    assertEquals(second.hostId().toString(), d.getValues(0).getUuid());
                    gen3 = d.getValues(1).getTimestampMillis();
                    assertTrue(d.getValues(2).getInteger() > 0, "rows and log entries handed over");
                    // the hand-over was listed with its progress, every entry it moved counted
                    List<dev.tributary.node.progress.RunningOperations.View> handOver = second.runningOperations().list();
                    assertEquals(List.of("decommission"), handOver.stream().map(o -> o.kind()).toList());
                    assertEquals(dev.tributary.node.progress.RunningOperations.State.DONE, handOver.get(0).state());
                    assertEquals(d.getValues(2).getInteger(), handOver.get(0).progress().done());
                    assertTrue(handOver.get(0).progress().total() > 0, "an estimated total: " + handOver.get(0));
                }
                assertTrue(second.departed().isDone(), "the node knows it left");
                cluster.kill("n2");
                writers.awaitMore(200);
                writers.close();
                assertEquals(3, w1.exec("SELECT time FROM system_distributed.cdc_generation_timestamps WHERE key = 'timestamps'")
                        .getRowsCount(), "the decommission made a third generation");
                log = checkLog(w1, writers, vnodeStreamSets(w1));
                // every acknowledged row is on the node that stayed, no refused one
                writers.history.verifyRead("the table of the node that stayed", History.keys(w1, "SELECT pk FROM ks.t"), Set.of());
            }
            assertEquals(8, first.generations().latest().orElseThrow().vnodes().size(), "the new generation is node 1's vnodes");
            assertTrue(logged(log, t -> t < gen3) > 0 && logged(log, t -> t >= gen3) > 0, "writes on both sides of the switch");
            assertEquals(0, w1.exec("SELECT host_id FROM system.peers").getRowsCount(), "node 2 is no longer a peer");
            RuntimeException refused = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                    () -> cluster.restart("n2"));
            assertTrue(String.valueOf(refused.getMessage()).contains("was decommissioned"), refused.toString());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Security.class)
    @DisplayName("CDC-TAB-1 CDC-TAB-4: a node joining takes half of a tablet table's tablets; their rows move there, their streams do not; writes through the move are each logged exactly once in their tablet's stream (issue 29 item 10: also with TLS and the password authenticator)")
    void continuousWritesThroughATabletMove(Security security, @TempDir Path dir) throws Exception {
        TributaryNode[] second = new TributaryNode[1];
        try (InProcessCluster cluster = cluster(dir, security)) {
            TributaryNode first = cluster.startOperating("n1");
            TestNodes.Wire w1 = cluster.wire("n1");
            w1.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1} "
                    + "AND tablets = {'enabled': true}");
            w1.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true} "
                    + "AND tablets = {'min_tablet_count': 4}");
            NavigableMap<Long, NavigableMap<Long, Set<StreamId>>> setsBefore = tabletStreamSets(w1);
            try (UniqueWriters writers = UniqueWriters.pkCkV()) {
                writers.start(1, () -> first);
                writers.start(2, () -> first);
                writers.awaitMore(300);
                second[0] = cluster.start("n2");
                writers.start(3, () -> second[0]);
                String n2 = second[0].hostId().toString();
                TestNodes.await(() -> w1.exec("SELECT replica FROM system.tablets").getRowsList().stream()
                        .filter(r -> r.getValues(0).getUuid().equals(n2)).count() == 2, Duration.ofSeconds(20),
                        "two of the four tablets to move to node 2");
                writers.awaitMore(300);
                writers.close();
                assertEquals(setsBefore, tabletStreamSets(w1), "moving tablets changes no stream set");
                checkLog(w1, writers, setsBefore);
                writers.history.verifyRead("the base table", History.keys(w1, "SELECT pk FROM ks.t"), Set.of());
                writers.history.verifyUnknownAtMost(0); // no fault here leaves a write in doubt
            }
            // every row sits on the replica of its tablet
            Map<Long, String> replicaByLastToken = new TreeMap<>();
            for (Row r : w1.exec("SELECT last_token, replica FROM system.tablets").getRowsList()) {
                replicaByLastToken.put(r.getValues(0).getInteger(), r.getValues(1).getUuid());
            }
            for (TributaryNode n : List.of(first, second[0])) {
                List<Row> rows = TestNodes.localOnly(n, "SELECT pk, token(pk) FROM ks.t").getRowsList();
                assertTrue(!rows.isEmpty(), "node " + n.hostId() + " holds rows of its tablets");
                for (Row r : rows) {
                    long token = r.getValues(1).getInteger();
                    String replica = ((TreeMap<Long, String>) replicaByLastToken).ceilingEntry(token).getValue();
                    assertEquals(n.hostId().toString(), replica, "row " + r.getValues(0).getInteger()
                            + " on the replica of its tablet");
                }
            }
        }
    }
}
