package dev.tributary.node;

import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.node.capture.GenerationRouter;
import dev.tributary.node.capture.RocksDbCdcLog;
import dev.tributary.node.exec.BaseTables;
import dev.tributary.node.exec.SchemaService;
import dev.tributary.node.exec.WriteService;
import dev.tributary.node.write.CommitPipeline;
import dev.tributary.node.write.IdempotencyKeys;
import java.util.function.LongSupplier;

/**
 * The node's write path: the commit pipeline (the single committer, its SCNs from the node's
 * clock), the CDC log and the routing of changes to their generation's streams, the base tables,
 * the schema service (caught up with the cluster's schema log before the node serves) and the
 * write service that plans writes into the pipeline. Closes the schema service, then the pipeline.
 */
final class WritePathAssembly {
    final CommitPipeline pipeline;
    final RocksDbCdcLog cdcLog;
    final GenerationRouter router;
    final BaseTables baseTables;
    final SchemaService schema;
    final IdempotencyKeys idempotency;
    final WriteService writes;

    WritePathAssembly(StartedParts parts, NodeContext node, StorageAssembly storage, ClusterAssembly cluster) {
        NodeConfig config = node.config();
        LongSupplier wallMillis = node.wallMillis();
        String hostId = storage.hostId.toString();
        pipeline = parts.add(new CommitPipeline(storage.store, storage.clock, config.commitlogSync(),
                config.commitlogSyncPeriod().toMillis(), cluster.thread));
        pipeline.observeLatency(node.metrics().commitLatency(hostId));
        pipeline.addCommitListener(storage.redo::signal);
        storage.redo.completeness(pipeline::redoCompleteThrough);
        cdcLog = new RocksDbCdcLog(storage.store);
        router = new GenerationRouter(cluster.coordinator::generations, storage.dictionary,
                cluster.coordinator.tablets()::history);
        baseTables = new BaseTables(storage.store, wallMillis);
        schema = parts.add(new SchemaService(pipeline, storage.dictionary, storage.store, cluster.thread,
                cluster.coordinator.schemaLog(), hostId, t -> {
                    if (router.usesTablets(t)) {
                        cluster.coordinator.tablets().ensure(t.objectNumber(), tabletCount(t), cluster.liveHosts(),
                                wallMillis.getAsLong(), config.ringDelay().toMillis());
                    }
                }));
        schema.start(); // the cluster's schema changes this node has not applied yet, before it serves
        idempotency = new IdempotencyKeys(config.idempotencyWindow().toMillis(), wallMillis);
        writes = new WriteService(pipeline, storage.dictionary, baseTables, router, storage.clock,
                config.maxWriteSkew().toMillis(), config.maxValueBytes(), cluster.thread, config.forceLogging(), idempotency,
                new CoordinatedWriteCluster(cluster, hostId, node.replicas()));
    }

    /** A tablet table's tablet count: its min_tablet_count rounded up to a power of two (1 when unset). */
    static int tabletCount(TableDef t) {
        Integer min = t.options().minTabletCount();
        int n = min == null ? 1 : Math.max(1, min);
        return n == 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }
}
