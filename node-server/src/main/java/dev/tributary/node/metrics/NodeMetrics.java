package dev.tributary.node.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The metrics of one node process (docs/OPERATIONS.md lists them). Values are read when Prometheus
 * scrapes, through callbacks over the instances attached here, rather than kept twice; only the
 * commit latency is observed as it happens. A process with replication runs several instances
 * (its own and those of groups whose home node is down): each one's values carry its host id in
 * the {@code node} label. Thread-safe.
 */
public final class NodeMetrics {
    private static final List<String> LIFECYCLE = List.of("starting", "serving", "draining", "stopped");

    private final PrometheusRegistry registry;
    private final Map<String, InstanceMetrics> instances = new ConcurrentHashMap<>();
    private final Histogram commitSeconds;

    /** Registers the process's metrics, the JVM's included, in {@code registry}. */
    public NodeMetrics(PrometheusRegistry registry) {
        this.registry = registry;
        JvmMetrics.builder().register(registry);
        commitSeconds = Histogram.builder().name("tributary_commit_duration_seconds")
                .help("Time from a transaction's submission to its durable commit (its count: transactions committed)")
                .labelNames("node")
                .classicUpperBounds(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
                .register(registry);
        gauge("tributary_node_state", "1 for the instance's lifecycle state (starting, serving, draining, stopped), 0 for the others",
                List.of("node", "state"), (i, cb) -> LIFECYCLE.forEach(s -> cb.call(s.equals(i.state()) ? 1 : 0, i.hostId(), s)));
        gauge("tributary_node_zookeeper_session_lost", "1 while the instance's ZooKeeper session is lost (it refuses writes)",
                List.of("node"), (i, cb) -> cb.call(i.zookeeperSessionLost() ? 1 : 0, i.hostId()));
        gauge("tributary_commit_queue_depth", "Transactions waiting for the committer", List.of("node"),
                (i, cb) -> cb.call(i.commitQueueDepth(), i.hostId()));

        stateGauge("tributary_capture_state", "1 for each capture process's state (V$STREAMS_CAPTURE.STATE), 0 for the others",
                "capture", dev.tributary.capture.CaptureState.values(),
                i -> running(i).map(c -> new String[] {c.name(), c.state()}));
        gauge("tributary_capture_lag_scn", "SCNs between the redo written and durable and what the capture has enqueued",
                List.of("node", "capture"), (i, cb) -> i.captures().forEach(c -> cb.call(c.lagScn(), i.hostId(), c.name())));
        gauge("tributary_capture_lag_seconds", "How far behind the redo the capture is, in wall time of the SCNs",
                List.of("node", "capture"), (i, cb) -> i.captures().forEach(c -> cb.call(c.lagSeconds(), i.hostId(), c.name())));
        counter("tributary_capture_lcrs_enqueued_total", "LCRs the capture enqueued (past its rules)", List.of("node", "capture"),
                (i, cb) -> running(i).forEach(c -> cb.call(c.lcrsEnqueued(), i.hostId(), c.name())));
        counter("tributary_capture_redo_entries_scanned_total", "Redo entries the capture read and evaluated against its rules",
                List.of("node", "capture"), (i, cb) -> running(i).forEach(c -> cb.call(c.redoScanned(), i.hostId(), c.name())));
        counter("tributary_capture_lcrs_filtered_total", "Row changes and DDLs of user tables the capture's rules rejected",
                List.of("node", "capture"), (i, cb) -> running(i).forEach(c -> cb.call(c.lcrsFiltered(), i.hostId(), c.name())));
        counter("tributary_capture_flow_control_pauses_total", "Times the capture paused because a queue's buffer was full",
                List.of("node", "capture"), (i, cb) -> running(i).forEach(c -> cb.call(c.flowControlPauses(), i.hostId(), c.name())));

        stateGauge("tributary_apply_state", "1 for each apply process's state, 0 for the others", "apply",
                dev.tributary.capture.apply.ApplyState.values(), i -> runningApplies(i).map(a -> new String[] {a.name(), a.state()}));
        gauge("tributary_apply_lag_scn", "SCNs between what the queue's capture enqueued and what the apply committed",
                List.of("node", "apply"), (i, cb) -> runningApplies(i).forEach(a -> cb.call(a.lagScn(), i.hostId(), a.name())));
        gauge("tributary_apply_lag_seconds", "How far behind its queue the apply is, in wall time of the SCNs",
                List.of("node", "apply"), (i, cb) -> runningApplies(i).forEach(a -> cb.call(a.lagSeconds(), i.hostId(), a.name())));
        counter("tributary_apply_transactions_total", "Transactions the apply committed at its destination", List.of("node", "apply"),
                (i, cb) -> runningApplies(i).forEach(a -> cb.call(a.transactionsApplied(), i.hostId(), a.name())));
        counter("tributary_apply_error_transactions_total", "Transactions the apply moved to the error queue",
                List.of("node", "apply"), (i, cb) -> runningApplies(i).forEach(a -> cb.call(a.errorTransactions(), i.hostId(), a.name())));
        // every apply, running or not: an aborted one is exactly the one to count
        counter("tributary_apply_aborts_total", "Times the apply aborted (status ABORTED; system_views.apply has the error)",
                List.of("node", "apply"), (i, cb) -> i.applies().forEach(a -> cb.call(a.aborts(), i.hostId(), a.name())));

        gauge("tributary_queue_buffered_bytes", "Bytes of LCRs held in the queue's memory buffer", List.of("node", "queue"),
                (i, cb) -> i.queues().forEach(q -> cb.call(q.bufferedBytes(), i.hostId(), q.name())));
        gauge("tributary_queue_subscribers", "Readers subscribed to the queue's buffer", List.of("node", "queue"),
                (i, cb) -> i.queues().forEach(q -> cb.call(q.subscribers(), i.hostId(), q.name())));
        gauge("tributary_consumer_group_lag_seconds", "How far the group's slowest member's watermark is behind now",
                List.of("node", "group", "log"), (i, cb) -> i.consumerGroups().forEach(g -> cb.call(g.lagSeconds(), i.hostId(),
                        g.name(), g.log())));
        gauge("tributary_consumer_group_members", "Members of the consumer group", List.of("node", "group", "log"),
                (i, cb) -> i.consumerGroups().forEach(g -> cb.call(g.members(), i.hostId(), g.name(), g.log())));
        gauge("tributary_change_stream_readers", "ReadStream and ReadStreams calls open on the node", List.of("node"),
                (i, cb) -> cb.call(i.changeStreamReaders(), i.hostId()));
        gauge("tributary_generation_age_seconds", "Time since the newest CDC generation started (negative: it starts later)",
                List.of("node"), (i, cb) -> {
                    long g = i.generationMillis();
                    if (g > 0) {
                        cb.call((System.currentTimeMillis() - g) / 1000.0, i.hostId());
                    }
                });
        gauge("tributary_tablet_set_age_seconds", "Time since the newest stream set of a tablet table started (negative: it starts later)", List.of("node"),
                (i, cb) -> {
                    long t = i.tabletSetMillis();
                    if (t > 0) {
                        cb.call((System.currentTimeMillis() - t) / 1000.0, i.hostId());
                    }
                });
        counter("tributary_forwarded_writes_total", "Writes forwarded to the node owning their partitions", List.of("node"),
                (i, cb) -> cb.call(i.forwardedWrites(), i.hostId()));
        counter("tributary_forwarded_reads_total", "Reads forwarded to the node owning their partitions", List.of("node"),
                (i, cb) -> cb.call(i.forwardedReads(), i.hostId()));
        gauge("tributary_rocksdb_memtable_bytes", "Bytes in RocksDB's memtables (rocksdb.cur-size-all-mem-tables)", List.of("node"),
                (i, cb) -> cb.call(i.store().memtableBytes(), i.hostId()));
        gauge("tributary_rocksdb_pending_compaction_bytes", "Bytes RocksDB estimates compaction must rewrite", List.of("node"),
                (i, cb) -> cb.call(i.store().pendingCompactionBytes(), i.hostId()));
        gauge("tributary_rocksdb_running_compactions", "Compactions running now", List.of("node"),
                (i, cb) -> cb.call(i.store().runningCompactions(), i.hostId()));
        gauge("tributary_rocksdb_sst_bytes", "Bytes the store's SST files take on disk", List.of("node"),
                (i, cb) -> cb.call(i.store().sstBytes(), i.hostId()));
        gauge("tributary_rocksdb_max_disk_bytes", "Space the SST files may take (--max-disk-bytes; 0: no limit)", List.of("node"),
                (i, cb) -> cb.call(i.store().maxDiskBytes(), i.hostId()));
    }

    private static java.util.stream.Stream<InstanceMetrics.Apply> runningApplies(InstanceMetrics i) {
        return i.applies().stream().filter(a -> a.state() != null);
    }

    private static java.util.stream.Stream<InstanceMetrics.Capture> running(InstanceMetrics i) {
        return i.captures().stream().filter(c -> c.state() != null);
    }

    /** A process's metrics in a registry of their own (a node started without an endpoint, as tests start them). */
    public static NodeMetrics standalone() {
        return new NodeMetrics(new PrometheusRegistry());
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    /** Reports {@code instance} until the returned handle is closed (when the instance stops). */
    public AutoCloseable attach(InstanceMetrics instance) {
        String id = instance.hostId();
        instances.put(id, instance);
        return () -> instances.remove(id, instance);
    }

    /** Where the instance {@code hostId}'s committer reports each transaction's latency, in nanoseconds. */
    public LongConsumer commitLatency(String hostId) {
        var point = commitSeconds.labelValues(hostId);
        return nanos -> point.observe(nanos / 1e9);
    }

    /** A replica group as this process's Raft server sees it. */
    public record RaftGroup(String group, String role, long term, long commitIndex, long appliedIndex) {
    }

    /**
     * Reports the process's Raft groups and its failovers (instances of other nodes' groups it
     * took over); with replication only.
     */
    public void raft(Supplier<List<RaftGroup>> groups, LongSupplier failovers) {
        List<String> roles = List.of("leader", "candidate", "follower", "listener");
        GaugeWithCallback.builder().name("tributary_raft_role")
                .help("1 for this node's role in each replica group (leader, candidate, follower, listener), 0 for the others")
                .labelNames("group", "role")
                .callback(cb -> groups.get().forEach(g -> roles.forEach(r -> cb.call(r.equals(g.role()) ? 1 : 0, g.group(), r))))
                .register(registry);
        GaugeWithCallback.builder().name("tributary_raft_term").help("The group's current Raft term").labelNames("group")
                .callback(cb -> groups.get().forEach(g -> cb.call(g.term(), g.group()))).register(registry);
        GaugeWithCallback.builder().name("tributary_raft_commit_index").help("The group's last committed log index here")
                .labelNames("group").callback(cb -> groups.get().forEach(g -> cb.call(g.commitIndex(), g.group()))).register(registry);
        GaugeWithCallback.builder().name("tributary_raft_applied_index").help("The group's last log index applied to this replica")
                .labelNames("group").callback(cb -> groups.get().forEach(g -> cb.call(g.appliedIndex(), g.group()))).register(registry);
        CounterWithCallback.builder().name("tributary_failovers_total")
                .help("Times this node took over the instance of another node's replica group (its home node was down)")
                .callback(cb -> cb.call(failovers.getAsLong())).register(registry);
    }

    @FunctionalInterface
    private interface PerInstance<C> {
        void report(InstanceMetrics instance, C callback);
    }

    private void gauge(String name, String help, List<String> labels, PerInstance<GaugeWithCallback.Callback> f) {
        GaugeWithCallback.builder().name(name).help(help).labelNames(labels.toArray(new String[0]))
                .callback(cb -> each(i -> f.report(i, cb))).register(registry);
    }

    /**
     * An enumeration as Prometheus wants it: one series per value, 1 for the current one.
     *
     * @param current each process's name and its current value's name
     */
    private void stateGauge(String name, String help, String label, Enum<?>[] values,
            java.util.function.Function<InstanceMetrics, java.util.stream.Stream<String[]>> current) {
        gauge(name, help, List.of("node", label, "state"), (i, cb) -> current.apply(i).forEach(p -> {
            for (Enum<?> v : values) {
                cb.call(v.name().equals(p[1]) ? 1 : 0, i.hostId(), p[0], v.name());
            }
        }));
    }

    private void counter(String name, String help, List<String> labels, PerInstance<CounterWithCallback.Callback> f) {
        CounterWithCallback.builder().name(name).help(help).labelNames(labels.toArray(new String[0]))
                .callback(cb -> each(i -> f.report(i, cb))).register(registry);
    }

    /** Every attached instance; one whose state cannot be read now (it is stopping) is left out of this scrape. */
    private void each(Consumer<InstanceMetrics> f) {
        for (InstanceMetrics i : instances.values()) {
            try {
                f.accept(i);
            } catch (RuntimeException e) {
                // a closed store or a ZooKeeper outage: the next scrape tries again
            }
        }
    }
}
