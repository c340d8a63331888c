package dev.tributary.node.coord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.generations.NodeState;
import dev.tributary.node.TestNodes;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A member whose ZooKeeper session expires comes back by itself, and no generation is made twice. */
@Timeout(120)
class SessionExpiryIT {
    /** Expires a client's session the way Curator's KillSession does: a second client on the same session closes it. */
    private static void expire(ClusterCoordinator c, String connect) throws Exception {
        ZooKeeper zk = c.curator().getZookeeperClient().getZooKeeper();
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper twin = new ZooKeeper(connect, 5_000, e -> {
            if (e.getState() == org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, zk.getSessionId(), zk.getSessionPasswd());
        assertTrue(connected.await(10, TimeUnit.SECONDS));
        twin.close();
    }

    private static ClusterCoordinator member(EmbeddedZooKeeper zk, String hostId) {
        return ClusterCoordinator.connect(zk.connectString(), "c", hostId, System::currentTimeMillis, new SecureRandom(),
                Duration.ofSeconds(10), dev.tributary.node.coord.ZooKeeperClients.Access.OPEN);
    }

    /** Member a makes the first generation with its tokens, then b joins with its own: two generations. */
    private static void registerBoth(ClusterCoordinator a, ClusterCoordinator b) {
        a.prepare(List.of(-100L, 100L), Duration.ofMillis(200));
        a.register("127.0.0.1:1", "a");
        b.prepare(List.of(0L, 200L), Duration.ofMillis(200));
        b.register("127.0.0.1:2", "b");
    }

    @Test
    @DisplayName("CDC-GEN-2: after the session of a member expires it registers again, sees the ring, and creates no generation")
    void sessionExpiry(@TempDir Path dir) throws Exception {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0)) {
            ClusterCoordinator a = member(zk, "host-a");
            ClusterCoordinator b = member(zk, "host-b");
            try (a; b) {
                registerBoth(a, b);
                assertEquals(2, a.generations().newestFirst().size(), "a join made the second generation");
                TestNodes.await(() -> a.topology().liveEndpoints().size() == 2, Duration.ofSeconds(10), "both members live");

                long before = a.curator().getZookeeperClient().getZooKeeper().getSessionId();
                expire(a, zk.connectString());
                TestNodes.await(() -> {
                    try {
                        return a.curator().getZookeeperClient().getZooKeeper().getSessionId() != before
                                && b.members().stream().filter(ClusterCoordinator.Member::live).count() == 2;
                    } catch (Exception e) {
                        return false;
                    }
                }, Duration.ofSeconds(30), "member a to register again in a new session");
                TestNodes.await(() -> a.topology().liveEndpoints().size() == 2 && b.topology().liveEndpoints().size() == 2,
                        Duration.ofSeconds(10), "both to see the ring again");
                TestNodes.await(() -> a.sessionsLost.get() >= 1, Duration.ofSeconds(10),
                        "the expiry to be seen as a lost session, which refuses writes");
                TestNodes.await(() -> a.refusesWritesBecause() == null, Duration.ofSeconds(10),
                        "a to take writes again once it is a live member in its new session");
                assertEquals(NodeState.JOINING, a.state(), "registered again as it was");
                assertEquals(2, b.generations().newestFirst().size(), "no duplicate generation");
                assertEquals(2, a.generations().newestFirst().size());
                // the topology lock still works across the new session: a repair makes exactly one generation
                long ts = a.checkAndRepairCdcStreams(Duration.ofMillis(200));
                TestNodes.await(() -> b.generations().newestFirst().size() == 3, Duration.ofSeconds(10), "the repaired generation");
                assertEquals(ts, b.generations().latest().orElseThrow().timestampMillis());
            }
        }
    }

