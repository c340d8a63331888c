package dev.tributary.node;

import dev.tributary.capture.CaptureWorker;
import dev.tributary.capture.CdcTableCapture;
import dev.tributary.node.apply.TableSnapshot;
import dev.tributary.node.capture.ArchiveLagSwitches;
import dev.tributary.node.capture.LogRetention;
import dev.tributary.node.capture.RedoSegments;
import dev.tributary.node.capture.RocksDbRedoLog;
import dev.tributary.node.changes.MembershipView;
import dev.tributary.node.changes.SafeTimes;
import dev.tributary.node.changes.StreamReads;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.grpc.ChangeStreamGrpcService;
import dev.tributary.node.write.CommitPipeline;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables' CDC logs as the node keeps and serves them: the implicit CDC capture that fills
 * them from the redo, the log switches (by size and archive_lag_target) and purges of archived
 * and received logs, the change streams' reads of the logs with their safe times, and retention
 * (with the purge of expired idempotency keys). The CDC capture is the part that takes work in:
 * it stops before anything closes. Then retention, the stream reads and the log switcher close.
 */
final class ChangeLogAssembly {
    private static final Logger LOG = LoggerFactory.getLogger(ChangeLogAssembly.class);
    /** How often log entries no one keeps are deleted. */
    private static final long RETENTION_PERIOD_MILLIS = 1000;
    /** Expired idempotency keys deleted per retention run: one small transaction, never a long stall of the committer. */
    private static final int IDEMPOTENCY_PURGE_BATCH = 1000;

    /** The implicit CDC capture: every CDC table's changes into its log. */
    final CaptureWorker capture;
    final MembershipView membership;
    final StreamReads streamReads;
    final ChangeStreamGrpcService.StreamSources streamSources;
    /** Log retention rounds run to the end since the node started. */
    final AtomicLong retentionRounds = new AtomicLong();
    private final CaptureApplyAssembly captureApply;

    ChangeLogAssembly(StartedParts parts, NodeContext node, StorageAssembly storage, ClusterAssembly cluster,
            WritePathAssembly writes, CaptureApplyAssembly captureApply) {
        this.captureApply = captureApply;
        NodeConfig config = node.config();
        LongSupplier wallMillis = node.wallMillis();
        ClusterCoordinator coordinator = cluster.coordinator;
        CommitPipeline pipeline = writes.pipeline;
        RedoSegments segments = captureApply.segments;
        capture = new CaptureWorker(CdcTableCapture.NAME, storage.redo, writes.cdcLog,
                new CdcTableCapture(storage.dictionary, captureApply.formatter),
                new CaptureWorker.Options(CaptureWorker.Limits.NONE, config.captureParallelism(), wallMillis, null,
                        captureApply.buffered, CaptureWorker.StateListener.NONE));
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
        Thread logs = new Thread(() -> switchAndPurgeLogs(storage.redo, lagSwitches), "tributary-redo-logs");
        logs.setDaemon(true);
        logs.start();
        parts.add(() -> {
            logs.interrupt();
            logs.join(10_000);
        });

        membership = new MembershipView(coordinator::members, wallMillis);
        coordinator.onMembershipChange(membership::changed);
        streamReads = parts.add(new StreamReads(writes.cdcLog, membership));
        streamSources = new ChangeStreamGrpcService.StreamSources(writes.router, coordinator::members,
                capture::caughtUpScn, storage.clock::current,
                new SafeTimes(wallMillis, config.maxWriteSkew().toMillis(), membership),
                streamReads, new ChangeStreamGrpcService.TableSnapshots(storage.hostId.toString(), cluster.thread,
                        (keyspace, table) -> new TableSnapshotRows(TableSnapshot.take(pipeline, storage.store,
                                writes.baseTables, storage.dictionary, keyspace, table, "ReadTableSnapshot"))));
        // entries no one keeps any more (every group passed them, or the table's cdc ttl expired them)
        LogRetention retention = new LogRetention(storage.dictionary, writes.cdcLog, captureApply.captureProcesses::queues,
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
                redo.awaitNewer(captureApply.segments.countedThrough(), 1000);
                captureApply.segments.switchIfFull();
                lagSwitches.run();
                captureApply.segments.purge();
                for (String source : captureApply.receivedLogs.sources()) {
                    captureApply.captureProcesses.requiredScnOf(source)
                            .ifPresent(scn -> captureApply.receivedLogs.purgeThrough(source, scn));
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("redo log switch or purge failed; retrying", e);
            }
        }
    }
}
