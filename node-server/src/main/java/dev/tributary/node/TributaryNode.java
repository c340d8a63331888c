package dev.tributary.node;

import dev.tributary.capture.BufferedQueues;
import dev.tributary.capture.CaptureWorker;
import dev.tributary.capture.CdcTableCapture;
import dev.tributary.capture.CdcLogFormatter;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.generations.GenerationHistory;
import dev.tributary.generations.VnodeTokens;
import dev.tributary.dictionary.logminer.DictionaryBuilds;
import dev.tributary.node.capture.CaptureProcesses;
import dev.tributary.node.capture.DictionaryBuilder;
import dev.tributary.node.capture.LogMinerDictionaries;
import dev.tributary.node.capture.ArchiveLagSwitches;
import dev.tributary.node.capture.RedoSegments;
import dev.tributary.node.capture.GenerationRouter;
import dev.tributary.node.capture.RocksDbCdcLog;
import dev.tributary.node.capture.RocksDbRedoLog;
import dev.tributary.node.coord.ClockCheck;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.coord.EmbeddedZooKeeper;
import dev.tributary.node.exec.BaseTables;
import dev.tributary.node.exec.SystemAdmin;
import dev.tributary.node.exec.SchemaService;
import dev.tributary.node.exec.SelectService;
import dev.tributary.node.exec.StatementExecutor;
import dev.tributary.node.exec.SystemTables;
import dev.tributary.node.exec.WriteService;
import dev.tributary.node.write.IdempotencyKeys;
import dev.tributary.node.grpc.AdminGrpcService;
import dev.tributary.node.grpc.ChangeStreamGrpcService;
import dev.tributary.node.grpc.CqlGrpcService;
import dev.tributary.node.grpc.Peers;
import dev.tributary.node.grpc.StrictParsing;
import dev.tributary.node.net.Tls;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.time.HybridLogicalClock;
import dev.tributary.node.write.CommitPipeline;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.exec.ClusterOperations;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Tributary node: opens its store, rebuilds its dictionary, joins the cluster through
 * ZooKeeper, starts the committer, the implicit CDC capture and the gRPC server. {@link #close()}
 * stops them in reverse order. A node is used from one thread for start/close; its services
 * are thread-safe.
 */
public final class TributaryNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TributaryNode.class);
    /** How often log entries no one keeps are deleted. */
    private static final long RETENTION_PERIOD_MILLIS = 1000;
    /** How often the node's clock is compared with ZooKeeper's (RELIABILITY C6). */
    private static final long CLOCK_CHECK_SECONDS = 10;
    /** How often log transport looks for archived logs to ship. */
    private static final long LOG_TRANSPORT_PERIOD_MILLIS = 500;
    /** Expired idempotency keys deleted per retention run: one small transaction, never a long stall of the committer. */
    private static final int IDEMPOTENCY_PURGE_BATCH = 1000;

    private final NodeConfig config;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private NodeStore store;
    private ClusterCoordinator coordinator;
    private CaptureWorker capture;
    private dev.tributary.node.changes.MembershipView membership;
    private SchemaService schema;
    private CaptureProcesses captureProcesses;
    private dev.tributary.node.apply.ApplyProcesses applyProcesses;
    private Thread captureThread;
    private NodeOperations operations;
    private Server server;
    private final dev.tributary.node.grpc.UnaryCallsInFlight unaryCalls = new dev.tributary.node.grpc.UnaryCallsInFlight();
    private dev.tributary.node.nativeproto.NativeServer nativeServer;
    private UUID hostId;
    private List<Long> tokens;
    private MultiversionDictionary dictionary;
    private HybridLogicalClock clock;
    private dev.tributary.node.changes.StreamReads streamReads;
    private final dev.tributary.node.health.NodeHealth health = new dev.tributary.node.health.NodeHealth();
    /** This instance's long operations in progress (system_views.operations). */
    private final dev.tributary.node.progress.RunningOperations runningOperations =
            dev.tributary.node.progress.RunningOperations.system();
    private final java.util.concurrent.atomic.AtomicLong retentionRounds = new java.util.concurrent.atomic.AtomicLong();

    /** A replica group's store this node runs on, or null: the node opens its own. */
    private final NodeStore replicatedStore;
    private final NodeOperations.ReplicaAdmin replicas;
    /** Set when this node made the superuser with a generated password; taken once, to be printed once. */
    private final java.util.concurrent.atomic.AtomicReference<dev.tributary.node.auth.AccessControl.GeneratedPassword>
            generatedSuperuserPassword = new java.util.concurrent.atomic.AtomicReference<>();

    private final dev.tributary.node.metrics.NodeMetrics metrics;

    /**
     * The wall clock every part of the node reads (milliseconds since the epoch): one source, so
     * the HLC, safe times, leases, retention and the clock check agree on "now".
     */
    private final java.util.function.LongSupplier wallMillis = System::currentTimeMillis;
    /** Where the host id, vnode tokens and CDC stream ids come from: a SecureRandom, unless a test seeded it. */
    private final java.util.random.RandomGenerator random;

    private TributaryNode(NodeConfig config, NodeStore replicatedStore, NodeOperations.ReplicaAdmin replicas,
            dev.tributary.node.metrics.NodeMetrics metrics, java.util.random.RandomGenerator random) {
        this.config = config;
        this.replicatedStore = replicatedStore;
        this.replicas = replicas;
        this.metrics = metrics;
        this.random = random;
    }

    /**
     * The superuser password this node generated on the cluster's first start (password
     * authenticator, no --superuser-password-file), the first time it is asked; empty after that,
     * and on every other node and start. The node never logs it.
     */
    public java.util.Optional<dev.tributary.node.auth.AccessControl.GeneratedPassword> takeGeneratedSuperuserPassword() {
        return java.util.Optional.ofNullable(generatedSuperuserPassword.getAndSet(null));
    }

    /** Starts a node and returns once it serves; its metrics go to a registry of its own ({@link #metrics()}). */
    public static TributaryNode start(NodeConfig config) {
        return start(config, dev.tributary.node.metrics.NodeMetrics.standalone());
    }

    /** Starts a node reporting to the process's {@code metrics}, and returns once it serves. */
    public static TributaryNode start(NodeConfig config, dev.tributary.node.metrics.NodeMetrics metrics) {
        return start(config, null, null, metrics);
    }

    /**
     * Starts the instance of a replica group on the group's leader (docs/REPLICATION.md): its
     * identity, redo thread and data are the group's store's, whose writes go through the group;
     * the store stays open when the instance closes (the group owns it).
     */
    static TributaryNode start(NodeConfig config, NodeStore replicatedStore, NodeOperations.ReplicaAdmin replicas,
            dev.tributary.node.metrics.NodeMetrics metrics) {
        return start(config, replicatedStore, replicas, metrics, new SecureRandom());
    }

    /**
     * For tests that replay a run from a seed (BadInputIT): a node whose host id, vnode tokens and
     * CDC stream ids come from {@code random} instead of a SecureRandom. Package-private: no
     * option or entry point gives users a predictable node.
     */
    static TributaryNode startSeeded(NodeConfig config, java.util.Random random) {
        return start(config, null, null, dev.tributary.node.metrics.NodeMetrics.standalone(), random);
    }

    private static TributaryNode start(NodeConfig config, NodeStore replicatedStore, NodeOperations.ReplicaAdmin replicas,
            dev.tributary.node.metrics.NodeMetrics metrics, java.util.random.RandomGenerator random) {
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

    private void startAll() throws IOException {
        LOG.info("starting node with {}", config);
        config.requireClosedUnlessLoopback();
        // read first: a bad file stops the start before anything is opened
        java.util.Optional<String> superuserPassword = java.util.Optional.ofNullable(config.superuserPasswordFile())
                .map(dev.tributary.node.auth.Passwords::readFirstLine);
        if (replicatedStore != null) {
            store = replicatedStore;
        } else {
            store = NodeStore.open(config.dataDir().resolve("rocksdb"), null,
                    new NodeStore.Limits(config.maxDiskBytes(), config.memtableBytes()));
            resources.add(store);
        }
        hostId = identity(random);
        byte[] left = store.get(NodeStore.Family.META, Keys.meta(NodeOperations.DECOMMISSIONED));
        if (left != null) {
            throw new TributaryException(ErrorCode.INVALID_REQUEST, "node " + hostId + " was decommissioned at "
                    + new String(left, StandardCharsets.UTF_8) + "; start it with an empty --data-dir to join the cluster again");
        }
        tokens = tokens(random);
        dictionary = SchemaService.load(store);
        clock = new HybridLogicalClock(wallMillis);
        RocksDbRedoLog redo = new RocksDbRedoLog(store);
        // SCNs keep increasing across restarts even if the wall clock went back
        clock.observe(Math.max(redo.lastScn(), dictionary.latest().scn()));

        String zk = config.zookeeper();
        dev.tributary.node.coord.ZooKeeperClients.Access zkAccess = config.zookeeperAccess();
        if (config.embeddedZooKeeper()) {
            EmbeddedZooKeeper ezk = EmbeddedZooKeeper.start(config.dataDir().resolve("zookeeper"), config.embeddedZooKeeperPort(),
                    zkAccess.tls());
            resources.add(ezk);
            zk = ezk.connectString();
        }
        coordinator = ClusterCoordinator.connect(zk, config.clusterName(), hostId.toString(), wallMillis,
                random, Duration.ofSeconds(30), zkAccess);
        resources.add(coordinator);
        // before the first generation is made from this node's clock, and before any write
        ClockCheck clockCheck = coordinator.clockCheck(config.ringDelay());
        clockCheck.checkAtStart();
        java.util.concurrent.ScheduledExecutorService clockTimer = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "tributary-clock-check");
                    t.setDaemon(true);
                    return t;
                });
        clockTimer.scheduleWithFixedDelay(clockCheck::run, CLOCK_CHECK_SECONDS, CLOCK_CHECK_SECONDS, TimeUnit.SECONDS);
        resources.add(clockTimer::shutdownNow);
        int thread = redoThread();
        // generations must be known before anything routes a write or a capture to a stream
        coordinator.prepare(tokens, config.ringDelay());

        CommitPipeline pipeline = new CommitPipeline(store, clock, config.commitlogSync(),
                config.commitlogSyncPeriod().toMillis(), thread);
        resources.add(pipeline);
        pipeline.observeLatency(metrics.commitLatency(hostId.toString()));
        pipeline.addCommitListener(redo::signal);
        redo.completeness(pipeline::redoCompleteThrough);
        RocksDbCdcLog cdcLog = new RocksDbCdcLog(store);
        GenerationRouter router = new GenerationRouter(coordinator::generations, dictionary, coordinator.tablets()::history);
        BaseTables baseTables = new BaseTables(store, wallMillis);
        SchemaService schema = this.schema = new SchemaService(pipeline, dictionary, store, thread, coordinator.schemaLog(),
                hostId.toString(), t -> {
                    if (router.usesTablets(t)) {
                        coordinator.tablets().ensure(t.objectNumber(), tabletCount(t), liveHosts(), wallMillis.getAsLong(),
                                config.ringDelay().toMillis());
                    }
                });
        resources.add(schema);
        schema.start(); // the cluster's schema changes this node has not applied yet, before it serves
        IdempotencyKeys idempotency = new IdempotencyKeys(config.idempotencyWindow().toMillis(), wallMillis);
        WriteService writes = new WriteService(pipeline, dictionary, baseTables, router, clock,
                config.maxWriteSkew().toMillis(), config.maxValueBytes(), thread, config.forceLogging(), idempotency,
                new WriteService.Cluster() {
                    @Override
                    public int nodes() {
                        return Math.max(1, coordinator.topology().nodes());
                    }

                    @Override
                    public int nodeCopies() {
                        return replicas == null ? 1 : replicas.copies(hostId.toString());
                    }

                    @Override
                    public String moreCopiesNeeded(String what, int factor) {
                        if (replicas == null) {
                            return "Cannot achieve replication_factor " + factor + " for " + what + ": node " + hostId
                                    + " runs without replication and keeps 1 copy of its data; start the nodes with "
                                    + "--replication raft (local-cluster does) and a ZooKeeper of their own";
                        }
                        replicas.require(factor);
                        return what + " asks " + factor + " replicas: the replica group of node " + hostId + " has "
                                + nodeCopies() + " and is growing to " + factor + " (as live nodes allow); retry shortly";
                    }

                    @Override
                    public String refusesWritesBecause() {
                        String clockRefusal = clockCheck.refusesWritesBecause();
                        return clockRefusal != null ? clockRefusal : coordinator.refusesWritesBecause();
                    }
                });
        CdcLogFormatter formatter = new CdcLogFormatter(config.clusterName(), router);
        RedoSegments segments = new RedoSegments(store, redo, thread, config.redoSegmentBytes());
        dev.tributary.node.transport.ReceivedLogs receivedLogs = new dev.tributary.node.transport.ReceivedLogs(
                config.dataDir().resolve("received"));
        Tls tls = Tls.of(config.tlsCert(), config.tlsKey(), config.tlsClientCa(), config.maxValueBytes());
        resources.add(tls); // closed after everything that dials through it
        byte[] clusterSecret = coordinator.peerSecret();
        int sealed = coordinator.transport().sealClearPasswords();
        if (sealed > 0) {
            LOG.info("sealed the passwords of {} database links an older node kept in clear in ZooKeeper", sealed);
        }
        Peers peers = new Peers(coordinator::topology, coordinator.tablets()::map, hostId.toString(), tls, clusterSecret,
                config.forwardTimeout());
        BufferedQueues buffered = new BufferedQueues(config.queueBufferBytes());
        dev.tributary.node.transport.LinkLogins linkLogins = new dev.tributary.node.transport.LinkLogins(wallMillis);
        dev.tributary.node.transport.LinkCalls linkCalls = new dev.tributary.node.transport.LinkCalls(tls, linkLogins);
        dev.tributary.node.transport.SourceDatabases sources = new dev.tributary.node.transport.SourceDatabases(receivedLogs,
                coordinator.transport()::link, linkCalls);
        captureProcesses = new CaptureProcesses(store, redo, cdcLog, formatter, config.clusterName(), config.restricted(),
                new LogMinerDictionaries(store), new DictionaryBuilder(pipeline, dictionary, segments, store,
                        DictionaryBuilds.PART_BYTES, thread), buffered, sources,
                new dev.tributary.node.grpc.ClusterRedoThreads(coordinator::topology, hostId.toString(), redo, peers));
        resources.add(captureProcesses);
        applyProcesses = new dev.tributary.node.apply.ApplyProcesses(store, cdcLog, captureProcesses, coordinator.transport()::link,
                linkCalls, (owner, table) -> {
                    int nodes = coordinator.topology().nodes();
                    if (nodes > 1) {
                        throw new dev.tributary.node.errors.InvalidRequestException("instantiate_table copies the rows this node "
                                + "holds as of one SCN, and " + owner + "." + table + "'s rows are spread over " + nodes
                                + " nodes; copy the table yourself and set its instantiation SCN (set_table_instantiation_scn)");
                    }
                    return dev.tributary.node.apply.TableSnapshot.take(pipeline, store, baseTables, dictionary, owner, table);
                }, (source, owner, table) -> source.equalsIgnoreCase(config.clusterName())
                        // this cluster's own tables only: another source's table may have another key
                        ? dictionary.latest().table(owner, table).map(t -> java.util.stream.Stream.concat(t.partitionKey().stream(),
                                t.clusteringKey().stream()).map(dev.tributary.dictionary.schema.ColumnDef::name).toList())
                        : java.util.Optional.empty(), () -> peers.trustedChannel(endpoint()), runningOperations);
        resources.add(applyProcesses);
        dev.tributary.node.transport.LogShipper shipper = new dev.tributary.node.transport.LogShipper(store, segments, redo,
                coordinator.transport(), config.clusterName(), LOG_TRANSPORT_PERIOD_MILLIS, tls, linkLogins,
                () -> coordinator.ringThreads(thread));
        resources.add(shipper);
        shipper.start();
        // the redo is kept from the lowest checkpoint of any capture, the implicit CDC capture's
        // included, and until every log archive destination has it
        segments.retain(() -> Math.min(Math.min(captureProcesses.requiredScn(), cdcLog.checkpoint(CdcTableCapture.NAME)),
                shipper.requiredScn()), captureProcesses::newestBuild);
        SystemTables systemTables = new SystemTables(dictionary, cdcLog, coordinator::generationsNow, this::peers,
                config.clusterName(), captureProcesses, segments, coordinator.tablets()::history, coordinator.tablets()::map,
                coordinator.groups()::all, peers::forwardedWrites, peers::forwardedReads, receivedLogs::all, () -> coordinator.roles().roles(),
                store::load, () -> coordinator.transport().links().values());
        systemTables.register(new dev.tributary.node.apply.ApplyViews(applyProcesses).tables());
        systemTables.registerOperationsView(runningOperations);
        operations = new NodeOperations(hostId, coordinator, writes.fence(), peers, store, pipeline, redo, cdcLog,
                captureProcesses, config.ringDelay(), replicas, runningOperations);
        dev.tributary.node.coord.TransportSettings transport = coordinator.transport();
        dev.tributary.node.grpc.ClusterLogSwitches logSwitches = new dev.tributary.node.grpc.ClusterLogSwitches(
                coordinator::topology, hostId.toString(), () -> segments.archiveCurrent(pipeline), peers);
        dev.tributary.node.auth.AccessControl access = new dev.tributary.node.auth.AccessControl(config.authenticator(),
                coordinator.roles(), new dev.tributary.node.auth.Tokens(clusterSecret, wallMillis),
                wallMillis);
        generatedSuperuserPassword.set(access.ensureDefaultSuperuser(superuserPassword).orElse(null));
        dev.tributary.node.grpc.Authentication authentication = new dev.tributary.node.grpc.Authentication(access, peers);
        dev.tributary.node.exec.StatementAccess statementAccess = new dev.tributary.node.exec.StatementAccess(access,
                captureProcesses::queueRules);
        StatementExecutor executor = new StatementExecutor(dictionary, schema, writes, new SelectService(), systemTables,
                baseTables, captureProcesses, pipeline, operations, peers.placement(), new SystemAdmin() {
                    @Override
                    public void createLink(String name, String target, String user, String password) {
                        transport.createLink(name, target, user, password);
                    }

                    @Override
                    public void dropLink(String name, boolean ifExists) {
                        transport.dropLink(name, ifExists);
                    }

                    @Override
                    public void setSystemParameter(String parameter, String value) {
                        if (parameter.equalsIgnoreCase("max_disk_bytes")) {
                            setMaxDiskBytes(value);
                            return;
                        }
                        transport.setSystemParameter(parameter, value);
                        shipper.refreshDestinations(); // the redo keeps what a new destination needs from now on
                    }

                    @Override
                    public void switchLogfile() {
                        segments.switchLogfile();
                    }

                    @Override
                    public void archiveLogCurrent() {
                        logSwitches.archiveAll();
                    }
                }, statementAccess, new dev.tributary.node.apply.ApplyProcedures(applyProcesses, statementAccess));

        capture = new CaptureWorker(CdcTableCapture.NAME, redo, cdcLog, new CdcTableCapture(dictionary, formatter),
                new CaptureWorker.Options(CaptureWorker.Limits.NONE, config.captureParallelism(), wallMillis, null, buffered,
                        CaptureWorker.StateListener.NONE));
        captureThread = new Thread(capture, "tributary-capture-" + CdcTableCapture.NAME);
        captureThread.setDaemon(true);
        captureThread.start();
        ArchiveLagSwitches lagSwitches = new ArchiveLagSwitches(segments, transport::archiveLagTarget,
                () -> segments.archiveCurrent(pipeline), wallMillis);
        // log switches by size as the redo grows and by archive_lag_target as it ages, and purging of the archived and received logs no capture needs
        Thread logs = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    redo.awaitNewer(segments.countedThrough(), 1000);
                    segments.switchIfFull();
                    lagSwitches.run();
                    segments.purge();
                    for (String source : receivedLogs.sources()) {
                        captureProcesses.requiredScnOf(source).ifPresent(scn -> receivedLogs.purgeThrough(source, scn));
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    LOG.warn("redo log switch or purge failed; retrying", e);
                }
            }
        }, "tributary-redo-logs");
        logs.setDaemon(true);
        logs.start();
        resources.add(() -> {
            logs.interrupt();
            logs.join(10_000);
        });

        membership = new dev.tributary.node.changes.MembershipView(coordinator::members, wallMillis);
        coordinator.onMembershipChange(membership::changed);
        streamReads = new dev.tributary.node.changes.StreamReads(cdcLog, membership);
        resources.add(streamReads);
        ChangeStreamGrpcService.StreamSources streamSources = new ChangeStreamGrpcService.StreamSources(
                coordinator.tablets()::history, coordinator::members, capture::caughtUpScn, clock::current,
                new dev.tributary.node.changes.SafeTimes(wallMillis, config.maxWriteSkew().toMillis(), membership),
                streamReads, new ChangeStreamGrpcService.TableSnapshots(hostId.toString(), thread,
                        (keyspace, table) -> snapshotRows(dev.tributary.node.apply.TableSnapshot.take(pipeline, store,
                                baseTables, dictionary, keyspace, table, "ReadTableSnapshot"))));
        // entries no one keeps any more (every group passed them, or the table's cdc ttl expired them)
        dev.tributary.node.capture.LogRetention retention = new dev.tributary.node.capture.LogRetention(dictionary, cdcLog,
                captureProcesses::queues, coordinator.groups()::all, () -> wallMillis.getAsLong() * 1000);
        java.util.concurrent.ScheduledExecutorService retentionTimer = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "tributary-log-retention");
                    t.setDaemon(true);
                    return t;
                });
        retentionTimer.scheduleWithFixedDelay(() -> {
            try {
                retention.run();
                retentionRounds.incrementAndGet();
                // through the committer, so a purge never races a lookup of the same key
                pipeline.commit(ctx -> idempotency.purgeExpired(ctx, IDEMPOTENCY_PURGE_BATCH));
            } catch (RuntimeException e) {
                LOG.warn("log retention failed; retrying", e);
            }
        }, RETENTION_PERIOD_MILLIS, RETENTION_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        resources.add(retentionTimer::shutdownNow);

        io.grpc.ServerInterceptor authenticated = authentication.interceptor();
        server = NettyServerBuilder.forAddress(new InetSocketAddress(config.listenHost(), config.listenPort()))
                .sslContext(tls.grpcServer()) // null: plaintext
                .intercept(unaryCalls)
                .addService(StrictParsing.wrap(new dev.tributary.node.grpc.AuthGrpcService(access).bindService()))
                .addService(io.grpc.ServerInterceptors.intercept(StrictParsing.wrap(new CqlGrpcService(executor, peers,
                        authentication).bindService()), peers.interceptor(), authenticated))
                .addService(io.grpc.ServerInterceptors.intercept(StrictParsing.wrap(new AdminGrpcService(executor, peers,
                        authentication).bindService()), authenticated))
                .addService(io.grpc.ServerInterceptors.intercept(StrictParsing.wrap(
                        new dev.tributary.node.grpc.ConsumerGroupGrpcService(coordinator.groups(), dictionary, authentication,
                                executor.access()).bindService()), authenticated))
                .addService(io.grpc.ServerInterceptors.intercept(StrictParsing.wrap(new dev.tributary.node.grpc.PeerGrpcService(
                        store, dictionary, pipeline, operations::prepareHandOver, obj -> coordinator.tablets().map(obj).isPresent(),
                        hostId.toString(), redo, () -> segments.archiveCurrent(pipeline)).bindService()), peers.peersOnly()))
                .addService(io.grpc.ServerInterceptors.intercept(StrictParsing.wrap(new ChangeStreamGrpcService(dictionary,
                        cdcLog, coordinator::generations, captureProcesses, buffered, streamSources, authentication,
                        executor.access()).bindService()), authenticated))
                .addService(io.grpc.ServerInterceptors.intercept(StrictParsing.wrap(
                        new dev.tributary.node.grpc.LogTransportGrpcService(receivedLogs, authentication).bindService()),
                        authenticated))
                // open to anyone, as load balancers and grpcurl ask them without credentials
                .addService(health.service())
                .addService(io.grpc.protobuf.services.ProtoReflectionServiceV1.newInstance())
                .maxInboundMessageSize(config.maxValueBytes() + 1024 * 1024)
                .permitKeepAliveTime(Tls.PERMITTED_KEEPALIVE.toNanos(), TimeUnit.NANOSECONDS)
                .build()
                .start();
        for (io.grpc.ServerServiceDefinition service : server.getServices()) {
            String name = service.getServiceDescriptor().getName();
            if (!name.startsWith("grpc.")) {
                health.track(name);
            }
        }
        health.watch(() -> clockCheck.refusesWritesBecause() == null && coordinator.refusesWritesBecause() == null);
        coordinator.onSessionLost(health::sessionLostNow);
        if (config.servesNative()) {
            nativeServer = dev.tributary.node.nativeproto.NativeServer.start(config.nativeHost(), config.nativePort(),
                    tls.nativeServer(), new dev.tributary.node.grpc.ClusterStatements(executor, peers), dictionary::latest,
                    new dev.tributary.node.nativeproto.NativeServer.Members() {
                        @Override
                        public java.util.Map<String, String> liveNativeEndpoints() {
                            return coordinator.topology().liveNativeEndpoints();
                        }

                        @Override
                        public java.util.Set<String> members() {
                            java.util.Set<String> out = new HashSet<>();
                            try {
                                for (ClusterCoordinator.Member m : coordinator.members()) {
                                    out.add(m.hostId());
                                }
                            } catch (Exception e) {
                                throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read the members from ZooKeeper: " + e, e);
                            }
                            return out;
                        }
                    }, access);
        }
        captureProcesses.startEnabled();
        applyProcesses.startEnabled();
        // once registered, writes to this node's ranges come here: take the rows the other nodes hold in them
        long moved = peers.pullOwnedRows(pipeline, () -> coordinator.register(endpoint(), nativeEndpoint(), config.nodeName()));
        if (moved > 0) {
            LOG.info("range streaming: {} rows moved here from the other nodes", moved);
        }
        coordinator.markNormal();
        TabletMover mover = new TabletMover(hostId.toString(), coordinator.tablets(), peers, pipeline);
        resources.add(mover);
        mover.start();
        // a node that joined takes its share of the tablets (a no-op when they are spread evenly)
        int movedTablets = coordinator.tablets().rebalance(dataHolders());
        if (movedTablets > 0) {
            LOG.info("{} tablets move to balance the nodes", movedTablets);
        }
        resources.add(metrics.attach(instanceMetrics(pipeline, buffered, peers)));
        health.become(dev.tributary.node.health.NodeLifecycle.SERVING);
    }

    /** What this instance reports on /metrics, read from its parts at each scrape. */
    private dev.tributary.node.metrics.InstanceMetrics instanceMetrics(CommitPipeline pipeline, BufferedQueues buffered, Peers peers) {
        String id = hostId.toString();
        return new dev.tributary.node.metrics.InstanceMetrics() {
            @Override
            public String hostId() {
                return id;
            }

            @Override
            public String state() {
                return health.lifecycle().name().toLowerCase(java.util.Locale.ROOT);
            }

            @Override
            public boolean zookeeperSessionLost() {
                return health.sessionLost();
            }

            @Override
            public int commitQueueDepth() {
                return pipeline.queued();
            }

            @Override
            public List<Capture> captures() {
                long durable = pipeline.redoCompleteThrough();
                List<Capture> out = new ArrayList<>();
                out.add(capture(capture.name(), capture, durable));
                for (dev.tributary.node.capture.CaptureDefinition d : captureProcesses.captures()) {
                    java.util.Optional<CaptureWorker> w = captureProcesses.worker(d.name());
                    if (w.isPresent()) {
                        out.add(capture(d.name(), w.get(), durable));
                    } else {
                        // stopped: it falls behind from its checkpoint, where it would resume
                        long at = captureProcesses.checkpointOf(d.name());
                        out.add(new Capture(d.name(), null, Math.max(0, durable - at), lagSeconds(durable, at), 0, 0, 0, 0));
                    }
                }
                return out;
            }

            private Capture capture(String name, CaptureWorker w, long durable) {
                return new Capture(name, w.state().name(), Math.max(0, durable - w.caughtUpScn()),
                        lagSeconds(durable, w.caughtUpScn()), w.totalEnqueued(), w.totalScanned(), w.totalFiltered(), w.flowControlPauses());
            }

            @Override
            public List<Apply> applies() {
                List<Apply> out = new ArrayList<>();
                for (dev.tributary.node.apply.ApplyProcesses.Status a : applyProcesses.applies()) {
                    if (a.worker() == null) {
                        // not running: no state, lag or totals of its own, but the aborts that stopped it
                        out.add(new Apply(a.definition().name(), null, 0, 0, 0, 0, applyProcesses.aborts(a.definition().name())));
                        continue;
                    }
                    long applied = a.worker().committed().commitScn();
                    // an idle apply has applied all there is, however old its last transaction
                    long behind = a.worker().state() == dev.tributary.capture.apply.ApplyState.IDLE ? applied
                            : captureProcesses.caughtUpScn(a.definition().queueName(), applied);
                    out.add(new Apply(a.definition().name(), a.worker().state().name(), Math.max(0, behind - applied),
                            lagSeconds(behind, applied), a.worker().appliedTransactions(), a.worker().errorTransactions(),
                            applyProcesses.aborts(a.definition().name())));
                }
                return out;
            }

            @Override
            public List<Queue> queues() {
                return captureProcesses.queues().entrySet().stream().map(q -> new Queue(q.getKey(),
                        buffered.bufferedBytes(q.getValue()), buffered.subscribers(q.getValue()))).toList();
            }

            @Override
            public List<ConsumerGroup> consumerGroups() {
                long nowMicros = wallMillis.getAsLong() * 1000;
                return coordinator.groups().all().stream().map(g -> new ConsumerGroup(g.name(), g.log().name(), g.members().size(),
                        g.lowWatermarkMicros() <= 0 ? 0 : Math.max(0, nowMicros - g.lowWatermarkMicros()) / 1e6)).toList();
            }

            @Override
            public int changeStreamReaders() {
                return streamReads.openCalls();
            }

            @Override
            public long generationMillis() {
                return coordinator.generations().latest().map(dev.tributary.generations.Generation::timestampMillis).orElse(0L);
            }

            @Override
            public long tabletSetMillis() {
                return coordinator.tablets().newestSetMillis();
            }

            @Override
            public Store store() {
                return new Store(store.property("rocksdb.cur-size-all-mem-tables"),
                        store.property("rocksdb.estimate-pending-compaction-bytes"),
                        store.property("rocksdb.num-running-compactions"), store.diskBytes(), store.maxDiskBytes());
            }

            @Override
            public long forwardedWrites() {
                return peers.forwardedWrites();
            }

            @Override
            public long forwardedReads() {
                return peers.forwardedReads();
            }
        };
    }

    /** How far SCN {@code behind} is after SCN {@code ahead}, in seconds of their wall-clock parts. */
    private static double lagSeconds(long ahead, long behind) {
        return Math.max(0, HybridLogicalClock.millisOf(ahead) - HybridLogicalClock.millisOf(behind)) / 1000.0;
    }

    /** The members that hold data: every node but one leaving (a node that is down keeps its tablets). */
    private List<String> dataHolders() {
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

    /** A tablet table's tablet count: its min_tablet_count rounded up to a power of two (1 when unset). */
    static int tabletCount(dev.tributary.dictionary.schema.TableDef t) {
        Integer min = t.options().minTabletCount();
        int n = min == null ? 1 : Math.max(1, min);
        return n == 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }

    private List<String> liveHosts() {
        try {
            List<String> out = new ArrayList<>();
            for (ClusterCoordinator.Member m : coordinator.members()) {
                if (m.live() || m.hostId().equals(hostId.toString())) {
                    out.add(m.hostId());
                }
            }
            return out;
        } catch (Exception e) {
            return List.of(hostId.toString());
        }
    }

    private UUID identity(java.util.random.RandomGenerator random) {
        byte[] key = Keys.meta("node/host_id");
        byte[] v = store.get(NodeStore.Family.META, key);
        if (v != null) {
            return UUID.fromString(new String(v, StandardCharsets.UTF_8));
        }
        UUID id = new UUID(random.nextLong() & ~0xF000L | 0x4000L, random.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L);
        store.put(NodeStore.Family.META, key, id.toString().getBytes(StandardCharsets.UTF_8), true);
        return id;
    }

    /** The node's redo thread number: taken in ZooKeeper once, then kept in its store. */
    /** node-apply's table snapshot as the change-stream front reads it (node-fronts does not see node-apply). */
    private static ChangeStreamGrpcService.Snapshot snapshotRows(dev.tributary.node.apply.TableSnapshot snap) {
        return new ChangeStreamGrpcService.Snapshot() {
            @Override
            public long scn() {
                return snap.scn();
            }

            @Override
            public java.util.Map<String, dev.tributary.dictionary.types.CqlType> types() {
                java.util.Map<String, dev.tributary.dictionary.types.CqlType> types = new java.util.HashMap<>();
                snap.columns().forEach(c -> types.put(c.name(), c.type()));
                return types;
            }

            @Override
            public java.util.Iterator<ChangeStreamGrpcService.SnapshotRow> rowsAfter(Long afterToken) {
                java.util.Iterator<dev.tributary.node.apply.TableSnapshot.TokenRow> rows = snap.rowsAfter(afterToken);
                return new java.util.Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return rows.hasNext();
                    }

                    @Override
                    public ChangeStreamGrpcService.SnapshotRow next() {
                        dev.tributary.node.apply.TableSnapshot.TokenRow r = rows.next();
                        return new ChangeStreamGrpcService.SnapshotRow(r.token(), r.values());
                    }
                };
            }

            @Override
            public void close() {
                snap.close();
            }
        };
    }

    private int redoThread() {
        byte[] key = Keys.meta("node/redo_thread");
        byte[] v = store.get(NodeStore.Family.META, key);
        int known = v == null ? 0 : Integer.parseInt(new String(v, StandardCharsets.UTF_8));
        int n = coordinator.redoThread(known);
        if (n != known) {
            store.put(NodeStore.Family.META, key, Integer.toString(n).getBytes(StandardCharsets.UTF_8), true);
        }
        return n;
    }

    /** The node's vnode tokens: picked once, then kept in its store so a restart keeps them. */
    private List<Long> tokens(java.util.random.RandomGenerator random) {
        byte[] key = Keys.meta("node/tokens");
        byte[] v = store.get(NodeStore.Family.META, key);
        if (v != null) {
            ByteBuffer b = ByteBuffer.wrap(v);
            List<Long> out = new ArrayList<>();
            while (b.hasRemaining()) {
                out.add(b.getLong());
            }
            return out;
        }
        List<Long> picked = VnodeTokens.pick(config.numTokens(), random, new HashSet<>());
        ByteBuffer b = ByteBuffer.allocate(8 * picked.size());
        picked.forEach(b::putLong);
        store.put(NodeStore.Family.META, key, b.array(), true);
        return picked;
    }

    private List<SystemTables.Peer> peers() {
        List<SystemTables.Peer> out = new ArrayList<>();
        try {
            for (ClusterCoordinator.Member m : coordinator.members()) {
                boolean self = m.hostId().equals(hostId.toString());
                // a member that is not live is DOWN (system_views.nodes lists it; system.peers does not)
                out.add(new SystemTables.Peer(UUID.fromString(m.hostId()), self ? endpoint() : m.endpoint(), m.tokens(), self,
                        self || m.live() ? m.state().name() : "DOWN", self ? nativeEndpoint() : m.nativeEndpoint()));
            }
        } catch (Exception e) {
            // ZooKeeper unreachable: still describe this node
            out.add(new SystemTables.Peer(hostId, endpoint(), tokens, true, dev.tributary.generations.NodeState.NORMAL.name(),
                    nativeEndpoint()));
        }
        if (out.stream().noneMatch(SystemTables.Peer::self)) {
            out.add(new SystemTables.Peer(hostId, endpoint(), tokens, true, dev.tributary.generations.NodeState.NORMAL.name(),
                    nativeEndpoint()));
        }
        return out;
    }

    /** The host:port clients reach this node at (the bound port when 0 was asked for). */
    /** ALTER SYSTEM SET max_disk_bytes: this node's space limit, until it restarts (then --max-disk-bytes holds). */
    private void setMaxDiskBytes(String value) {
        long bytes;
        try {
            bytes = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            bytes = -1;
        }
        if (bytes < 0) {
            throw new dev.tributary.node.errors.InvalidRequestException("ALTER SYSTEM SET max_disk_bytes: '" + value + "' is not a number of bytes "
                    + "(0 for no limit)");
        }
        if (config.replicated()) {
            throw new dev.tributary.node.errors.InvalidRequestException("ALTER SYSTEM SET max_disk_bytes is not supported on a replicated node");
        }
        store.setMaxDiskBytes(bytes);
    }

    public String endpoint() {
        return config.listenHost() + ":" + port();
    }

    /** The host:port drivers reach this node's CQL native protocol at, or "" when it serves none. */
    public String nativeEndpoint() {
        if (!config.servesNative()) {
            return "";
        }
        return config.nativeHost() + ":" + (nativeServer == null ? config.nativePort() : nativeServer.port());
    }

    public int port() {
        return server == null ? config.listenPort() : server.getPort();
    }

    /** The host id this node's routing gives {@code token} to (live owners only). */
    public String ringOwner(long token) {
        return coordinator.topology().ring().owner(token);
    }

    /** The node's vnode tokens. */
    public List<Long> tokens() {
        return List.copyOf(tokens);
    }

    public UUID hostId() {
        return hostId;
    }

    public NodeConfig config() {
        return config;
    }

    public GenerationHistory generations() {
        return coordinator.generations();
    }

    /** Completes once the node has been decommissioned (it has left the cluster; close it). */
    public java.util.concurrent.CompletableFuture<ClusterOperations.Decommissioned> departed() {
        return operations.departed();
    }

    public CaptureWorker capture() {
        return capture;
    }

    /** The node's schema service (for tests: its fault hook). */
    public SchemaService schema() {
        return schema;
    }

    /** The ReadStream calls open on this node. */
    public int openStreamReads() {
        return streamReads == null ? 0 : streamReads.openCalls();
    }

    /** The node's ReadStream and ReadStreams calls (for tests). */
    /**
     * Log retention rounds run to the end since the node started: a test of what retention keeps
     * awaits two more rounds (one begun after its change) rather than guessing their period.
     */
    public long retentionRounds() {
        return retentionRounds.get();
    }

    public dev.tributary.node.changes.StreamReads streamReads() {
        return streamReads;
    }

    /** This instance's long operations in progress, as system_views.operations lists them. */
    public dev.tributary.node.progress.RunningOperations runningOperations() {
        return runningOperations;
    }

    /** The metrics this instance reports to (its process's). */
    public dev.tributary.node.metrics.NodeMetrics metrics() {
        return metrics;
    }

    public HybridLogicalClock clock() {
        return clock;
    }

    /** Where this instance is between start and close (what its gRPC health service reports). */
    public dev.tributary.node.health.NodeLifecycle lifecycle() {
        return health.lifecycle();
    }

    /** Whether this instance's last health check found its ZooKeeper session lost (it refuses writes). */
    public boolean zookeeperSessionLost() {
        return health.sessionLost();
    }

    /** The node's ZooKeeper coordinator (for tests: their fault hooks expire its session). */
    public ClusterCoordinator coordinator() {
        return coordinator;
    }

    @Override
    public void close() {
        if (health.lifecycle().canBecome(dev.tributary.node.health.NodeLifecycle.DRAINING)) {
            health.become(dev.tributary.node.health.NodeLifecycle.DRAINING); // before the servers refuse calls
        }
        if (nativeServer != null) {
            nativeServer.close();
        }
        if (server != null) {
            server.shutdown();
            try {
                unaryCalls.awaitNone(Duration.ofSeconds(5));
                server.shutdownNow(); // what is left are streams, which end only when cut
                server.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                server.shutdownNow();
            }
        }
        if (capture != null) {
            capture.stop();
            try {
                captureThread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                LOG.warn("error while closing {}: {}", resources.get(i).getClass().getSimpleName(), e.toString());
            }
        }
        resources.clear();
        health.close();
        if (health.lifecycle().canBecome(dev.tributary.node.health.NodeLifecycle.STOPPED)) {
            health.become(dev.tributary.node.health.NodeLifecycle.STOPPED);
        }
    }

    /**
     * What bounds this node's safe times now (epoch millis): the membership view's time, the CDC
     * capture's caught-up SCN and the clock; for a test's failure message.
     */
    public String safeTimeBounds() {
        return "membership view " + membership.current().readAtMillis() + ", capture caught up "
                + dev.tributary.capture.Scns.micros(capture.caughtUpScn()) / 1000 + ", clock " + wallMillis.getAsLong();
    }
}
