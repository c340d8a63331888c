package dev.tributary.node;

import dev.tributary.generations.ReplicaPlacement;
import dev.tributary.node.coord.ReplicaDirectory;
import dev.tributary.node.replication.RaftHost;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.protocol.RaftPeer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node process with replication on (docs/REPLICATION.md): one Raft server holding a replica of
 * every replica group the placement gives it, and the instance of each group it leads.
 *
 * <p>Each node's instance — its identity, tokens, redo thread, rows and logs — is the state of
 * its own replica group, written only through the group's log. The instance runs where the
 * group's leader is: normally its home node (the member of highest priority), and on a surviving
 * replica within seconds when the home node dies, with everything the home node acknowledged.
 * When the home node is back and caught up, Ratis hands leadership back and the instance comes
 * home. A group placed while the cluster had fewer nodes than the replication factor grows as
 * nodes join. A guest runs only an instance its home node has run once: a node is admitted to the
 * ring by its own instance, never by another's on its behalf.
 */
public final class ReplicatedNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedNode.class);
    private static final long RESTART_DELAY_MILLIS = 2000;
    private static final long HOMECOMING_PERIOD_MILLIS = 2000;
    /** Whether a {@link #comeHome} is scheduled. */
    private final java.util.concurrent.atomic.AtomicBoolean homecoming = new java.util.concurrent.atomic.AtomicBoolean();
    /** How soon a reconfiguration that failed (a new member had not joined yet) is tried again. */
    private static final long RECONCILE_RETRY_MILLIS = 500;

    private final NodeConfig config;
    private final String hostId;
    private final ReplicaDirectory directory;
    private final ExecutorService placementWork = Executors.newSingleThreadExecutor(daemon("tributary-replica-placement"));
    private final java.util.concurrent.ScheduledExecutorService instanceWork =
            Executors.newSingleThreadScheduledExecutor(daemon("tributary-replica-instances"));
    private final Map<String, TributaryNode> running = new ConcurrentHashMap<>();
    private final CompletableFuture<TributaryNode> home = new CompletableFuture<>();
    private final CompletableFuture<Void> retired = new CompletableFuture<>();
    private volatile RaftHost raft;
    /** Whether a reconciliation is already due to run again (a group not at its members yet). */
    private final java.util.concurrent.atomic.AtomicBoolean retryScheduled = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean closed;
    private final dev.tributary.node.metrics.NodeMetrics metrics;
    /** Instances of other nodes' groups started here: the failovers this node took. */
    private final java.util.concurrent.atomic.AtomicLong failovers = new java.util.concurrent.atomic.AtomicLong();

    private ReplicatedNode(NodeConfig config, String hostId, ReplicaDirectory directory, dev.tributary.node.metrics.NodeMetrics metrics) {
        this.config = config;
        this.hostId = hostId;
        this.directory = directory;
        this.metrics = metrics;
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** Starts the Raft server, places this node's group, and returns once this node's own instance serves. */
    public static ReplicatedNode start(NodeConfig config, Duration timeout) {
        return start(config, timeout, dev.tributary.node.metrics.NodeMetrics.standalone());
    }

    /** As {@link #start(NodeConfig, Duration)}, reporting to the process's {@code metrics}. */
    public static ReplicatedNode start(NodeConfig config, Duration timeout, dev.tributary.node.metrics.NodeMetrics metrics) {
        if (config.embeddedZooKeeper()) {
            throw new IllegalArgumentException("replication (--replication raft, or --replication-factor "
                    + config.replicationFactor() + ") needs a ZooKeeper outside the nodes (--zookeeper HOST:PORT): an embedded one dies with its node");
        }
        Path data = config.dataDir();
        ReplicatedNode n;
        try {
            Files.createDirectories(data);
            String hostId = readOrWrite(data.resolve("host-id"), () -> UUID.randomUUID().toString());
            n = new ReplicatedNode(config, hostId, ReplicaDirectory.connect(config.zookeeper(), config.clusterName(),
                    Duration.ofSeconds(30), config.zookeeperAccess()), metrics);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare data directory " + data, e);
        }
        try {
            n.startRaft();
            return n.awaitHome(timeout);
        } catch (RuntimeException e) {
            n.close();
            throw e;
        }
    }

    private void startRaft() {
        Path data = config.dataDir();
        int port = config.raftPort();
        try {
            if (port == 0 && Files.exists(data.resolve("raft-port"))) {
                // the groups' configurations name this port: keep it across restarts
                port = Integer.parseInt(Files.readString(data.resolve("raft-port")).trim());
            }
            raft = RaftHost.start(hostId, new InetSocketAddress(config.raftHost(), port), data.resolve("raft"),
                    data.resolve("replicas"), RaftHost.Tuning.defaults(), roles, !config.tls() ? null
                            : new RaftHost.Tls(config.tlsKey().toFile(), config.tlsCert().toFile(),
                                    (config.tlsClientCa() != null ? config.tlsClientCa() : config.tlsCert()).toFile(),
                                    config.tlsClientCa() != null));
            Files.writeString(data.resolve("raft-port"), Integer.toString(raft.address().getPort()));
            metrics.raft(() -> raft.status().stream().map(g -> new dev.tributary.node.metrics.NodeMetrics.RaftGroup(g.group(),
                    g.role(), g.term(), g.commitIndex(), g.appliedIndex())).toList(), failovers::get);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the Raft port in " + data, e);
        }
        directory.publishHost(hostId, raft.address());
        directory.registerLive(hostId);
        directory.update("place the replica group of node " + hostId, p -> {
            if (p.groups().containsKey(hostId)) {
                return p;
            }
            Set<String> live = directory.liveHosts();
            return p.withGroup(hostId, hostId, live, Math.min(targetFactor(), live.size()));
        });
        directory.watch(() -> placementWork.execute(this::reconcile));
        placementWork.execute(this::reconcile);
        scheduleHomecoming();
    }

    /** One homecoming at a time: a stop of the own instance while one is scheduled adds none. */
    private void scheduleHomecoming() {
        if (!closed && homecoming.compareAndSet(false, true)) {
            instanceWork.schedule(this::comeHome, HOMECOMING_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Until this node runs its own instance: when another node leads its group (it ran the
     * instance while this one was down), ask for leadership back; the instance then moves here.
     */
    private void comeHome() {
        homecoming.set(false);
        if (closed || running.containsKey(hostId)) {
            return;
        }
        try {
            String leader = raft.hosts(hostId) ? raft.leader(hostId) : null;
            if (leader != null && !leader.equals(hostId)) {
                raft.takeLeadership(hostId, Duration.ofSeconds(10));
            }
        } catch (RuntimeException e) {
            LOG.info("node {}: its group's leadership has not come back yet: {}", hostId, e.getMessage());
        }
        scheduleHomecoming();
    }

    private ReplicatedNode awaitHome(Duration timeout) {
        try {
            home.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return this;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for this node's instance");
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("this node's instance failed to start: " + e.getCause().getMessage(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("this node's replica group " + hostId + " elected no leader here within "
                    + timeout.toMillis() + " ms (is a majority of its replicas up?)");
        }
    }

    /** Makes this node's replicas follow the placement: joins the groups that list it, grows and reconfigures those it leads. */
    private void reconcile() {
        if (closed) {
            return;
        }
        try {
            Map<String, InetSocketAddress> hosts = directory.hosts();
            Set<String> live = directory.liveHosts();
            int target = Math.min(targetFactor(), live.size());
            ReplicaPlacement p = directory.placement();
            // groups placed when the cluster had fewer nodes, or shrunk by a removenode, grow; a
            // node that joined takes replicas over from the busiest
            if (!p.grown(live, target).balanced(live).equals(p)) {
                p = directory.update("grow and balance the replica groups", q -> q.grown(live, target).balanced(live));
            }
            // joins first: a group this node leads reconfigures only once its new members hold
            // replicas, and a failed reconfiguration must not keep this node out of other groups
            for (String group : p.groupsOf(hostId)) {
                if (!raft.hosts(group)) {
                    raft.join(group, peers(p, group, hosts));
                    LOG.info("node {} holds a replica of group {} with {}", hostId, group, p.members(group));
                } else if (raft.closedReplica(group)) {
                    // it stood for election before the leader added it, and the members told it to stop
                    raft.restartReplica(group, peers(p, group, hosts));
                    LOG.info("node {} started its closed replica of group {} again", hostId, group);
                }
            }
            boolean again = false;
            for (String group : p.groupsOf(hostId)) {
                List<String> members = p.members(group);
                if (raft.hosts(group) && raft.members(group).equals(new TreeSet<>(members))) {
                    continue;
                }
                // until the group is at its members, look again: its leader may be between
                // elections now, and no placement change will come to wake this node
                again = true;
                if (raft.leads(group)) {
                    try {
                        raft.reconfigure(group, peers(p, group, hosts));
                        LOG.info("group {} now has members {}", group, members);
                    } catch (RuntimeException e) {
                        // a new member has not joined yet: tried again soon (above)
                        LOG.info("node {}: group {} is not at members {} yet: {}", hostId, group, members, e.toString());
                    }
                }
            }
            if (again && !closed && retryScheduled.compareAndSet(false, true)) {
                instanceWork.schedule(() -> {
                    retryScheduled.set(false);
                    placementWork.execute(this::reconcile);
                }, RECONCILE_RETRY_MILLIS, TimeUnit.MILLISECONDS);
            }
            // a replica moved to another node: once the group's configuration no longer has this
            // node, its copy goes; a group dissolved by its node's decommission goes at once (its
            // data lives in the other instances)
            for (String group : raft.groups()) {
                boolean dissolved = !p.groups().containsKey(group);
                if (dissolved && group.equals(hostId)) {
                    continue; // this node decommissioned: its instance answers the call, then the process ends
                }
                if (dissolved || !p.members(group).contains(hostId) && !raft.members(group).contains(hostId)) {
                    // on the instances' thread, like every start and stop: a start of this group's
                    // instance queued there must not put it back after the stop
                    awaitOnInstanceWork(() -> stopInstance(group));
                    raft.leave(group);
                    LOG.info("node {} no longer holds a replica of group {}{}", hostId, group,
                            dissolved ? " (dissolved: its node decommissioned)" : "");
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("node {}: could not follow the replica placement; the next change tries again: {}", hostId, e.toString());
        }
    }

    private static List<RaftPeer> peers(ReplicaPlacement p, String group, Map<String, InetSocketAddress> hosts) {
        return p.members(group).stream().map(m -> RaftHost.peer(m, hosts.get(m), m.equals(group) ? 1 : 0)).toList();
    }

    private final RaftHost.RoleListener roles = new RaftHost.RoleListener() {
        @Override
        public void leaderReady(String group) {
            instanceWork.execute(() -> startInstance(group));
        }

        @Override
        public void leaderChanged(String group, String leader) {
            if (!hostId.equals(leader)) {
                instanceWork.execute(() -> stopInstance(group));
            }
        }
    };

    private void startInstance(String group) {
        if (closed || running.containsKey(group) || !raft.leads(group)) {
            return;
        }
        try {
            NodeStore store = raft.store(group);
            byte[] idKey = Keys.meta("node/host_id");
            boolean own = group.equals(hostId);
            if (store.get(NodeStore.Family.META, idKey) == null) {
                if (!own) {
                    // A node is admitted by running its own instance once: until then its group holds
                    // nothing to serve, and a guest that ran it would put in the ring a node that may
                    // never have been heard from over Raft (one whose certificate every node refuses
                    // still registers through ZooKeeper and gets its group placed: RaftTlsIT).
                    LOG.warn("node {} leads replica group {}, whose own node has never run its instance: not serving it "
                            + "until that node has (is it refused at the Raft handshake?)", hostId, group);
                    return;
                }
                // a new group: its instance is the home node's, named by the group
                store.put(NodeStore.Family.META, idKey, group.getBytes(StandardCharsets.UTF_8), true);
            }
            NodeConfig c = own ? config : config.forGuestInstance(config.dataDir().resolve("instances").resolve(group));
            TributaryNode n = TributaryNode.start(c, store, admin, metrics);
            if (!own) {
                failovers.incrementAndGet();
            }
            running.put(group, n);
            // the term and applied index say which leadership each commit of the instance belongs to
            LOG.info("node {} runs the instance of group {} on {} (term {}, applied index {})", hostId, group, n.endpoint(),
                    raft.status().stream().filter(g -> g.group().equals(group)).map(RaftHost.GroupStatus::term).findFirst()
                            .orElse(-1L), raft.appliedIndex(group));
            if (own) {
                home.complete(n);
            }
        } catch (RuntimeException e) {
            // the group leads here and nothing else will start its instance: try again while it does
            LOG.warn("node {} could not start the instance of group {}; trying again in {} ms: {}", hostId, group,
                    RESTART_DELAY_MILLIS, e.toString());
            if (!closed) {
                instanceWork.schedule(() -> startInstance(group), RESTART_DELAY_MILLIS, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** Replicas per group: what the keyspaces asked of the cluster, and at least --replication-factor. */
    private int targetFactor() {
        return Math.max(config.replicationFactor(), directory.factor());
    }

    /** What the instances run here ask of replication on an operator's behalf. */
    private final NodeOperations.ReplicaAdmin admin = new NodeOperations.ReplicaAdmin() {
        @Override
        public List<String> removenode(String gone) {
            return ReplicatedNode.this.removenode(gone);
        }

        @Override
        public int copies(String instance) {
            return raft.hosts(instance) ? raft.members(instance).size() : 0;
        }

        @Override
        public void require(int factor) {
            directory.requireFactor(factor);
        }

        @Override
        public void checkCanRetire(String instance) {
            if (!instance.equals(hostId)) {
                throw new dev.tributary.node.errors.InvalidRequestException("decommission: the instance of node " + instance
                        + " runs on node " + hostId + " while its own node is down; start node " + instance
                        + " and decommission it there, or run removenode " + instance + " if it is gone for good");
            }
            Set<String> others = new TreeSet<>(directory.liveHosts());
            others.remove(hostId);
            if (others.size() < targetFactor()) {
                throw new dev.tributary.node.errors.TributaryException(dev.tributary.node.errors.ErrorCode.UNAVAILABLE,
                        "decommission: " + others.size() + " other live node(s) could not keep "
                                + targetFactor() + " replicas of each group (the keyspaces' replication_factor); add a node first");
            }
        }

        @Override
        public void retire(String instance) {
            // no group grows or is balanced onto this node any more; then its own group goes and
            // the others replace it (their leaders change their members, the newcomers catch up)
            directory.unregisterLive();
            Set<String> live = directory.liveHosts();
            directory.update("decommission node " + instance, p -> p.retired(instance, live));
            directory.forgetHost(instance);
            LOG.info("node {} decommissioned: its replica group is dissolved and it left every other group", instance);
            // the process may end once the instance has finished the call (it answers the operator)
            TributaryNode me = running.get(instance);
            if (me == null) {
                retired.complete(null);
            } else {
                me.departed().whenComplete((d, e) -> retired.complete(null));
            }
        }
    };

    /** Completes once this node has decommissioned: its process may end. */
    public CompletableFuture<Void> retired() {
        return retired;
    }

    /**
     * A node gone for good leaves every group it was in, replaced by the live node holding the
     * fewest replicas; each group's leader then changes the group's members and the newcomer
     * catches up from it. The node's own group lives on, led by a survivor.
     */
    private List<String> removenode(String gone) {
        if (directory.liveHosts().contains(gone)) {
            throw new dev.tributary.node.errors.InvalidRequestException("removenode: node " + gone
                    + " is up; stop it first (removenode is for a node that is gone for good)");
        }
        if (!directory.hosts().containsKey(gone)) {
            throw new dev.tributary.node.errors.InvalidRequestException(dev.tributary.node.errors.ErrorCode.NOT_FOUND,
                    "removenode: no node " + gone + " in this cluster");
        }
        ReplicaPlacement before = directory.placement();
        ReplicaPlacement after = directory.update("remove node " + gone, p -> p.without(gone, directory.liveHosts()));
        directory.forgetHost(gone);
        List<String> changed = before.groupsOf(gone);
        LOG.info("removenode {}: groups {} now {}", gone, changed, changed.stream().map(after::members).toList());
        return changed;
    }

    private void awaitOnInstanceWork(Runnable r) {
        try {
            instanceWork.submit(r).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping an instance");
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("stopping an instance failed: " + e.getCause(), e.getCause());
        }
    }

    private void stopInstance(String group) {
        TributaryNode n = running.remove(group);
        if (n != null) {
            LOG.info("node {} no longer leads group {}: its instance stops here", hostId, group);
            n.close();
            if (group.equals(hostId)) {
                // its own group's leadership went elsewhere while it runs (cut off from the others,
                // paused): once it can, it asks for it back, as at its start, or its own endpoint
                // stays closed after the fault heals (NemesisIT.aNodeCutFromPeersAndZooKeeper)
                scheduleHomecoming();
            }
        }
    }

    /** This node's own instance while it runs here (the one NodeMain reports), or null. */
    public TributaryNode home() {
        return running.get(hostId);
    }

    /** The instances running here: this node's own, and those of groups whose home node is down. */
    public Map<String, TributaryNode> instances() {
        return Map.copyOf(running);
    }

    public String hostId() {
        return hostId;
    }

    /** The replica groups the placement gives this node. */
    public List<String> replicaGroups() {
        return directory.placement().groupsOf(hostId);
    }

    /** This node's replica of a group's store (for checks that replicas agree; do not keep it). */
    public NodeStore replicaStore(String group) {
        return raft.store(group);
    }

    /** The members of a group's current Raft configuration, as this node's replica knows them. */
    public Set<String> members(String group) {
        return raft.members(group);
    }

    /** The index of the last entry of the group's log applied to this replica. */
    public long appliedIndex(String group) {
        return raft.appliedIndex(group);
    }

    private static String readOrWrite(Path file, java.util.function.Supplier<String> fresh) throws IOException {
        if (Files.exists(file)) {
            return Files.readString(file).trim();
        }
        String v = fresh.get();
        Files.writeString(file, v);
        return v;
    }

    @Override
    public void close() {
        closed = true;
        placementWork.shutdownNow();
        instanceWork.shutdownNow();
        running.keySet().forEach(this::stopInstance);
        if (raft != null) {
            raft.close();
        }
        directory.close();
    }
}
