package dev.tributary.node;

import dev.tributary.capture.CaptureWorker;
import dev.tributary.capture.Scns;
import dev.tributary.generations.GenerationHistory;
import dev.tributary.node.auth.AccessControl;
import dev.tributary.node.auth.Passwords;
import dev.tributary.node.changes.StreamReads;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.exec.ClusterOperations;
import dev.tributary.node.exec.SchemaService;
import dev.tributary.node.health.NodeHealth;
import dev.tributary.node.health.NodeLifecycle;
import dev.tributary.node.metrics.NodeMetrics;
import dev.tributary.node.progress.RunningOperations;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.time.HybridLogicalClock;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Tributary node, started as a stack of assemblies, each built from the configuration and
 * the ones below it: storage (store, identity, dictionary, redo, clock), the cluster (ZooKeeper,
 * clock check, redo thread, generations), the write path (commit pipeline, CDC log, schema,
 * writes), capture and apply (processes, queues, log transport), statements (system tables,
 * procedures, access control, the executor), the change log (the CDC capture, log switches,
 * retention, change-stream reads) and the fronts (gRPC, native protocol); then it joins the
 * cluster and serves. {@link #close()} first stops what takes work in (the servers, then the CDC
 * capture), then closes each assembly's parts in reverse of their start, the top assembly first.
 * A node is used from one thread for start/close; its services are thread-safe.
 */
