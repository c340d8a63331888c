package dev.tributary.node.replication;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.ChangeRecord;
import dev.tributary.client.StartPosition;
import dev.tributary.client.TributaryClient;
import dev.tributary.generations.Murmur3Partitioner;
import dev.tributary.generations.StreamId;
import dev.tributary.node.NodeProcess;
import dev.tributary.node.TestNodes;
import dev.tributary.node.coord.EmbeddedZooKeeper;
import dev.tributary.node.kit.DeliveryChecker;
import dev.tributary.node.kit.History;
import dev.tributary.node.kit.TabletStreamStates;
import dev.tributary.node.kit.UniqueWriters;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY C5 with its D1 criteria: a tablet table split and then merged under writes, the
 * node holding the tablets being changed killed with SIGKILL while each change is in progress —
 * its new stream set published but not yet in force, the merge's rows still to be pulled to the
 * tablet that keeps them — and restarted on its data. Nodes are processes at replication factor 3.
 */
@Tag("integration")
@Timeout(480)
class TabletChangeKillIT {
    // kept when the test fails: the nodes' logs are in it
    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
    Path dir;

    private static final int WRITERS = 2;
    /**
     * Long enough that the kill (a few hundred ms after the ALTER returns) lands before the new
     * set is in force, short enough to keep the run within CI's budget.
     */
    private static final String RING_DELAY = "4s";

    /** A delivered change: its stream, the time of its position and its key. */
    private record Delivery(StreamId stream, long timeMillis, int pk) {
    }

