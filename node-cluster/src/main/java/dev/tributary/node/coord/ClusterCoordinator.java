package dev.tributary.node.coord;

import dev.tributary.generations.GenerationCodec;
import dev.tributary.generations.GenerationHistory;
import dev.tributary.generations.NodeState;
import dev.tributary.generations.TokenRing;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's view of the cluster through ZooKeeper (Curator): its session, and its membership —
 * it registers the node as an ephemeral znode, publishes its tokens and keeps the ring of live
 * members current. The parts of the cluster's state it hands out live in their own classes:
 * generations ({@link ZooKeeperGenerations}), tablets ({@link TabletStreams}), the schema log,
 * consumer groups, roles and transport settings.
 *
 * <p>Znode layout under {@code /tributary/<cluster>}: {@code nodes/<host_id>} (ephemeral,
 * endpoint and name), {@code tokens/<host_id>} (persistent, the node's vnode tokens),
 * {@code generations/<timestamp>} (persistent, a {@link GenerationCodec}-encoded generation),
 * {@code locks/topology} (the mutex under which generations are created, so two nodes never
 * race to create one).
 *
 * <p>Thread-safe; {@link #generations()} never blocks.
 */
public final class ClusterCoordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterCoordinator.class);

    /**
     * The ring of the live members and their endpoints, as last read from ZooKeeper (refreshed on
     * every change of {@code nodes/} or {@code tokens/}). Routing uses it; CDC generations are
     * made from every member's tokens ({@link #ring()}).
     */
    /**
     * @param nodes the members of the cluster, live or down, but not one that is leaving: the
     *              most replicas a keyspace can have
     */
    /** @param liveNativeEndpoints the CQL native protocol endpoint of each live member that serves one */
    /** @param down the members that hold data (in the generations) but are not live: a read of table data would miss their rows */
    public record Topology(TokenRing ring, Map<String, String> liveEndpoints, int nodes, Map<String, String> liveNativeEndpoints,
            java.util.SortedSet<String> down) {
        public Topology {
            liveEndpoints = Map.copyOf(liveEndpoints);
            liveNativeEndpoints = Map.copyOf(liveNativeEndpoints);
            down = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(down));
        }
    }

    /** A member of the cluster as ZooKeeper lists it; {@code state} is DOWN when it is not live. */
    /** @param nativeEndpoint its CQL native protocol endpoint, empty when it serves none (or is not live) */
    public record Member(String hostId, String endpoint, String name, List<Long> tokens, boolean live, NodeState state,
            String nativeEndpoint) {
    }

    private final CuratorFramework curator;
    private final String root;
    private final String hostId;
    private final LongSupplier clock;
    private final RandomGenerator random;
    private volatile PersistentNode registration;
    private volatile String endpoint;
    private volatile String nativeEndpoint = "";
    private volatile String name;
    private final ZooKeeperGenerations generations;
    private final SchemaLog schemaLog;
    private final TransportSettings transport;
    private final ZooKeeperRoles roles;
    private boolean rolesStarted;
    private volatile Topology topology = new Topology(TokenRing.empty(), Map.of(), 0, Map.of(), new java.util.TreeSet<>());
    /** Whether {@link #topology} was ever read from ZooKeeper; before that it lists no node, not even this one. */
    private volatile boolean topologyRead;
    private final List<CuratorCache> membershipCaches = new ArrayList<>();
    private final List<Runnable> membershipListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final TabletStreams tablets;
    private final TopologyLock topologyLock;
    private final ConsumerGroups groups;
    private volatile NodeState state = NodeState.DOWN;
    /** Set when the ZooKeeper session is lost; cleared once this node's member znode is its current session's. */
    private volatile boolean sessionLost;
    /** Sessions lost so far (tests wait on it). */
    final java.util.concurrent.atomic.AtomicInteger sessionsLost = new java.util.concurrent.atomic.AtomicInteger();
    private final List<Runnable> sessionLostListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    private ClusterCoordinator(CuratorFramework curator, String root, String hostId, LongSupplier clock,
            RandomGenerator random) {
        this.curator = curator;
        this.root = root;
        this.hostId = hostId;
        this.clock = clock;
        this.random = random;
        this.schemaLog = new SchemaLog(curator, root);
        this.topologyLock = new TopologyLock(curator, root);
        this.tablets = new TabletStreams(curator, root, topologyLock, clock, random);
        this.generations = new ZooKeeperGenerations(curator, root, hostId, topologyLock, this::ring, clock, random);
        this.groups = new ConsumerGroups(curator, root, clock);
        this.transport = new TransportSettings(curator, root, this::peerSecret);
        this.roles = new ZooKeeperRoles(curator, root);
    }

    /** A check of this node's wall clock against ZooKeeper's, judged against {@code ringDelay}. */
    public ClockCheck clockCheck(Duration ringDelay) {
        return new ClockCheck(curator, root, hostId, clock, ringDelay);
    }

    /** The cluster's roles (started on first use, once the cluster's root exists). */
    public synchronized ZooKeeperRoles roles() {
        if (!rolesStarted) {
            roles.start();
            rolesStarted = true;
        }
        return roles;
    }

    /**
     * The secret nodes show each other on peer calls ({@code peer-secret}, 32 random bytes made by
     * the first node that asks): the peer service moves and deletes rows, so it answers only
     * callers that could read the cluster's ZooKeeper state (with --zookeeper-auth-file, the nodes
     * alone).
     */
    public byte[] peerSecret() {
        String path = root + "/peer-secret";
        try {
            try {
                byte[] secret = new byte[32];
                new java.security.SecureRandom().nextBytes(secret);
                curator.create().creatingParentsIfNeeded().forPath(path, secret);
            } catch (org.apache.zookeeper.KeeperException.NodeExistsException made) {
                // another node made it first: use theirs
            }
            return curator.getData().forPath(path);
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read the cluster's peer secret from ZooKeeper: " + e, e);
        }
    }

    /** The cluster's database links and log archive destinations. */
    public TransportSettings transport() {
        return transport;
    }

    /** The consumer groups of the cluster. */
    public ConsumerGroups groups() {
        return groups;
    }

    /** The CDC stream sets of tablet tables. */
    public TabletStreams tablets() {
        return tablets;
    }

    /** The cluster's schema changes, in the order every node applies them. */
    public SchemaLog schemaLog() {
        return schemaLog;
    }

    /** Connects to ZooKeeper; fails with UNAVAILABLE if it cannot within {@code connectTimeout}. */
    public static ClusterCoordinator connect(String connectString, String cluster, String hostId, LongSupplier clock,
            RandomGenerator random, Duration connectTimeout, ZooKeeperClients.Access access) {
        CuratorFramework c = ZooKeeperClients.connect(connectString, connectTimeout, access);
        String root = "/tributary/" + cluster;
        if (access.credentials().isPresent()) {
            int closed = ZooKeeperClients.call("give the cluster's znodes the ACL of --zookeeper-auth-file", () -> {
                try {
                    return ZooKeeperAcls.closeOpen(c, root);
                } catch (Exception e) {
                    c.close();
                    throw e;
                }
            });
            if (closed > 0) {
                LOG.info("gave {} znodes under {}, made before --zookeeper-auth-file, its ACL (CREATOR_ALL_ACL)", closed, root);
            }
        }
        ClusterCoordinator coordinator = new ClusterCoordinator(c, root, hostId, clock, random);
        c.getConnectionStateListenable().addListener((client, s) -> coordinator.onConnectionState(s));
        return coordinator;
    }

    /**
     * The node's reaction to its ZooKeeper connection, by Curator's connection states:
     * <ul>
     * <li>SUSPENDED: the connection dropped, the session may still be alive. The node keeps serving
     * with the ring it has: the ring changes only under the topology lock, and a node taking
     * ranges over reads ZooKeeper after a sync before any row moves, so nothing moves meanwhile.
     * <li>LOST: the session is gone, so the others see this node DOWN and route its ranges to the
     * next live owner. It refuses writes (UNAVAILABLE, which clients retry elsewhere) rather than
     * accept rows the ring now gives to another node.
     * <li>RECONNECTED: Curator's persistent ephemeral node registers the member again; writes are
     * taken again once this node's member znode is its current session's (checked by the next
     * write, off Curator's event thread).
     * </ul>
     */
    void onConnectionState(org.apache.curator.framework.state.ConnectionState s) {
        membershipListeners.forEach(Runnable::run); // a watch may be missed while the connection is down
        switch (s) {
            case SUSPENDED -> LOG.warn("node {}: ZooKeeper connection suspended; serving with the last known ring", hostId);
            case LOST -> {
                sessionLost = true;
                sessionsLost.incrementAndGet();
                LOG.warn("node {}: ZooKeeper session lost; refusing writes until it is a live member again", hostId);
                sessionLostListeners.forEach(Runnable::run);
            }
            case RECONNECTED -> LOG.info("node {}: ZooKeeper reconnected", hostId);
            default -> {
                // CONNECTED (the first connection) and READ_ONLY (not enabled) need nothing
            }
        }
    }

    /**
     * Runs {@code r} on every change seen to the members or their tokens (before the topology is
     * read again) and on every change of the ZooKeeper connection; it must be quick.
     */
    public void onMembershipChange(Runnable r) {
        membershipListeners.add(r);
    }

    /**
     * Runs {@code r} on Curator's event thread each time the session is lost, after writes are
     * refused; it must be quick (it must not read ZooKeeper).
     */
    public void onSessionLost(Runnable r) {
        sessionLostListeners.add(r);
    }

    /** Whether this node's member znode exists and belongs to the client's current session. */
    private boolean registeredInThisSession() {
        try {
            org.apache.zookeeper.data.Stat st = curator.checkExists().forPath(root + "/nodes/" + hostId);
            return st != null && st.getEphemeralOwner() == curator.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return false; // not connected: not registered as far as we can tell
        }
    }

    /** Null while this node may take writes; else the reason, for the UNAVAILABLE error. */
    public String refusesWritesBecause() {
        if (!topologyRead) {
            // its gRPC server is up before it registers: a write now would be judged (replication
            // factor, ownership) against a ring that lists no node
            return "node " + hostId + " is starting and has not yet read the cluster's members from ZooKeeper; retry shortly";
        }
        if (!sessionLost) {
            return null;
        }
        // asked on the write path, not on Curator's event thread (which must not wait on reads);
        // a session only presumed lost keeps its znode, so no watch would say it is back.
        // Not connected, the read would wait out Curator's retries (NemesisIT: a node cut from
        // ZooKeeper held every write for the client's whole timeout instead of refusing it).
        if (curator.getZookeeperClient().isConnected() && registeredInThisSession()) {
            sessionLost = false;
            LOG.info("node {} is a live member again; taking writes", hostId);
            return null;
        }
        return "node " + hostId + " lost its ZooKeeper session; the cluster routes its ranges elsewhere "
                + "until it registers again";
    }

    /** This node's own state. */
    public NodeState state() {
        return state;
    }

    /**
     * Publishes the node's tokens, starts watching generations and creates the first generation
     * if the cluster has none (its timestamp = now + ring delay). When this returns the node
     * knows every generation, so it can route writes and captures.
     */
    public void prepare(Collection<Long> tokens, Duration ringDelay) {
        try {
            ensure(root + "/nodes");
            ensure(root + "/tokens");
            ensure(root + "/generations");
            ensure(root + "/locks");
            ensure(root + "/schema");
            ensure(root + "/tablets");
            ensure(root + "/tablet-maps");
            byte[] tokenBytes = encodeTokens(tokens);
            String tokenPath = root + "/tokens/" + hostId;
            if (curator.checkExists().forPath(tokenPath) == null) {
                curator.create().forPath(tokenPath, tokenBytes);
            } else {
                curator.setData().forPath(tokenPath, tokenBytes);
            }
            generations.start(tokens, ringDelay);
            tablets.start();
        } catch (TributaryException e) {
            throw e;
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "joining the cluster through ZooKeeper failed: " + e, e);
        }
    }

    /** Redo thread numbers run 1 to this (10 bits of an LCR position's timeuuid: see CdcLogFormatter#lsb). */
    public static final int MAX_REDO_THREADS = 1023;

    /**
     * The node's redo thread number, unique in the cluster: {@code threads/<n>} holds the host id
     * of the node that took n. Each node is an instance with its own redo thread, and an LCR's
     * position carries its thread next to its SCN, so two nodes committing at the same SCN (their
     * clocks tick alike) never give two LCRs one position. Numbers are not reused after a node
     * leaves: its LCRs stay in the log.
     *
     * @param known the number this node took before (from its store), or 0
     */
    public int redoThread(int known) {
        try {
            ensure(root + "/threads");
            byte[] me = hostId.getBytes(StandardCharsets.UTF_8);
            for (int n = known > 0 ? known : 1; n <= MAX_REDO_THREADS; n++) {
                String path = root + "/threads/" + n;
                try {
                    curator.create().forPath(path, me);
                    return n;
                } catch (KeeperException.NodeExistsException taken) {
                    if (java.util.Arrays.equals(curator.getData().forPath(path), me)) {
                        return n;
                    }
                    if (known > 0) {
                        throw new TributaryException(ErrorCode.INVALID_REQUEST, "redo thread " + known + " of node " + hostId
                                + " belongs to node " + new String(curator.getData().forPath(path), StandardCharsets.UTF_8)
                                + " in ZooKeeper; is this data directory a copy of another node's?");
                    }
                }
            }
            throw new TributaryException(ErrorCode.UNAVAILABLE, "all " + MAX_REDO_THREADS + " redo thread numbers are taken");
        } catch (TributaryException e) {
            throw e;
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not take a redo thread number in ZooKeeper: " + e, e);
        }
    }

    /**
     * The redo threads of the nodes in the ring now (with {@code own}, this node's, always): the
     * threads a downstream database merging this cluster's shipped logs must wait for.
     */
    public List<Integer> ringThreads(int own) {
        java.util.Set<String> ring = new java.util.HashSet<>(topology().ring().nodes());
        java.util.TreeSet<Integer> out = new java.util.TreeSet<>(List.of(own));
        try {
            for (String n : curator.getChildren().forPath(root + "/threads")) {
                try {
                    if (ring.contains(new String(curator.getData().forPath(root + "/threads/" + n), StandardCharsets.UTF_8))) {
                        out.add(Integer.parseInt(n));
                    }
                } catch (KeeperException.NoNodeException gone) {
                    // numbers are never removed; nothing to list
                }
            }
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read the redo threads from ZooKeeper: " + e, e);
        }
        return List.copyOf(out);
    }

    /** Registers the serving node as an ephemeral member znode (endpoint and name), without a native endpoint. */
    public void register(String endpoint, String name) {
        register(endpoint, "", name);
    }

    /**
     * Registers the serving node as an ephemeral member znode: its gRPC endpoint, its CQL native
     * protocol endpoint (empty for none) and its name.
     */
    public void register(String endpoint, String nativeEndpoint, String name) {
        try {
            this.endpoint = endpoint;
            this.nativeEndpoint = nativeEndpoint;
            this.name = name;
            state = state.become(NodeState.JOINING);
            dropStaleRegistration();
            registration = new PersistentNode(curator, CreateMode.EPHEMERAL, false, root + "/nodes/" + hostId,
                    memberData(NodeState.JOINING));
            registration.start();
            if (!registration.waitForInitialCreate(30, TimeUnit.SECONDS)) {
                throw new TributaryException(ErrorCode.UNAVAILABLE, "could not register node " + hostId + " in ZooKeeper");
            }
            for (String dir : List.of("/nodes", "/tokens")) {
                CuratorCache cache = CuratorCache.build(curator, root + dir);
                cache.listenable().addListener((type, oldData, data) -> {
                    membershipListeners.forEach(Runnable::run);
                    refreshTopology();
                });
                cache.start();
                membershipCaches.add(cache);
            }
            refreshTopology();
        } catch (TributaryException e) {
            throw e;
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "registering in ZooKeeper failed: " + e, e);
        }
    }

    /**
     * A member znode of this host id left by an earlier session (the process died, or the
     * instance now runs on another replica) would stay until that session expires, showing the
     * member live at an endpoint no one answers: remove it, since this registration supersedes it.
     */
    private void dropStaleRegistration() throws Exception {
        String path = root + "/nodes/" + hostId;
        org.apache.zookeeper.data.Stat st = curator.checkExists().forPath(path);
        if (st != null && st.getEphemeralOwner() != curator.getZookeeperClient().getZooKeeper().getSessionId()) {
            try {
                curator.delete().withVersion(st.getVersion()).forPath(path);
                LOG.info("removed the member znode of node {} left by an earlier session", hostId);
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException gone) {
                // expired or replaced meanwhile: nothing stale left to remove
            }
        }
    }

    /** The Curator client (package-private: a test expires its session). */
    CuratorFramework curator() {
        return curator;
    }

    private byte[] memberData(NodeState state) throws java.io.IOException {
        Properties p = new Properties();
        p.setProperty("endpoint", endpoint);
        p.setProperty("native_endpoint", nativeEndpoint);
        p.setProperty("name", name);
        p.setProperty("state", state.name());
        java.io.StringWriter w = new java.io.StringWriter();
        p.store(w, null);
        return w.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The node has taken over its ranges: its member znode says NORMAL from now on. */
    public void markNormal() {
        try {
            registration.setData(memberData(NodeState.NORMAL));
            state = state.become(NodeState.NORMAL);
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not mark node " + hostId + " NORMAL in ZooKeeper: " + e, e);
        }
    }

    /**
     * Waits until this node's topology has {@code hostId} as a live member, reading ZooKeeper
     * itself rather than waiting for the watch, after a sync so the read is not behind the
     * member's own registration.
     *
     * @throws TributaryException UNAVAILABLE when it is not live within {@code timeout}
     */
    public void awaitLiveMember(String hostId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (!topology.liveEndpoints().containsKey(hostId)) {
                if (System.nanoTime() > deadline) {
                    throw new TributaryException(ErrorCode.UNAVAILABLE, "node " + hostId + " is not a live member after "
                            + timeout.toMillis() + " ms");
                }
                ZkSync.sync(curator, root + "/nodes");
                refreshTopology();
            }
        } catch (TributaryException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException(ErrorCode.UNAVAILABLE, "interrupted while waiting for node " + hostId);
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read the members from ZooKeeper: " + e, e);
        }
    }

    /**
     * Decommission, first step: the member znode says LEAVING, so no node's ring gives this node a
     * range any more (it keeps serving and forwards what still reaches it), and generations made
     * from now on leave its tokens out. This node's own ring changes before this returns.
     */
    public void markLeaving() {
        try {
            registration.setData(memberData(NodeState.LEAVING));
            curator.setData().forPath(root + "/nodes/" + hostId, memberData(NodeState.LEAVING));
            state = state.become(NodeState.LEAVING);
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not mark node " + hostId + " LEAVING in ZooKeeper: " + e, e);
        }
        refreshTopology();
    }

    /** Decommission, last step: the node's tokens and member znode are removed; it is no longer in the cluster. */
    public void leave() {
        try {
            registration.close();
            registration = null;
            curator.delete().guaranteed().forPath(root + "/tokens/" + hostId);
            state = state.become(NodeState.DOWN);
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not remove node " + hostId + " from ZooKeeper: " + e, e);
        }
    }

    /** The ring and live endpoints; never blocks. */
    public Topology topology() {
        return topology;
    }

    private synchronized void refreshTopology() {
        try {
            Map<Long, String> owners = new LinkedHashMap<>();
            Map<String, String> endpoints = new LinkedHashMap<>();
            Map<String, String> nativeEndpoints = new LinkedHashMap<>();
            int nodes = 0;
            java.util.SortedSet<String> down = new java.util.TreeSet<>();
            for (Member m : members()) {
                if (m.state().inGenerations()) {
                    nodes++;
                    if (!m.live() || m.endpoint().isEmpty()) {
                        down.add(m.hostId());
                    }
                }
                // only live members own ranges for routing: a joining node owns nothing until it
                // serves, and the ranges of a node that is down go to the next live owner (reads
                // gather every node, so what is written there is found). A leaving node owns
                // nothing but is still read from until it has handed its rows over.
                if (m.live() && !m.endpoint().isEmpty()) {
                    if (m.state().ownsRanges()) {
                        for (long t : m.tokens()) {
                            owners.put(t, m.hostId());
                        }
                    }
                    endpoints.put(m.hostId(), m.endpoint());
                    if (!m.nativeEndpoint().isEmpty()) {
                        nativeEndpoints.put(m.hostId(), m.nativeEndpoint());
                    }
                }
            }
            topology = new Topology(TokenRing.of(owners), endpoints, nodes, nativeEndpoints, down);
            topologyRead = true;
        } catch (Exception e) {
            LOG.warn("could not refresh the cluster topology from ZooKeeper: {}", e.toString());
        }
    }

    private void ensure(String path) throws Exception {
        try {
            curator.create().creatingParentsIfNeeded().forPath(path);
        } catch (KeeperException.NodeExistsException ignored) {
            // another node made it first
        }
    }

    /**
     * ScyllaDB's {@code nodetool checkAndRepairCdcStreams}: makes a new generation over the current
     * ring on request (a ring delay ahead), for example after streams were lost.
     *
     * @return the new generation's timestamp
     */
    public long checkAndRepairCdcStreams(Duration ringDelay) {
        return generations.renew(ringDelay);
    }

    /** Runs {@code hook} inside the topology lock just before a generation is published (a test expires the session there). */
    void beforePublish(Runnable hook) {
        generations.beforePublish = hook;
    }

    /** The generations as this node's watch last saw them; never blocks. */
    public GenerationHistory generations() {
        return generations.current();
    }

    /** The generations as ZooKeeper has them now (a sync and a listing; see {@link ZooKeeperGenerations#now()}). */
    public GenerationHistory generationsNow() {
        return generations.now();
    }

    /** The token ring from every node's published tokens, but those of a node that is leaving. */
    public TokenRing ring() throws Exception {
        Map<Long, String> owners = new LinkedHashMap<>();
        for (Member m : members()) {
            if (!m.state().inGenerations()) {
                continue;
            }
            for (long t : m.tokens()) {
                owners.put(t, m.hostId());
            }
        }
        return TokenRing.of(owners);
    }

    /** Every node that ever published tokens, live or not. */
    public List<Member> members() throws Exception {
        List<Member> out = new ArrayList<>();
        List<String> live = curator.getChildren().forPath(root + "/nodes");
        for (String id : curator.getChildren().forPath(root + "/tokens")) {
            List<Long> tokens;
            try {
                tokens = decodeTokens(curator.getData().forPath(root + "/tokens/" + id));
            } catch (KeeperException.NoNodeException e) {
                continue; // decommissioned between the listing and the read
            }
            String endpoint = "";
            String nativeEndpoint = "";
            String name = "";
            NodeState state = NodeState.DOWN;
            if (live.contains(id)) {
                try {
                    Properties p = new Properties();
                    p.load(new java.io.StringReader(new String(curator.getData().forPath(root + "/nodes/" + id),
                            StandardCharsets.UTF_8)));
                    endpoint = p.getProperty("endpoint", "");
                    nativeEndpoint = p.getProperty("native_endpoint", "");
                    name = p.getProperty("name", "");
                    state = NodeState.parse(p.getProperty("state"));
                } catch (KeeperException.NoNodeException e) {
                    // left between the listing and the read
                }
            }
            out.add(new Member(id, endpoint, name, tokens, live.contains(id), state, nativeEndpoint));
        }
        return out;
    }

    static byte[] encodeTokens(Collection<Long> tokens) {
        StringBuilder sb = new StringBuilder();
        for (long t : tokens) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(t);
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static List<Long> decodeTokens(byte[] data) {
        List<Long> out = new ArrayList<>();
        String s = new String(data, StandardCharsets.UTF_8).trim();
        if (!s.isEmpty()) {
            for (String part : s.split(",")) {
                out.add(Long.parseLong(part.trim()));
            }
        }
        return out;
    }

    @Override
    public void close() {
        membershipCaches.forEach(CuratorCache::close);
        roles.close();
        schemaLog.close();
        tablets.close();
        generations.close();
        PersistentNode r = registration;
        if (r != null) {
            try {
                r.close();
            } catch (java.io.IOException e) {
                LOG.warn("could not remove the member znode: {}", e.toString());
            }
        }
        curator.close();
    }
}
