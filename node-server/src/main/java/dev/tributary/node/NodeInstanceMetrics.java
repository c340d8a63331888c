package dev.tributary.node;

import dev.tributary.capture.BufferedQueues;
import dev.tributary.capture.CaptureWorker;
import dev.tributary.capture.apply.ApplyState;
import dev.tributary.capture.apply.ApplyWorker;
import dev.tributary.generations.Generation;
import dev.tributary.node.apply.ApplyDefinition;
import dev.tributary.node.apply.ApplyProcesses;
import dev.tributary.node.capture.CaptureDefinition;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.metrics.InstanceMetrics;
import dev.tributary.node.processes.ProcessRegistry;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.time.HybridLogicalClock;
import dev.tributary.node.write.CommitPipeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** What this instance reports on /metrics, read from its parts at each scrape. */
final class NodeInstanceMetrics implements InstanceMetrics {
    private final NodeContext node;
    private final StorageAssembly storage;
    private final ClusterCoordinator coordinator;
    private final CommitPipeline pipeline;
    private final CaptureApplyAssembly captureApply;
    private final ChangeLogAssembly changeLog;

    NodeInstanceMetrics(NodeContext node, StorageAssembly storage, ClusterAssembly cluster, WritePathAssembly writes,
            CaptureApplyAssembly captureApply, ChangeLogAssembly changeLog) {
        this.node = node;
        this.storage = storage;
        this.coordinator = cluster.coordinator;
        this.pipeline = writes.pipeline;
        this.captureApply = captureApply;
        this.changeLog = changeLog;
    }

    /** How far SCN {@code behind} is after SCN {@code ahead}, in seconds of their wall-clock parts. */
    private static double lagSeconds(long ahead, long behind) {
        return Math.max(0, HybridLogicalClock.millisOf(ahead) - HybridLogicalClock.millisOf(behind)) / 1000.0;
    }

    @Override
    public String hostId() {
        return storage.hostId.toString();
    }

    @Override
    public List<Capture> captures() {
        long durable = pipeline.redoCompleteThrough();
        List<Capture> out = new ArrayList<>();
        CaptureWorker cdc = changeLog.capture;
        out.add(capture(cdc.name(), cdc, durable));
        for (CaptureDefinition d : captureApply.captureProcesses.captures()) {
            Optional<CaptureWorker> w = captureApply.captureProcesses.worker(d.name());
            if (w.isPresent()) {
                out.add(capture(d.name(), w.get(), durable));
            } else {
                // stopped: it falls behind from its checkpoint, where it would resume
                long at = captureApply.captureProcesses.checkpointOf(d.name());
                out.add(new Capture(d.name(), null, Math.max(0, durable - at), lagSeconds(durable, at), 0, 0, 0, 0));
            }
        }
        return out;
    }

    private static Capture capture(String name, CaptureWorker w, long durable) {
        return new Capture(name, w.state().name(), Math.max(0, durable - w.caughtUpScn()),
                lagSeconds(durable, w.caughtUpScn()), w.totalEnqueued(), w.totalScanned(), w.totalFiltered(), w.flowControlPauses());
    }

    @Override
    public String state() {
        return node.health().lifecycle().name().toLowerCase(Locale.ROOT);
    }

    @Override
    public List<Apply> applies() {
        ApplyProcesses applyProcesses = captureApply.applyProcesses;
        List<Apply> out = new ArrayList<>();
        for (ProcessRegistry.Listed<ApplyDefinition, ApplyWorker> a : applyProcesses.applies()) {
            if (a.worker() == null) {
                // not running: no state, lag or totals of its own, but the aborts that stopped it
                out.add(new Apply(a.definition().name(), null, 0, 0, 0, 0, applyProcesses.aborts(a.definition().name())));
                continue;
            }
            long applied = a.worker().committed().commitScn();
            // an idle apply has applied all there is, however old its last transaction
            long behind = a.worker().state() == ApplyState.IDLE ? applied
                    : captureApply.captureProcesses.caughtUpScn(a.definition().queueName(), applied);
            out.add(new Apply(a.definition().name(), a.worker().state().name(), Math.max(0, behind - applied),
                    lagSeconds(behind, applied), a.worker().appliedTransactions(), a.worker().errorTransactions(),
                    applyProcesses.aborts(a.definition().name())));
        }
        return out;
    }

    @Override
    public boolean zookeeperSessionLost() {
        return node.health().sessionLost();
    }

    @Override
    public List<Queue> queues() {
        BufferedQueues buffered = captureApply.buffered;
        return captureApply.captureProcesses.queues().entrySet().stream().map(q -> new Queue(q.getKey(),
                buffered.bufferedBytes(q.getValue()), buffered.subscribers(q.getValue()))).toList();
    }

    @Override
    public int commitQueueDepth() {
        return pipeline.queued();
    }

    @Override
    public List<ConsumerGroup> consumerGroups() {
        long nowMicros = node.wallMillis().getAsLong() * 1000;
        return coordinator.groups().all().stream().map(g -> new ConsumerGroup(g.name(), g.log().name(), g.members().size(),
                g.lowWatermarkMicros() <= 0 ? 0 : Math.max(0, nowMicros - g.lowWatermarkMicros()) / 1e6)).toList();
    }

    @Override
    public int changeStreamReaders() {
        return changeLog.streamReads.openCalls();
    }

    @Override
    public Store store() {
        NodeStore store = storage.store;
        return new Store(store.property("rocksdb.cur-size-all-mem-tables"),
                store.property("rocksdb.estimate-pending-compaction-bytes"),
                store.property("rocksdb.num-running-compactions"), store.diskBytes(), store.maxDiskBytes());
    }

    @Override
    public long generationMillis() {
        return coordinator.generations().latest().map(Generation::timestampMillis).orElse(0L);
    }

    @Override
    public long forwardedWrites() {
        return captureApply.peers.forwardedWrites();
    }

    @Override
    public long tabletSetMillis() {
        return coordinator.tablets().newestSetMillis();
    }

    @Override
    public long forwardedReads() {
        return captureApply.peers.forwardedReads();
    }
}