    @Test
    @DisplayName("CDC-TAB-2 CDC-TAB-3 RELIABILITY C5: kill -9 of the node holding the tablets while a split and then a merge are in progress under writes at R 3: every acknowledged write readable and delivered once in its tablet's current stream, nothing refused visible, stream sets 2 → 4 → 2 with their closed and opened streams")
    void killTheTabletHolderDuringASplitAndAMerge() throws Exception {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0)) {
            List<NodeProcess> nodes = new ArrayList<>();
            try {
                for (int i = 1; i <= 3; i++) {
                    nodes.add(startNode(zk, i));
                }
                try (TributaryClient client = TributaryClient.builder()
                        .endpoints(nodes.stream().map(NodeProcess::endpoint).toList()).build()) {
                    createTable(client);
                    DeliveryChecker checker = new DeliveryChecker();
                    List<Delivery> deliveries = Collections.synchronizedList(new ArrayList<>());
                    UniqueWriters writers = UniqueWriters.pkCkV().paced(50);
                    try (ChangeConsumer consumer = ChangeConsumer.builder(client).table("ks.t")
                            .start(StartPosition.earliest()).handler(r -> {
                                checker.record(r);
                                record(deliveries, r);
                            }).build()) {
                        consumer.start();
                        for (int w = 0; w < WRITERS; w++) {
                            writers.start(w + 1, client);
                        }
                        writers.awaitMore(100);
                        changeAndKill(client, nodes, zk, writers, 4, "split");
                        writers.awaitMore(100);
                        changeAndKill(client, nodes, zk, writers, 2, "merge");
                        writers.awaitMore(100);
                        writers.close();
                        System.out.println("TabletChangeKillIT: " + writers.history.summary());

                        TestNodes.await(() -> checker.hasAll(writers), Duration.ofSeconds(90),
                                () -> "every acknowledged write delivered: " + checker.problems(writers));
                        checker.verify(writers); // once each, per-stream order, nothing refused or unwritten
                        writers.history.verifyRead("the table", History.keys(client, "SELECT pk FROM ks.t"), Set.of());
                        // each writer has at most one write in flight at each of the two kills
                        writers.history.verifyUnknownAtMost(2 * WRITERS);

                        TabletStreamStates.Read states = TabletStreamStates.read(client);
                        TabletStreamStates.verify(states, List.of(2, 4, 2));
                        verifyStreams(deliveries, states.currentSets());
                    }
                }
            } finally {
                for (NodeProcess n : nodes) {
                    n.close();
                }
            }
        }
    }

    /**
     * Changes the tablet count to {@code tablets} and at once kills the node holding the changed
     * tablets (for a merge, the one that keeps the merged tablet and pulls the other's rows),
     * checks the kill came before the new set is in force, and restarts it on its data.
     */
    private void changeAndKill(TributaryClient client, List<NodeProcess> nodes, EmbeddedZooKeeper zk, UniqueWriters writers,
            int tablets, String what) throws Exception {
        client.execute("ALTER TABLE ks.t WITH tablets = {'min_tablet_count': " + tablets + "}");
        // the first tablet: a split keeps both halves on its replica, a merge keeps the first's
        String holder = client.execute("SELECT replica FROM system.tablets WHERE keyspace_name = 'ks' AND table_name = 't'")
                .all().get(0).getUuid(0).toString();
        int victim = indexOf(nodes, holder);
        long setAt = TabletStreamStates.read(client).timestamps().get(0);
        long killedAt = System.currentTimeMillis();
        nodes.get(victim).kill();
        System.out.println(java.time.Instant.now() + " " + what + " to " + tablets + " tablets, in force at "
                + java.time.Instant.ofEpochMilli(setAt) + ": kill -9 n" + (victim + 1) + " (" + holder + ") "
                + (setAt - killedAt) + " ms before; " + writers.history.summary());
        assertTrue(killedAt < setAt, "the kill came before the " + what + "'s stream set was in force (" + (killedAt - setAt)
                + " ms after): raise RING_DELAY");
        nodes.set(victim, startNode(zk, victim + 1));
        System.out.println(java.time.Instant.now() + " n" + (victim + 1) + " ready again");
    }

    /** The index of the node whose host id is {@code hostId}, asked of each node alone. */
    private static int indexOf(List<NodeProcess> nodes, String hostId) {
        for (int i = 0; i < nodes.size(); i++) {
            try (TestNodes.Wire w = new TestNodes.Wire(nodes.get(i).endpoint())) {
                if (w.exec("SELECT host_id FROM system.local").getRows(0).getValues(0).getUuid().equals(hostId)) {
                    return i;
                }
            }
        }
        throw new AssertionError("no node has host id " + hostId);
    }

    private static void record(List<Delivery> deliveries, ChangeRecord r) {
        if (r.isDdl()) {
            return;
        }
        deliveries.add(new Delivery(StreamId.fromBytes(r.position().streamIdBytes()),
                (r.position().time().timestamp() - 0x01b21dd213814000L) / 10_000, ((Number) r.newValues().get("pk")).intValue()));
    }

    /** Every delivery is in the current stream of its key's tablet in the set in force at its time (CDC-TAB-1, -2). */
    private static void verifyStreams(List<Delivery> deliveries, NavigableMap<Long, NavigableMap<Long, Set<StreamId>>> sets) {
        List<String> wrong = new ArrayList<>();
        synchronized (deliveries) {
            for (Delivery d : deliveries) {
                Map.Entry<Long, NavigableMap<Long, Set<StreamId>>> set = sets.floorEntry(d.timeMillis());
                long token = Murmur3Partitioner.token(ByteBuffer.allocate(4).putInt(d.pk()).array());
                Map.Entry<Long, Set<StreamId>> tablet = set == null ? null : set.getValue().ceilingEntry(token);
                if (set != null && tablet == null) {
                    tablet = set.getValue().firstEntry();
                }
                if (tablet == null || !tablet.getValue().contains(d.stream())) {
                    wrong.add(d + " (set " + (set == null ? "none" : set.getKey()) + ")");
                }
            }
        }
        assertTrue(wrong.isEmpty(), wrong.size() + " changes delivered outside their tablet's current stream, e.g. "
                + wrong.subList(0, Math.min(10, wrong.size())));
    }

    private NodeProcess startNode(EmbeddedZooKeeper zk, int i) throws java.io.IOException {
        return NodeProcess.start(dir.resolve("n" + i), "--zookeeper", zk.connectString(), "--replication-factor", "3",
                "--name", "n" + i, "--ring-delay", RING_DELAY);
    }

    /** ks at R 3 with tablets, ks.t with CDC in 2 tablets, once the first generation lets the DDL in. */
    private static void createTable(TributaryClient client) {
        TestNodes.await(() -> {
            try {
                client.execute("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'NetworkTopologyStrategy', "
                        + "'replication_factor': 3} AND tablets = {'enabled': true}");
                client.execute("CREATE TABLE IF NOT EXISTS ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) "
                        + "WITH cdc = {'enabled': true} AND tablets = {'min_tablet_count': 2}");
                return true;
            } catch (RuntimeException e) {
                return false;
            }
        }, Duration.ofSeconds(60), "the first generation and the table");
    }
}
