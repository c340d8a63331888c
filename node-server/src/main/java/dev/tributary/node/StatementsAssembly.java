package dev.tributary.node;

import dev.tributary.node.apply.ApplyProcedures;
import dev.tributary.node.apply.ApplyViews;
import dev.tributary.node.auth.AccessControl;
import dev.tributary.node.auth.Tokens;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.exec.SelectService;
import dev.tributary.node.exec.StatementAccess;
import dev.tributary.node.exec.StatementExecutor;
import dev.tributary.node.exec.SystemTables;
import dev.tributary.node.grpc.Authentication;
import dev.tributary.node.grpc.ClusterLogSwitches;
import dev.tributary.node.grpc.Peers;
import java.util.Optional;

/**
 * Statements on the node: the system tables and views (the apply views and the running
 * operations among them), the cluster procedures, access control with the cluster's first
 * superuser, and the executor the fronts hand statements to. It starts nothing that runs, so it
 * has nothing to close.
 */
final class StatementsAssembly {
    final NodeOperations operations;
    final AccessControl access;
    final Authentication authentication;
    final StatementExecutor executor;
    /** The superuser password this start generated (the cluster's first, with the password authenticator), if it did. */
    final Optional<AccessControl.GeneratedPassword> generatedSuperuserPassword;

    /** @param superuserPassword the first line of --superuser-password-file, read before anything was opened */
    StatementsAssembly(NodeContext node, StorageAssembly storage, ClusterAssembly cluster, WritePathAssembly writes,
            CaptureApplyAssembly captureApply, Optional<String> superuserPassword) {
        NodeConfig config = node.config();
        ClusterCoordinator coordinator = cluster.coordinator;
        Peers peers = captureApply.peers;
        ServedEndpoints endpoints = node.endpoints();
        SystemTables systemTables = new SystemTables(storage.dictionary, writes.cdcLog, coordinator::generationsNow,
                () -> cluster.peers(storage.tokens, endpoints.endpoint(), endpoints.nativeEndpoint()), config.clusterName(),
                captureApply.captureProcesses, captureApply.segments, coordinator.tablets()::history, coordinator.tablets()::map,
                coordinator.groups()::all, peers::forwardedWrites, peers::forwardedReads, captureApply.receivedLogs::all,
                () -> coordinator.roles().roles(), storage.store::load, () -> coordinator.transport().links().values());
        systemTables.register(new ApplyViews(captureApply.applyProcesses).tables());
        systemTables.registerOperationsView(node.runningOperations());
        operations = new NodeOperations(storage.hostId, coordinator, writes.writes.fence(), peers, storage.store,
                writes.pipeline, storage.redo, writes.cdcLog, captureApply.captureProcesses, config.ringDelay(), node.replicas(),
                node.runningOperations());
        ClusterLogSwitches logSwitches = new ClusterLogSwitches(coordinator::topology, storage.hostId.toString(),
                () -> captureApply.segments.archiveCurrent(writes.pipeline), peers);
        access = new AccessControl(config.authenticator(), coordinator.roles(),
                new Tokens(captureApply.clusterSecret, node.wallMillis()), node.wallMillis());
        generatedSuperuserPassword = access.ensureDefaultSuperuser(superuserPassword);
        authentication = new Authentication(access, peers);
        StatementAccess statementAccess = new StatementAccess(access, captureApply.captureProcesses::queueRules);
        executor = new StatementExecutor(storage.dictionary, writes.schema, writes.writes, new SelectService(), systemTables,
                writes.baseTables, captureApply.captureProcesses, writes.pipeline, operations, peers.placement(),
                new NodeSystemAdmin(coordinator.transport(), captureApply.shipper, captureApply.segments, logSwitches,
                        storage.store, config.replicated()), statementAccess,
                new ApplyProcedures(captureApply.applyProcesses, statementAccess));
    }
}
