package dev.tributary.node;

import dev.tributary.capture.BufferedQueues;
import dev.tributary.capture.CaptureWorker;
import dev.tributary.capture.CdcLogFormatter;
import dev.tributary.capture.CdcTableCapture;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.logminer.DictionaryBuilds;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.node.apply.ApplyProcesses;
import dev.tributary.node.apply.TableSnapshot;
import dev.tributary.node.capture.ArchiveLagSwitches;
import dev.tributary.node.capture.CaptureProcesses;
import dev.tributary.node.capture.DictionaryBuilder;
import dev.tributary.node.capture.LogMinerDictionaries;
import dev.tributary.node.capture.LogRetention;
import dev.tributary.node.capture.RedoSegments;
import dev.tributary.node.capture.RocksDbRedoLog;
import dev.tributary.node.changes.MembershipView;
import dev.tributary.node.changes.SafeTimes;
import dev.tributary.node.changes.StreamReads;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.grpc.ChangeStreamGrpcService;
import dev.tributary.node.grpc.ClusterRedoThreads;
import dev.tributary.node.grpc.Peers;
import dev.tributary.node.net.Tls;
import dev.tributary.node.transport.LinkCalls;
import dev.tributary.node.transport.LinkLogins;
import dev.tributary.node.transport.LogShipper;
import dev.tributary.node.transport.ReceivedLogs;
import dev.tributary.node.transport.SourceDatabases;
import dev.tributary.node.write.CommitPipeline;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Capture and apply on the node, and what carries their logs: TLS and the channels to the other
 * nodes and to database links, the redo's segments, the Streams capture and apply processes with
 * their queues, log shipping to downstream captures, the implicit CDC capture that fills the
 * tables' CDC logs, the log switches and purges, CDC log retention and the change streams' reads
 * of the log. The CDC capture is the part that takes work in: it stops before anything closes.
 * Then it closes retention, the stream reads, the log switcher, the shipper, the applies, the
 * captures and last TLS, which everything before it dials through.
 */
final class CaptureApplyAssembly {
    private static final Logger LOG = LoggerFactory.getLogger(CaptureApplyAssembly.class);
    /** How often log entries no one keeps are deleted. */
    private static final long RETENTION_PERIOD_MILLIS = 1000;
    /** How often log transport looks for archived logs to ship. */
    private static final long LOG_TRANSPORT_PERIOD_MILLIS = 500;
    /** Expired idempotency keys deleted per retention run: one small transaction, never a long stall of the committer. */
    private static final int IDEMPOTENCY_PURGE_BATCH = 1000;

    final CdcLogFormatter formatter;
    final RedoSegments segments;
    final ReceivedLogs receivedLogs;
    final Tls tls;
    final byte[] clusterSecret;
    final Peers peers;
    final BufferedQueues buffered;
    final CaptureProcesses captureProcesses;
    final ApplyProcesses applyProcesses;
    final LogShipper shipper;
    /** The implicit CDC capture: every CDC table's changes into its log. */
    final CaptureWorker capture;
    final MembershipView membership;
    final StreamReads streamReads;
    final ChangeStreamGrpcService.StreamSources streamSources;
    /** Log retention rounds run to the end since the node started. */
    final AtomicLong retentionRounds = new AtomicLong();

