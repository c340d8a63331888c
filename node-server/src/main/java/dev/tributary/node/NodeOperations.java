package dev.tributary.node;

import dev.tributary.capture.CdcTableCapture;
import dev.tributary.generations.NodeState;
import dev.tributary.node.capture.CaptureProcesses;
import dev.tributary.node.capture.RocksDbCdcLog;
import dev.tributary.node.capture.RocksDbRedoLog;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.exec.ClusterOperations;
import dev.tributary.node.exec.RoutingFence;
import dev.tributary.node.grpc.Peers;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.write.CommitPipeline;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster procedures as this node runs them. Decommission, in order: the node says LEAVING
 * (no ring gives it a range from then on; what still reaches it is forwarded), passes the routing
 * fence (every write it routed before has committed), publishes a generation over the ring
 * without it, waits for its CDC capture to log all it committed, hands every base row and CDC
 * log entry to the new owner of its token (serving its own log entries on until it leaves: a
 * consumer may not have read them yet, and will not get the copies from a node that already told
 * it a later safe time), keeps forwarding until the new generation is in force (a ring delay:
 * every node has seen it leave), then removes itself from ZooKeeper, marks its data directory so
 * it cannot come back with stale data, and deletes the log entries it handed over. A step that fails leaves the node
 * LEAVING, and running decommission again goes on from there (every step can be repeated).
 */
final class NodeOperations implements ClusterOperations {
    private static final Logger LOG = LoggerFactory.getLogger(NodeOperations.class);
    static final String DECOMMISSIONED = "node/decommissioned";
    private static final Duration CAPTURE_WAIT = Duration.ofSeconds(60);
    /** How long a node asked for rows waits to see the requester as their owner. */
    private static final Duration HAND_OVER_TIMEOUT = Duration.ofSeconds(30);

    private final UUID hostId;
    private final ClusterCoordinator coordinator;
    private final RoutingFence fence;
    private final Peers peers;
    private final NodeStore store;
    private final CommitPipeline pipeline;
    private final RocksDbRedoLog redo;
    private final RocksDbCdcLog cdcLog;
    private final CaptureProcesses captures;
    private final Duration ringDelay;
    private final CompletableFuture<Decommissioned> departed = new CompletableFuture<>();
    /** The replica groups' administration, or null when the node runs without replication. */
    private final ReplicaAdmin replicas;

    /** What the node asks of replication (ReplicatedNode) on an operator's behalf. */
    interface ReplicaAdmin {
        List<String> removenode(String hostId);

        /** The members of the replica group of the instance {@code hostId}, as its Raft configuration has them. */
        int copies(String hostId);

        /** A keyspace asks {@code factor} replicas: grow every group to that many (as live nodes allow). */
        void require(int factor);

        /** Refuses, with the reason, a decommission of the instance {@code hostId} that could not finish. */
        void checkCanRetire(String hostId);

        /**
         * The instance {@code hostId} handed its data to the others and left the ring: dissolve
         * its replica group and take its node out of every other group.
         */
        void retire(String hostId);
    }

    /** Where the hand-over shows how far it is (system_views.operations and the log). */
    private final dev.tributary.node.progress.RunningOperations running;

    NodeOperations(UUID hostId, ClusterCoordinator coordinator, RoutingFence fence, Peers peers, NodeStore store,
            CommitPipeline pipeline, RocksDbRedoLog redo, RocksDbCdcLog cdcLog, CaptureProcesses captures, Duration ringDelay,
            ReplicaAdmin replicas, dev.tributary.node.progress.RunningOperations running) {
        this.replicas = replicas;
        this.running = running;
        this.hostId = hostId;
        this.coordinator = coordinator;
        this.fence = fence;
        this.peers = peers;
        this.store = store;
        this.pipeline = pipeline;
        this.redo = redo;
        this.cdcLog = cdcLog;
        this.captures = captures;
        this.ringDelay = ringDelay;
    }

    /** Completes once the node has left the cluster. */
    CompletableFuture<Decommissioned> departed() {
        return departed;
    }

    /**
     * Before this node sends a requester the rows of some ranges: waits until this node's own
     * routing sends writes in those ranges to the requester (its ring has the requester live, or
     * the tablet map has it as the tablets' replica), then passes the routing fence. A write this
     * node accepted before is then in the rows it sends; a write after is forwarded.
     */
    void prepareHandOver(dev.tributary.protocol.v1.StreamRowsRequest req) {
        String requester = req.getRequesterHostId();
        coordinator.awaitLiveMember(requester, HAND_OVER_TIMEOUT);
        if (req.getTablets()) {
            long deadline = System.nanoTime() + HAND_OVER_TIMEOUT.toNanos();
            while (!req.getRangesList().stream().allMatch(r -> peers.owner(req.getObjectNumber(), r.getEnd()).equals(requester))) {
                if (System.nanoTime() > deadline) {
                    throw new TributaryException(ErrorCode.UNAVAILABLE, "node " + requester + " asked for tablets of table "
                            + req.getObjectNumber() + " whose replica it is not in this node's tablet map");
                }
                coordinator.tablets().refresh();
            }
        }
        fence.barrier();
    }

