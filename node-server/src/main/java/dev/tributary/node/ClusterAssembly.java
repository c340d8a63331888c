package dev.tributary.node;

import dev.tributary.generations.NodeState;
import dev.tributary.node.coord.ClockCheck;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.coord.EmbeddedZooKeeper;
import dev.tributary.node.coord.ZooKeeperClients;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.exec.SystemTables;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The node in its cluster: the embedded ZooKeeper when asked for, the session with ZooKeeper
 * (membership, generations, tablets, schema log, groups), the check of this node's clock against
 * ZooKeeper's (at start, then every {@value #CLOCK_CHECK_SECONDS} s), the node's redo thread
 * number, and the generations known before anything routes a write. Closes the clock check, the
 * session and the embedded ZooKeeper in that order.
 */
final class ClusterAssembly {
    /** How often the node's clock is compared with ZooKeeper's (RELIABILITY C6). */
    private static final long CLOCK_CHECK_SECONDS = 10;

    final ClusterCoordinator coordinator;
    final ClockCheck clockCheck;
    /** The node's redo thread number. */
    final int thread;
    private final String hostId;

    ClusterAssembly(StartedParts parts, NodeContext node, StorageAssembly storage) {
        NodeConfig config = node.config();
        hostId = storage.hostId.toString();
        String zk = config.zookeeper();
        ZooKeeperClients.Access zkAccess = config.zookeeperAccess();
        if (config.embeddedZooKeeper()) {
            EmbeddedZooKeeper ezk = parts.add(EmbeddedZooKeeper.start(config.dataDir().resolve("zookeeper"),
                    config.embeddedZooKeeperPort(), zkAccess.tls()));
            zk = ezk.connectString();
        }
        coordinator = parts.add(ClusterCoordinator.connect(zk, config.clusterName(), hostId, node.wallMillis(), node.random(),
                Duration.ofSeconds(30), zkAccess));
        // before the first generation is made from this node's clock, and before any write
        clockCheck = coordinator.clockCheck(config.ringDelay());
        clockCheck.checkAtStart();
        ScheduledExecutorService clockTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tributary-clock-check");
            t.setDaemon(true);
            return t;
        });
        clockTimer.scheduleWithFixedDelay(clockCheck::run, CLOCK_CHECK_SECONDS, CLOCK_CHECK_SECONDS, TimeUnit.SECONDS);
        parts.add(clockTimer::shutdownNow);
        thread = redoThread(storage.store);
        // generations must be known before anything routes a write or a capture to a stream
        coordinator.prepare(storage.tokens, config.ringDelay());
    }

    /** The node's redo thread number: taken in ZooKeeper once, then kept in its store. */
    private int redoThread(NodeStore store) {
        byte[] key = Keys.meta("node/redo_thread");
        byte[] v = store.get(NodeStore.Family.META, key);
        int known = v == null ? 0 : Integer.parseInt(new String(v, StandardCharsets.UTF_8));
        int n = coordinator.redoThread(known);
        if (n != known) {
            store.put(NodeStore.Family.META, key, Integer.toString(n).getBytes(StandardCharsets.UTF_8), true);
        }
        return n;
    }

    /** Null while the node may take writes, else why not: its clock is off, or its session is lost. */
    String refusesWritesBecause() {
        String clockRefusal = clockCheck.refusesWritesBecause();
        return clockRefusal != null ? clockRefusal : coordinator.refusesWritesBecause();
    }

    /** The members that hold data: every node but one leaving (a node that is down keeps its tablets). */
    List<String> dataHolders() {
        try {
            List<String> out = new ArrayList<>();
            for (ClusterCoordinator.Member m : coordinator.members()) {
                if (m.state().inGenerations()) {
                    out.add(m.hostId());
                }
            }
            return out;
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read the members from ZooKeeper: " + e, e);
        }
    }

    /** The live members and this node: where a new tablet table's tablets go. */
    List<String> liveHosts() {
        try {
            List<String> out = new ArrayList<>();
            for (ClusterCoordinator.Member m : coordinator.members()) {
                if (m.live() || m.hostId().equals(hostId)) {
                    out.add(m.hostId());
                }
            }
            return out;
        } catch (Exception e) {
            return List.of(hostId);
        }
    }

    /** The host ids of every member, live or not. */
    Set<String> memberIds() {
        Set<String> out = new HashSet<>();
        try {
            for (ClusterCoordinator.Member m : coordinator.members()) {
                out.add(m.hostId());
            }
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read the members from ZooKeeper: " + e, e);
        }
        return out;
    }

    /**
     * The members as system.peers and system_views.nodes list them, this node at the endpoints it
     * serves on; only this node while ZooKeeper cannot be read.
     */
    List<SystemTables.Peer> peers(List<Long> tokens, String endpoint, String nativeEndpoint) {
        UUID self = UUID.fromString(hostId);
        List<SystemTables.Peer> out = new ArrayList<>();
        try {
            for (ClusterCoordinator.Member m : coordinator.members()) {
                boolean isSelf = m.hostId().equals(hostId);
                // a member that is not live is DOWN (system_views.nodes lists it; system.peers does not)
                out.add(new SystemTables.Peer(UUID.fromString(m.hostId()), isSelf ? endpoint : m.endpoint(), m.tokens(), isSelf,
                        isSelf || m.live() ? m.state().name() : "DOWN", isSelf ? nativeEndpoint : m.nativeEndpoint()));
            }
        } catch (Exception e) {
            // ZooKeeper unreachable: still describe this node
            out.add(new SystemTables.Peer(self, endpoint, tokens, true, NodeState.NORMAL.name(), nativeEndpoint));
        }
        if (out.stream().noneMatch(SystemTables.Peer::self)) {
            out.add(new SystemTables.Peer(self, endpoint, tokens, true, NodeState.NORMAL.name(), nativeEndpoint));
        }
        return out;
    }
}