    @Test
    @DisplayName("CDC-GEN-2: the session of the node making a join's generation expires mid-change; the join completes with one generation over the whole ring")
    void sessionExpiresMidChange(@TempDir Path dir) throws Exception {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0)) {
            ClusterCoordinator a = member(zk, "host-a");
            ClusterCoordinator b = member(zk, "host-b");
            try (a; b) {
                a.prepare(List.of(-100L, 100L), Duration.ofMillis(200));
                a.register("127.0.0.1:1", "a");
                java.util.concurrent.atomic.AtomicBoolean expired = new java.util.concurrent.atomic.AtomicBoolean();
                b.beforePublish(() -> {
                    if (expired.compareAndSet(false, true)) {
                        try {
                            expire(b, zk.connectString()); // while b holds the topology lock, about to publish
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }
                });
                b.prepare(List.of(0L, 200L), Duration.ofMillis(200));
                assertTrue(expired.get(), "the session expired in the middle of the change");
                b.register("127.0.0.1:2", "b");
                TestNodes.await(() -> a.generations().newestFirst().size() == 2, Duration.ofSeconds(10), "a to see the join's generation");
                assertEquals(2, b.generations().newestFirst().size(), "one generation for the join, none twice");
                assertEquals(java.util.Set.of(-100L, 0L, 100L, 200L), b.generations().latest().orElseThrow().vnodes().stream()
                        .map(dev.tributary.generations.VnodeStreams::rangeEnd).collect(java.util.stream.Collectors.toSet()),
                        "the generation covers both nodes' tokens");
                // and the lock is free again: another change goes through at once
                a.checkAndRepairCdcStreams(Duration.ofMillis(200));
                TestNodes.await(() -> b.generations().newestFirst().size() == 3, Duration.ofSeconds(10), "the next change");
            }
        }
    }

    @Test
    @DisplayName("RELIABILITY C1: ten times the session of the node making a generation expires mid-decision and the other "
            + "node takes the lock over and publishes first: the deposed node's publish is refused (a conditional write on "
            + "the generations znode's version) and its decision made again; one generation per decision, timestamps "
            + "strictly increasing")
    void aDeposedCoordinatorsPublishIsRefused(@TempDir Path dir) throws Exception {
        int expiries = Integer.getInteger("tributary.c1.expiries", 10);
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0)) {
            ClusterCoordinator a = member(zk, "host-a");
            ClusterCoordinator b = member(zk, "host-b");
            try (a; b) {
                registerBoth(a, b);
                for (int i = 0; i < expiries; i++) {
                    int before = b.generationsNow().size();
                    java.util.concurrent.atomic.AtomicLong theirs = new java.util.concurrent.atomic.AtomicLong();
                    a.beforePublish(() -> {
                        if (theirs.get() == 0) {
                            try {
                                expire(a, zk.connectString()); // a's lock znode goes with its session
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                            theirs.set(b.checkAndRepairCdcStreams(Duration.ofMillis(200)));
                        }
                    });
                    long mine;
                    try {
                        mine = a.checkAndRepairCdcStreams(Duration.ofMillis(200));
                    } finally {
                        a.beforePublish(() -> { });
                    }
                    assertTrue(theirs.get() != 0, "the other node published first");
                    List<dev.tributary.generations.Generation> gens = b.generationsNow().newestFirst();
                    assertEquals(before + 2, gens.size(), "round " + i + ": the other's generation and a's, decided again");
                    assertEquals(mine, gens.get(0).timestampMillis(), "round " + i + ": a's decision made again after theirs");
                    assertEquals(theirs.get(), gens.get(1).timestampMillis());
                }
                List<Long> times = b.generationsNow().newestFirst().stream().map(dev.tributary.generations.Generation::timestampMillis)
                        .toList();
                assertEquals(2 + 2 * expiries, times.size());
                for (int i = 1; i < times.size(); i++) {
                    assertTrue(times.get(i - 1) > times.get(i), "generation timestamps strictly increase: " + times);
                }
                TestNodes.await(() -> a.sessionsLost.get() >= expiries, Duration.ofSeconds(10), "every expiry seen by a");
            }
        }
    }

    @Test
    @DisplayName("RELIABILITY C2: the connection of the node making a generation drops (SUSPENDED, same session) after "
            + "its decision and before its publish: it publishes nothing then, decides again under the lock taken anew, "
            + "and one generation is made")
    void aHolderWhoseConnectionDroppedDecidesAgain(@TempDir Path dir) throws Exception {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0)) {
            ClusterCoordinator a = member(zk, "host-a");
            ClusterCoordinator b = member(zk, "host-b");
            try (a; b) {
                registerBoth(a, b);
                int before = b.generationsNow().size();
                long session = a.curator().getZookeeperClient().getZooKeeper().getSessionId();
                CountDownLatch reconnected = new CountDownLatch(1);
                a.curator().getConnectionStateListenable().addListener((client, state) -> {
                    if (state == org.apache.curator.framework.state.ConnectionState.RECONNECTED) {
                        reconnected.countDown();
                    }
                });
                java.util.concurrent.atomic.AtomicInteger decisions = new java.util.concurrent.atomic.AtomicInteger();
                a.beforePublish(() -> {
                    if (decisions.incrementAndGet() == 1) {
                        try {
                            // a real drop of the client's socket: Curator reports SUSPENDED, then RECONNECTED on the same session
                            a.curator().getZookeeperClient().getZooKeeper().getTestable().closeSocket();
                            assertTrue(reconnected.await(20, TimeUnit.SECONDS), "the client reconnected");
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }
                });
                long mine;
                try {
                    mine = a.checkAndRepairCdcStreams(Duration.ofMillis(200));
                } finally {
                    a.beforePublish(() -> { });
                }
                assertEquals(session, a.curator().getZookeeperClient().getZooKeeper().getSessionId(), "the session survived");
                assertEquals(2, decisions.get(), "the decision whose connection dropped published nothing and was made again");
                List<dev.tributary.generations.Generation> gens = b.generationsNow().newestFirst();
                assertEquals(before + 1, gens.size(), "one generation for one change");
                assertEquals(mine, gens.get(0).timestampMillis());
            }
        }
    }
}