    @Override
    public List<String> removenode(String node) {
        if (replicas == null) {
            throw new InvalidRequestException("removenode: this cluster runs without replication (--replication-factor 1), "
                    + "so the data of node " + node + " has no other copy to bring back; start the nodes with "
                    + "--replication-factor 3 to survive a lost node");
        }
        return replicas.removenode(node);
    }

    @Override
    public long checkAndRepairCdcStreams() {
        return coordinator.checkAndRepairCdcStreams(ringDelay);
    }

    @Override
    public synchronized Decommissioned decommission() {
        if (replicas != null) {
            replicas.checkCanRetire(hostId.toString());
        }
        checkCanLeave();
        coordinator.markLeaving();
        // the tablets this node holds go to the others: their rows follow (handed over below)
        coordinator.tablets().rebalance(normalOthers());
        fence.barrier();
        long generation = coordinator.checkAndRepairCdcStreams(ringDelay);
        awaitCaptured(redo.lastScn());
        long moved;
        // an estimate: queue entries stay, and keys deleted but not yet compacted are counted
        try (dev.tributary.node.progress.RunningOperations.Operation op = running.start("decommission",
                "hand-over of node " + hostId, "entries", store.estimatedKeys(NodeStore.Family.ROWS)
                        + store.estimatedKeys(NodeStore.Family.CDC_LOG))) {
            moved = peers.handOverAll(store, pipeline, CaptureProcesses.QUEUE_ID_BASE, op::advance);
            op.succeeded();
        }
        // until the new generation is in force some node may not have seen this one leave and
        // still send it writes, which it forwards; none commits here any more
        long wait = generation - System.currentTimeMillis();
        if (wait > 0) {
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TributaryException(ErrorCode.UNAVAILABLE, "interrupted while leaving the cluster");
            }
        }
        coordinator.leave();
        store.put(NodeStore.Family.META, Keys.meta(DECOMMISSIONED),
                java.time.Instant.now().toString().getBytes(StandardCharsets.UTF_8), true);
        // consumers see it gone from now on and read the copies on the other nodes
        Peers.dropHandedOverLog(store, CaptureProcesses.QUEUE_ID_BASE);
        if (replicas != null) {
            // everything it held lives in the other instances now (their groups replicate it)
            replicas.retire(hostId.toString());
        }
        LOG.info("decommissioned: {} rows and log entries handed over; CDC generation {} leaves this node out", moved,
                java.time.Instant.ofEpochMilli(generation));
        Decommissioned d = new Decommissioned(hostId, generation, moved);
        departed.complete(d);
        return d;
    }

    private List<String> normalOthers() {
        try {
            List<String> out = new ArrayList<>();
            for (ClusterCoordinator.Member m : coordinator.members()) {
                if (m.live() && m.state() == NodeState.NORMAL && !m.hostId().equals(hostId.toString())) {
                    out.add(m.hostId());
                }
            }
            return out;
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read the members from ZooKeeper: " + e, e);
        }
    }

    private void checkCanLeave() {
        List<ClusterCoordinator.Member> members;
        try {
            members = coordinator.members();
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read the members from ZooKeeper: " + e, e);
        }
        List<String> normal = new ArrayList<>();
        for (ClusterCoordinator.Member m : members) {
            if (m.hostId().equals(hostId.toString())) {
                // LEAVING: a decommission that failed half-way is run again
                if (m.state() != NodeState.NORMAL && m.state() != NodeState.LEAVING) {
                    throw new InvalidRequestException("decommission: this node is " + m.state() + ", not NORMAL");
                }
            } else if (!m.live()) {
                throw new TributaryException(ErrorCode.UNAVAILABLE, "decommission: node " + m.hostId()
                        + " is down; its ranges could not take this node's data. Bring it back first");
            } else if (m.state() == NodeState.NORMAL) {
                normal.add(m.hostId());
            }
        }
        if (normal.isEmpty()) {
            throw new InvalidRequestException("decommission: no other node is NORMAL to take over this node's ranges");
        }
        if (!captures.captures().isEmpty()) {
            throw new InvalidRequestException("decommission: this node runs capture processes ("
                    + String.join(", ", captures.captures().stream().map(c -> c.name()).toList())
                    + ") whose queues live here; drop them first");
        }
    }

    private void awaitCaptured(long scn) {
        long deadline = System.nanoTime() + CAPTURE_WAIT.toNanos();
        while (cdcLog.checkpoint(CdcTableCapture.NAME) < scn) {
            if (System.nanoTime() > deadline) {
                throw new TributaryException(ErrorCode.UNAVAILABLE, "decommission: the CDC capture did not reach SCN " + scn
                        + " within " + CAPTURE_WAIT.toSeconds() + " s; the node stays LEAVING: run decommission again");
            }
            try {
                Thread.sleep(10); // the checkpoint has no notification of its own; it moves within milliseconds
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TributaryException(ErrorCode.UNAVAILABLE, "interrupted while waiting for the CDC capture");
            }
        }
    }
}