public final class TributaryNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TributaryNode.class);

    private final NodeConfig config;
    private final NodeContext node;
    /** What each assembly started, in start order; made before the assembly starts, so a failed start closes its part. */
    private final List<StartedParts> started = new ArrayList<>();
    private StorageAssembly storage;
    private ClusterAssembly cluster;
    private WritePathAssembly writes;
    private CaptureApplyAssembly captureApply;
    private StatementsAssembly statements;
    private ChangeLogAssembly changeLog;

    /** A replica group's store this node runs on, or null: the node opens its own. */
    private final NodeStore replicatedStore;
    /** Set when this node made the superuser with a generated password; taken once, to be printed once. */
    private final AtomicReference<AccessControl.GeneratedPassword> generatedSuperuserPassword = new AtomicReference<>();

    /**
     * The wall clock every part of the node reads (milliseconds since the epoch): one source, so
     * the HLC, safe times, leases, retention and the clock check agree on "now".
     */
    private final LongSupplier wallMillis = System::currentTimeMillis;

    private TributaryNode(NodeConfig config, NodeStore replicatedStore, NodeOperations.ReplicaAdmin replicas,
            NodeMetrics metrics, RandomGenerator random) {
        this.config = config;
        this.replicatedStore = replicatedStore;
        this.node = new NodeContext(config, wallMillis, random, new ServedEndpoints(config), new NodeHealth(), metrics,
                RunningOperations.system(), replicas);
    }

    /**
     * The superuser password this node generated on the cluster's first start (password
     * authenticator, no --superuser-password-file), the first time it is asked; empty after that,
     * and on every other node and start. The node never logs it.
     */
    public Optional<AccessControl.GeneratedPassword> takeGeneratedSuperuserPassword() {
        return Optional.ofNullable(generatedSuperuserPassword.getAndSet(null));
    }

    /** Starts a node and returns once it serves; its metrics go to a registry of its own ({@link #metrics()}). */
    public static TributaryNode start(NodeConfig config) {
        return start(config, NodeMetrics.standalone());
    }

    /** Starts a node reporting to the process's {@code metrics}, and returns once it serves. */
    public static TributaryNode start(NodeConfig config, NodeMetrics metrics) {
        return start(config, null, null, metrics);
    }

    /**
     * Starts the instance of a replica group on the group's leader (docs/REPLICATION.md): its
     * identity, redo thread and data are the group's store's, whose writes go through the group;
     * the store stays open when the instance closes (the group owns it).
     */
    static TributaryNode start(NodeConfig config, NodeStore replicatedStore, NodeOperations.ReplicaAdmin replicas,
            NodeMetrics metrics) {
        return start(config, replicatedStore, replicas, metrics, new SecureRandom());
    }

    /**
     * For tests that replay a run from a seed (BadInputIT): a node whose host id, vnode tokens and
     * CDC stream ids come from {@code random} instead of a SecureRandom. Package-private: no
     * option or entry point gives users a predictable node.
     */
    static TributaryNode startSeeded(NodeConfig config, Random random) {
        return start(config, null, null, NodeMetrics.standalone(), random);
    }

    private static TributaryNode start(NodeConfig config, NodeStore replicatedStore, NodeOperations.ReplicaAdmin replicas,
            NodeMetrics metrics, RandomGenerator random) {
        TributaryNode n = new TributaryNode(config, replicatedStore, replicas, metrics, random);
        try {
            n.startAll();
            return n;
        } catch (RuntimeException | IOException e) {
            n.close();
            if (e instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException("node failed to start: " + e.getMessage(), e);
        }
    }

    private StartedParts nextParts() {
        StartedParts parts = new StartedParts();
        started.add(parts);
        return parts;
    }

    private void startAll() throws IOException {
        LOG.info("starting node with {}", config);
        config.requireClosedUnlessLoopback();
        // read first: a bad file stops the start before anything is opened
        Optional<String> superuserPassword = Optional.ofNullable(config.superuserPasswordFile()).map(Passwords::readFirstLine);
        storage = new StorageAssembly(nextParts(), node, replicatedStore);
        cluster = new ClusterAssembly(nextParts(), node, storage);
        writes = new WritePathAssembly(nextParts(), node, storage, cluster);
        captureApply = new CaptureApplyAssembly(nextParts(), node, storage, cluster, writes);
        statements = new StatementsAssembly(node, storage, cluster, writes, captureApply, superuserPassword);
        generatedSuperuserPassword.set(statements.generatedSuperuserPassword.orElse(null));
        changeLog = new ChangeLogAssembly(nextParts(), node, storage, cluster, writes, captureApply);
        new FrontsAssembly(nextParts(), node, storage, cluster, writes, captureApply, changeLog, statements);
        join(nextParts());
        node.health().become(NodeLifecycle.SERVING);
    }

    /**
     * The node goes live once it serves: its enabled Streams processes start (an apply into this
     * cluster calls the node's own server), it registers and takes the rows the other nodes hold
     * in its ranges, becomes NORMAL, moves tablet data here as it becomes their replica, takes its
     * share of the tablets, and reports its metrics.
     */
    private void join(StartedParts parts) {
        ClusterCoordinator coordinator = cluster.coordinator;
        captureApply.captureProcesses.startEnabled();
        captureApply.applyProcesses.startEnabled();
        // once registered, writes to this node's ranges come here: take the rows the other nodes hold in them
        long moved = captureApply.peers.pullOwnedRows(writes.pipeline,
                () -> coordinator.register(endpoint(), nativeEndpoint(), config.nodeName()));
        if (moved > 0) {
            LOG.info("range streaming: {} rows moved here from the other nodes", moved);
        }
        coordinator.markNormal();
        TabletMover mover = parts.add(new TabletMover(storage.hostId.toString(), coordinator.tablets(), captureApply.peers,
                writes.pipeline));
        mover.start();
        // a node that joined takes its share of the tablets (a no-op when they are spread evenly)
        int movedTablets = coordinator.tablets().rebalance(cluster.dataHolders());
        if (movedTablets > 0) {
            LOG.info("{} tablets move to balance the nodes", movedTablets);
        }
        parts.add(node.metrics().attach(new NodeInstanceMetrics(node, storage, cluster, writes, captureApply, changeLog)));
    }

    /** The host:port clients reach this node at (the bound port when 0 was asked for). */
    public String endpoint() {
        return node.endpoints().endpoint();
    }

    /** The host:port drivers reach this node's CQL native protocol at, or "" when it serves none. */
    public String nativeEndpoint() {
        return node.endpoints().nativeEndpoint();
    }

    public int port() {
        return node.endpoints().port();
    }

    /** The host id this node's routing gives {@code token} to (live owners only). */
    public String ringOwner(long token) {
        return cluster.coordinator.topology().ring().owner(token);
    }

    /** The node's vnode tokens. */
    public List<Long> tokens() {
        return List.copyOf(storage.tokens);
    }

    public UUID hostId() {
        return storage.hostId;
    }

    public NodeConfig config() {
        return config;
    }

    public GenerationHistory generations() {
        return cluster.coordinator.generations();
    }

    /** Completes once the node has been decommissioned (it has left the cluster; close it). */
    public CompletableFuture<ClusterOperations.Decommissioned> departed() {
        return statements.operations.departed();
    }

    public CaptureWorker capture() {
        return changeLog.capture;
    }

    /** The node's schema service (for tests: its fault hook). */
    public SchemaService schema() {
        return writes.schema;
    }

    /** The ReadStream calls open on this node. */
    public int openStreamReads() {
        return changeLog == null ? 0 : changeLog.streamReads.openCalls();
    }

    /**
     * Log retention rounds run to the end since the node started: a test of what retention keeps
     * awaits two more rounds (one begun after its change) rather than guessing their period.
     */
    public long retentionRounds() {
        return changeLog == null ? 0 : changeLog.retentionRounds.get();
    }

    /** The node's ReadStream and ReadStreams calls (for tests). */
    public StreamReads streamReads() {
        return changeLog.streamReads;
    }

    /** This instance's long operations in progress, as system_views.operations lists them. */
    public RunningOperations runningOperations() {
        return node.runningOperations();
    }

    /** The metrics this instance reports to (its process's). */
    public NodeMetrics metrics() {
        return node.metrics();
    }

    public HybridLogicalClock clock() {
        return storage.clock;
    }

    /** Where this instance is between start and close (what its gRPC health service reports). */
    public NodeLifecycle lifecycle() {
        return node.health().lifecycle();
    }

    /** Whether this instance's last health check found its ZooKeeper session lost (it refuses writes). */
    public boolean zookeeperSessionLost() {
        return node.health().sessionLost();
    }

    /** The node's ZooKeeper coordinator (for tests: their fault hooks expire its session). */
    public ClusterCoordinator coordinator() {
        return cluster.coordinator;
    }

    @Override
    public void close() {
        NodeHealth health = node.health();
        if (health.lifecycle().canBecome(NodeLifecycle.DRAINING)) {
            health.become(NodeLifecycle.DRAINING); // before the servers refuse calls
        }
        StartedParts.closeAll(started);
        started.clear();
        health.close();
        if (health.lifecycle().canBecome(NodeLifecycle.STOPPED)) {
            health.become(NodeLifecycle.STOPPED);
        }
    }

    /**
     * What bounds this node's safe times now (epoch millis): the membership view's time, the CDC
     * capture's caught-up SCN and the clock; for a test's failure message.
     */
    public String safeTimeBounds() {
        return "membership view " + changeLog.membership.current().readAtMillis() + ", capture caught up "
                + Scns.micros(changeLog.capture.caughtUpScn()) / 1000 + ", clock " + wallMillis.getAsLong();
    }
}
