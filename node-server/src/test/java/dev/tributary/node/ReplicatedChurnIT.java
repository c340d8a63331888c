package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.generations.StreamId;
import dev.tributary.node.kit.ReplicaChecker;
import dev.tributary.node.kit.ReplicatedNodes;
import dev.tributary.node.kit.Security;
import dev.tributary.node.kit.History;
import dev.tributary.node.kit.TabletStreamStates;
import dev.tributary.node.kit.UniqueWriters;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link ChurnIT}'s invariant at replication factor 3: three replicated nodes (ZooKeeper apart),
 * writers that never stop while a node joins or a tablet table splits and merges, then the same
 * log check — every acknowledged write logged exactly once, in the stream its token and time name
 * — and every replica of every group identical to the others.
 */
@Tag("integration")
@Timeout(300)
class ReplicatedChurnIT {
    @TempDir
    Path dir;

    private ReplicatedNodes cluster;
    private Map<String, ReplicatedNode> nodes;

    @org.junit.jupiter.api.BeforeEach
    void prepare() {
        secure(Security.OPEN);
    }

    /** The cluster the test starts, secured as {@code security} says (nothing runs yet: the first start begins it). */
    private void secure(Security security) {
        cluster = new ReplicatedNodes(dir, "1500ms", 3, security);
        nodes = cluster.nodes;
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private ReplicatedNode start(String name) {
        return cluster.start(name);
    }

    /** Three nodes at R 3, each running its own instance, once the newest generation is in force. */
    private void startThree() {
        start("n1");
        start("n2");
        start("n3");
        TestNodes.await(() -> nodes.values().stream().allMatch(n -> n.home() != null), Duration.ofSeconds(30),
                "each node to run its own instance");
        long newest = nodes.get("n3").home().generations().latest().orElseThrow().timestampMillis();
        TestNodes.await(() -> System.currentTimeMillis() >= newest, Duration.ofSeconds(10), "the newest generation");
    }

    /** Creates ks.t on one instance and waits until every instance knows it (writes go to any of them). */
    private void createTable(TestNodes.Wire w, String keyspaceOptions, String tableOptions) {
        w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 3}"
                + keyspaceOptions);
        w.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}" + tableOptions);
        for (ReplicatedNode n : nodes.values()) {
            try (TestNodes.Wire on = new TestNodes.Wire(n.home())) {
                TestNodes.await(() -> {
                    try {
                        on.exec("SELECT pk FROM ks.t WHERE pk = 0 AND ck = 0");
                        return true;
                    } catch (io.grpc.StatusRuntimeException unknownYet) {
                        return false;
                    }
                }, Duration.ofSeconds(30), "every instance to know ks.t");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Security.class)
    @DisplayName("CDC-GEN-2 CDC-GEN-6 CDC-GEN-7 at R 3: writes through a join are each logged exactly once, in the stream of token(pk) in the generation of their time; every replica agrees (issue 29 item 10: also with TLS and the password authenticator)")
    void continuousWritesThroughAJoin(Security security) throws Exception {
        secure(security);
        startThree();
        ReplicatedNode n1 = nodes.get("n1");
        security.assertEnforcedAt(n1.home().endpoint());
        try (TestNodes.Wire w = new TestNodes.Wire(n1.home())) {
            createTable(w, "", "");
            List<ChurnIT.Logged> log;
            long gen;
            try (UniqueWriters writers = UniqueWriters.pkCkV()) {
                writers.start(1, n1::home);
                writers.start(2, () -> nodes.get("n2").home());
                writers.awaitMore(200);
                long before = n1.home().generations().latest().orElseThrow().timestampMillis();
                ReplicatedNode n4 = start("n4");
                gen = n4.home().generations().latest().orElseThrow().timestampMillis();
                assertTrue(gen > before, "the fourth node's join made a generation");
                writers.start(3, n4::home);
                TestNodes.await(() -> System.currentTimeMillis() > gen + 500, Duration.ofSeconds(20), "the new generation");
                writers.awaitMore(200);
                writers.close();
                log = ChurnIT.checkLog(w, writers, ChurnIT.vnodeStreamSets(w));
                writers.history.verifyRead("the base table", History.keys(w, "SELECT pk FROM ks.t"), Set.of());
                    writers.history.verifyUnknownAtMost(0); // no fault here leaves a write in doubt
            }
            assertTrue(ChurnIT.logged(log, t -> t < gen) > 0 && ChurnIT.logged(log, t -> t >= gen) > 0,
                    "writes on both sides of the switch");
        }
        ReplicaChecker.awaitAllReplicasAgree(nodes.values());
    }

    @Test
    @DisplayName("CDC-TAB-2 CDC-TAB-3 CDC-TAB-4 at R 3: writes through a tablet split and a merge are each logged exactly once, in the current stream of their tablet at their time; after each, system.cdc_streams lists the new set current, the old one's streams closed and the new ones opened; every replica agrees")
    void continuousWritesThroughASplitAndAMerge() throws Exception {
        startThree();
        ReplicatedNode n1 = nodes.get("n1");
        try (TestNodes.Wire w = new TestNodes.Wire(n1.home())) {
            createTable(w, " AND tablets = {'enabled': true}", " AND tablets = {'min_tablet_count': 2}");
            List<ChurnIT.Logged> log;
            NavigableMap<Long, NavigableMap<Long, Set<StreamId>>> sets;
            try (UniqueWriters writers = UniqueWriters.pkCkV()) {
                int i = 1;
                for (ReplicatedNode n : nodes.values()) {
                    writers.start(i++, n::home);
                }
                writers.awaitMore(200);
                w.exec("ALTER TABLE ks.t WITH tablets = {'min_tablet_count': 4}");
                long split = ChurnIT.tabletStreamSets(w).lastKey();
                TabletStreamStates.verify(TabletStreamStates.read(w), List.of(2, 4)); // CDC-TAB-3 during the writes
                TestNodes.await(() -> System.currentTimeMillis() > split + 300, Duration.ofSeconds(20), "the split");
                writers.awaitMore(200);
                w.exec("ALTER TABLE ks.t WITH tablets = {'min_tablet_count': 2}");
                long merge = ChurnIT.tabletStreamSets(w).lastKey();
                assertTrue(merge > split, "the merge made a third stream set");
                TabletStreamStates.verify(TabletStreamStates.read(w), List.of(2, 4, 2)); // the split's 4 closed, 2 opened
                TestNodes.await(() -> System.currentTimeMillis() > merge + 300, Duration.ofSeconds(20), "the merge");
                writers.awaitMore(200);
                writers.close();
                sets = ChurnIT.tabletStreamSets(w);
                log = ChurnIT.checkLog(w, writers, sets);
            }
            assertEquals(List.of(2, 4, 2), sets.values().stream().map(Map::size).toList(), "stream sets of 2, 4 and 2 tablets");
            List<Long> ts = new ArrayList<>(sets.keySet());
            assertTrue(ChurnIT.logged(log, t -> t < ts.get(1)) > 0, "writes before the split");
            assertTrue(ChurnIT.logged(log, t -> t >= ts.get(1) && t < ts.get(2)) > 0, "writes between the split and the merge");
            assertTrue(ChurnIT.logged(log, t -> t >= ts.get(2)) > 0, "writes after the merge");
        }
        ReplicaChecker.awaitAllReplicasAgree(nodes.values());
    }

    @Test
    @DisplayName("CDC-TAB-1 CDC-TAB-4 at R 3: a fourth node joining takes tablets of a tablet table; their streams do not change; writes through the move are each logged exactly once in their tablet's stream; every replica agrees")
    void continuousWritesThroughATabletMove() throws Exception {
        startThree();
        ReplicatedNode n1 = nodes.get("n1");
        try (TestNodes.Wire w = new TestNodes.Wire(n1.home())) {
            createTable(w, " AND tablets = {'enabled': true}", " AND tablets = {'min_tablet_count': 8}");
            NavigableMap<Long, NavigableMap<Long, Set<StreamId>>> setsBefore = ChurnIT.tabletStreamSets(w);
            try (UniqueWriters writers = UniqueWriters.pkCkV()) {
                writers.start(1, n1::home);
                writers.start(2, () -> nodes.get("n2").home());
                writers.awaitMore(300);
                ReplicatedNode n4 = start("n4");
                writers.start(3, n4::home);
                String id4 = n4.hostId();
                TestNodes.await(() -> w.exec("SELECT replica FROM system.tablets").getRowsList().stream()
                        .anyMatch(r -> r.getValues(0).getUuid().equals(id4)), Duration.ofSeconds(30),
                        "tablets to move to the fourth node");
                writers.awaitMore(300);
                writers.close();
                assertEquals(setsBefore, ChurnIT.tabletStreamSets(w), "moving tablets changes no stream set");
                ChurnIT.checkLog(w, writers, setsBefore);
                writers.history.verifyRead("the base table", History.keys(w, "SELECT pk FROM ks.t"), Set.of());
                    writers.history.verifyUnknownAtMost(0); // no fault here leaves a write in doubt
            }
        }
        ReplicaChecker.awaitAllReplicasAgree(nodes.values());
    }

    @Test
    @DisplayName("CDC-GEN-2 CDC-GEN-6 at R 3: writes through a decommission are each logged exactly once in their invariant stream; the leaving node's group is dissolved and every other group is back at three replicas that agree")
    void continuousWritesThroughADecommission() throws Exception {
        startThree();
        ReplicatedNode n4 = start("n4");
        String id4 = n4.hostId();
        ReplicatedNode n1 = nodes.get("n1");
        long joined = n4.home().generations().latest().orElseThrow().timestampMillis();
        TestNodes.await(() -> System.currentTimeMillis() >= joined, Duration.ofSeconds(10), "the generation of the join");
        try (TestNodes.Wire w = new TestNodes.Wire(n1.home())) {
            createTable(w, "", "");
            List<ChurnIT.Logged> log;
            long gen;
            try (UniqueWriters writers = UniqueWriters.pkCkV()) {
                writers.start(1, n1::home);
                writers.start(2, () -> nodes.get("n2").home());
                writers.awaitMore(300);
                try (TestNodes.Wire w4 = new TestNodes.Wire(n4.home())) {
                    dev.tributary.protocol.v1.Row d = w4.exec("CALL system.decommission()").getRows(0);
                    assertEquals(id4, d.getValues(0).getUuid());
                    gen = d.getValues(1).getTimestampMillis();
                    assertTrue(d.getValues(2).getInteger() > 0, "rows and log entries handed over");
                }
                n4.retired().get(30, java.util.concurrent.TimeUnit.SECONDS);
                nodes.remove("n4").close();
                writers.awaitMore(200);
                writers.close();
                log = ChurnIT.checkLog(w, writers, ChurnIT.vnodeStreamSets(w));
                writers.history.verifyRead("the nodes that stayed", History.keys(w, "SELECT pk FROM ks.t"), Set.of());
                writers.history.verifyUnknownAtMost(0); // a decommission hands over: no write in doubt
            }
            assertTrue(ChurnIT.logged(log, t -> t < gen) > 0 && ChurnIT.logged(log, t -> t >= gen) > 0,
                    "writes on both sides of the switch");
            assertEquals(2, w.exec("SELECT host_id FROM system.peers").getRowsCount(), "node 4 is no longer a peer");
        }
        Set<String> groups = new java.util.TreeSet<>();
        nodes.values().forEach(n -> groups.addAll(n.replicaGroups()));
        assertEquals(new java.util.TreeSet<>(nodes.values().stream().map(ReplicatedNode::hostId).toList()), groups,
                "the decommissioned node's group is dissolved");
        for (String g : groups) {
            TestNodes.await(() -> nodes.values().stream().filter(n -> n.replicaGroups().contains(g)).findFirst()
                    .map(n -> n.members(g)).orElseThrow().equals(new java.util.TreeSet<>(nodes.values().stream()
                            .map(ReplicatedNode::hostId).toList())), Duration.ofSeconds(60),
                    () -> "group " + g + " back at the three nodes that stayed");
        }
        ReplicaChecker.awaitAllReplicasAgree(nodes.values());
    }
}