    CaptureApplyAssembly(StartedParts parts, NodeContext node, StorageAssembly storage, ClusterAssembly cluster,
            WritePathAssembly writes) {
        NodeConfig config = node.config();
        LongSupplier wallMillis = node.wallMillis();
        String hostId = storage.hostId.toString();
        ClusterCoordinator coordinator = cluster.coordinator;
        RocksDbRedoLog redo = storage.redo;
        MultiversionDictionary dictionary = storage.dictionary;
        CommitPipeline pipeline = writes.pipeline;
        formatter = new CdcLogFormatter(config.clusterName(), writes.router);
        segments = new RedoSegments(storage.store, redo, cluster.thread, config.redoSegmentBytes());
        receivedLogs = new ReceivedLogs(config.dataDir().resolve("received"));
        tls = parts.add(Tls.of(config.tlsCert(), config.tlsKey(), config.tlsClientCa(), config.maxValueBytes()));
        clusterSecret = coordinator.peerSecret();
        int sealed = coordinator.transport().sealClearPasswords();
        if (sealed > 0) {
            LOG.info("sealed the passwords of {} database links an older node kept in clear in ZooKeeper", sealed);
        }
        peers = new Peers(coordinator::topology, coordinator.tablets()::map, hostId, tls, clusterSecret);
        buffered = new BufferedQueues(config.queueBufferBytes());
        LinkLogins linkLogins = new LinkLogins(wallMillis);
        LinkCalls linkCalls = new LinkCalls(tls, linkLogins);
        SourceDatabases sources = new SourceDatabases(receivedLogs, coordinator.transport()::link, linkCalls);
        captureProcesses = parts.add(new CaptureProcesses(storage.store, redo, writes.cdcLog, formatter, config.clusterName(),
                config.restricted(), new LogMinerDictionaries(storage.store), new DictionaryBuilder(pipeline, dictionary,
                        segments, storage.store, DictionaryBuilds.PART_BYTES, cluster.thread), buffered, sources,
                new ClusterRedoThreads(coordinator::topology, hostId, redo, peers)));
        applyProcesses = parts.add(new ApplyProcesses(storage.store, writes.cdcLog, captureProcesses,
                coordinator.transport()::link, linkCalls, (owner, table) -> {
                    int nodes = coordinator.topology().nodes();
                    if (nodes > 1) {
                        throw new InvalidRequestException("instantiate_table copies the rows this node "
                                + "holds as of one SCN, and " + owner + "." + table + "'s rows are spread over " + nodes
                                + " nodes; copy the table yourself and set its instantiation SCN (set_table_instantiation_scn)");
                    }
                    return TableSnapshot.take(pipeline, storage.store, writes.baseTables, dictionary, owner, table);
                }, (source, owner, table) -> source.equalsIgnoreCase(config.clusterName())
                        // this cluster's own tables only: another source's table may have another key
                        ? dictionary.latest().table(owner, table).map(t -> Stream.concat(t.partitionKey().stream(),
                                t.clusteringKey().stream()).map(ColumnDef::name).toList())
                        : Optional.empty(), () -> peers.trustedChannel(node.endpoints().endpoint()), node.runningOperations()));
        shipper = parts.add(new LogShipper(storage.store, segments, redo, coordinator.transport(), config.clusterName(),
                LOG_TRANSPORT_PERIOD_MILLIS, tls, linkLogins, () -> coordinator.ringThreads(cluster.thread)));
        shipper.start();
        // the redo is kept from the lowest checkpoint of any capture, the implicit CDC capture's
        // included, and until every log archive destination has it
        segments.retain(() -> Math.min(Math.min(captureProcesses.requiredScn(), writes.cdcLog.checkpoint(CdcTableCapture.NAME)),
                shipper.requiredScn()), captureProcesses::newestBuild);

        capture = new CaptureWorker(CdcTableCapture.NAME, redo, writes.cdcLog, new CdcTableCapture(dictionary, formatter),
                new CaptureWorker.Options(CaptureWorker.Limits.NONE, config.captureParallelism(), wallMillis, null, buffered,
                        CaptureWorker.StateListener.NONE));
        Thread captureThread = new Thread(capture, "tributary-capture-" + CdcTableCapture.NAME);
        captureThread.setDaemon(true);
        captureThread.start();
        parts.addIntake(() -> {
            capture.stop();
            try {
                captureThread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        ArchiveLagSwitches lagSwitches = new ArchiveLagSwitches(segments, coordinator.transport()::archiveLagTarget,
                () -> segments.archiveCurrent(pipeline), wallMillis);
        // log switches by size as the redo grows and by archive_lag_target as it ages, and purging of the
        // archived and received logs no capture needs
        Thread logs = new Thread(() -> switchAndPurgeLogs(redo, lagSwitches), "tributary-redo-logs");
        logs.setDaemon(true);
        logs.start();
        parts.add(() -> {
            logs.interrupt();
            logs.join(10_000);
        });

        membership = new MembershipView(coordinator::members, wallMillis);
        coordinator.onMembershipChange(membership::changed);
        streamReads = parts.add(new StreamReads(writes.cdcLog, membership));
        streamSources = new ChangeStreamGrpcService.StreamSources(coordinator.tablets()::history, coordinator::members,
                capture::caughtUpScn, storage.clock::current,
                new SafeTimes(wallMillis, config.maxWriteSkew().toMillis(), membership),
                streamReads, new ChangeStreamGrpcService.TableSnapshots(hostId, cluster.thread,
                        (keyspace, table) -> new TableSnapshotRows(TableSnapshot.take(pipeline, storage.store,
                                writes.baseTables, dictionary, keyspace, table, "ReadTableSnapshot"))));
        // entries no one keeps any more (every group passed them, or the table's cdc ttl expired them)
        LogRetention retention = new LogRetention(dictionary, writes.cdcLog, captureProcesses::queues,
                coordinator.groups()::all, () -> wallMillis.getAsLong() * 1000);
        ScheduledExecutorService retentionTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tributary-log-retention");
            t.setDaemon(true);
            return t;
        });
        retentionTimer.scheduleWithFixedDelay(() -> {
            try {
                retention.run();
                retentionRounds.incrementAndGet();
                // through the committer, so a purge never races a lookup of the same key
                pipeline.commit(ctx -> writes.idempotency.purgeExpired(ctx, IDEMPOTENCY_PURGE_BATCH));
            } catch (RuntimeException e) {
                LOG.warn("log retention failed; retrying", e);
            }
        }, RETENTION_PERIOD_MILLIS, RETENTION_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        parts.add(retentionTimer::shutdownNow);
    }

    /** The log thread's loop: wakes on new redo (or each second), switches and purges, until interrupted. */
    private void switchAndPurgeLogs(RocksDbRedoLog redo, ArchiveLagSwitches lagSwitches) {
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
    }
}
