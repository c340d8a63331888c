package dev.tributary.node;

import dev.tributary.capture.BufferedQueues;
import dev.tributary.capture.CaptureWorker;
import dev.tributary.capture.apply.ApplyState;
import dev.tributary.capture.apply.ApplyWorker;
import dev.tributary.generations.Generation;
import dev.tributary.node.apply.ApplyDefinition;
import dev.tributary.node.apply.ApplyProcesses;
import dev.tributary.node.capture.CaptureDefinition;
import dev.tributary.node.capture.CaptureProcesses;
import dev.tributary.node.changes.StreamReads;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.grpc.Peers;
import dev.tributary.node.health.NodeHealth;
import dev.tributary.node.metrics.InstanceMetrics;
import dev.tributary.node.processes.ProcessRegistry;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.time.HybridLogicalClock;
import dev.tributary.node.write.CommitPipeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.LongSupplier;

/** What this instance reports on /metrics, read from its parts at each scrape. */
final class NodeInstanceMetrics implements InstanceMetrics {
    private final String hostId;
    private final NodeHealth health;
    private final NodeStore store;
    private final ClusterCoordinator coordinator;
    private final CommitPipeline pipeline;
    private final CaptureWorker cdcCapture;
    private final CaptureProcesses captureProcesses;
    private final ApplyProcesses applyProcesses;
    private final BufferedQueues buffered;
    private final StreamReads streamReads;
    private final Peers peers;
    private final LongSupplier wallMillis;

    NodeInstanceMetrics(NodeContext node, StorageAssembly storage, ClusterAssembly cluster, WritePathAssembly writes,
            CaptureApplyAssembly captureApply) {
        this.hostId = storage.hostId.toString();
        this.health = node.health();
        this.wallMillis = node.wallMillis();
        this.store = storage.store;
        this.coordinator = cluster.coordinator;
        this.pipeline = writes.pipeline;
        this.cdcCapture = captureApply.capture;
        this.captureProcesses = captureApply.captureProcesses;
        this.applyProcesses = captureApply.applyProcesses;
        this.buffered = captureApply.buffered;
        this.streamReads = captureApply.streamReads;
        this.peers = captureApply.peers;
    }

    /** How far SCN {@code behind} is after SCN {@code ahead}, in seconds of their wall-clock parts. */
    private static double lagSeconds(long ahead, long behind) {
        return Math.max(0, HybridLogicalClock.millisOf(ahead) - HybridLogicalClock.millisOf(behind)) / 1000.0;
    }

    @Override
    public String hostId() {
        return hostId;
    }

    @Override
    public String state() {
        return health.lifecycle().name().toLowerCase(Locale.ROOT);
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
        out.add(capture(cdcCapture.name(), cdcCapture, durable));
        for (CaptureDefinition d : captureProcesses.captures()) {
            Optional<CaptureWorker> w = captureProcesses.worker(d.name());
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

    private static Capture capture(String name, CaptureWorker w, long durable) {
        return new Capture(name, w.state().name(), Math.max(0, durable - w.caughtUpScn()),
                lagSeconds(durable, w.caughtUpScn()), w.totalEnqueued(), w.totalScanned(), w.totalFiltered(), w.flowControlPauses());
    }

    @Override
    public List<Apply> applies() {
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
        return coordinator.generations().latest().map(Generation::timestampMillis).orElse(0L);
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
}
