package dev.tributary.node;

import dev.tributary.capture.BufferedQueues;
import dev.tributary.capture.CdcLogFormatter;
import dev.tributary.capture.CdcTableCapture;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.logminer.DictionaryBuilds;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.node.apply.ApplyProcesses;
import dev.tributary.node.apply.TableSnapshot;
import dev.tributary.node.capture.CaptureProcesses;
import dev.tributary.node.capture.DictionaryBuilder;
import dev.tributary.node.capture.LogMinerDictionaries;
import dev.tributary.node.capture.RedoSegments;
import dev.tributary.node.capture.RocksDbRedoLog;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.errors.InvalidRequestException;
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
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Capture and apply on the node, and what carries their logs: TLS and the channels to the other
 * nodes and to database links, the redo's segments, the Streams capture and apply processes with
 * their queues (started once the node serves), and log shipping to downstream captures. Closes
 * the shipper, the applies, the captures and last TLS, which everything before it dials through.
 */
final class CaptureApplyAssembly {
    private static final Logger LOG = LoggerFactory.getLogger(CaptureApplyAssembly.class);
    /** How often log transport looks for archived logs to ship. */
    private static final long LOG_TRANSPORT_PERIOD_MILLIS = 500;

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
        peers = new Peers(coordinator::topology, coordinator.tablets()::map, hostId, tls, clusterSecret,
                config.forwardTimeout());
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
    }
}
