package dev.tributary.node;

import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.exec.StatementExecutor;
import dev.tributary.node.grpc.AdminGrpcService;
import dev.tributary.node.grpc.AuthGrpcService;
import dev.tributary.node.grpc.Authentication;
import dev.tributary.node.grpc.ChangeStreamGrpcService;
import dev.tributary.node.grpc.ClusterStatements;
import dev.tributary.node.grpc.ConsumerGroupGrpcService;
import dev.tributary.node.grpc.CqlGrpcService;
import dev.tributary.node.grpc.LogTransportGrpcService;
import dev.tributary.node.grpc.PeerGrpcService;
import dev.tributary.node.grpc.Peers;
import dev.tributary.node.grpc.StrictParsing;
import dev.tributary.node.grpc.UnaryCallsInFlight;
import dev.tributary.node.health.NodeHealth;
import dev.tributary.node.nativeproto.NativeServer;
import dev.tributary.node.net.Tls;
import io.grpc.Server;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The node's fronts: the gRPC server with its services (statements, change streams, consumer
 * groups, administration, peers, log transport, health and reflection) and the CQL native
 * protocol. They are what takes work in: the native server closes first, then the gRPC server
 * refuses new calls, waits a little for the unary calls under way and cuts the streams, before
 * anything below is closed.
 */
final class FrontsAssembly {
    /** How long a closing node waits for its unary calls under way before it cuts what is left. */
    private static final Duration UNARY_CALLS_WAIT = Duration.ofSeconds(5);

    FrontsAssembly(StartedParts parts, NodeContext node, StorageAssembly storage, ClusterAssembly cluster,
            WritePathAssembly writes, CaptureApplyAssembly captureApply, ChangeLogAssembly changeLog,
            StatementsAssembly statements) throws IOException {
        NodeConfig config = node.config();
        ClusterCoordinator coordinator = cluster.coordinator;
        Peers peers = captureApply.peers;
        StatementExecutor executor = statements.executor;
        Authentication authentication = statements.authentication;
        UnaryCallsInFlight unaryCalls = new UnaryCallsInFlight();
        ServerInterceptor authenticated = authentication.interceptor();
        NodeHealth health = node.health();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress(config.listenHost(), config.listenPort()))
                .sslContext(captureApply.tls.grpcServer()) // null: plaintext
                .intercept(unaryCalls)
                .addService(StrictParsing.wrap(new AuthGrpcService(statements.access).bindService()))
                .addService(ServerInterceptors.intercept(StrictParsing.wrap(new CqlGrpcService(executor, peers,
                        authentication).bindService()), peers.interceptor(), authenticated))
                .addService(ServerInterceptors.intercept(StrictParsing.wrap(new AdminGrpcService(executor, peers,
                        authentication).bindService()), authenticated))
                .addService(ServerInterceptors.intercept(StrictParsing.wrap(new ConsumerGroupGrpcService(coordinator.groups(),
                        storage.dictionary, authentication, executor.access()).bindService()), authenticated))
                .addService(ServerInterceptors.intercept(StrictParsing.wrap(new PeerGrpcService(storage.store,
                        storage.dictionary, writes.pipeline, statements.operations::prepareHandOver,
                        obj -> coordinator.tablets().map(obj).isPresent(), storage.hostId.toString(), storage.redo,
                        () -> captureApply.segments.archiveCurrent(writes.pipeline)).bindService()), peers.peersOnly()))
                .addService(ServerInterceptors.intercept(StrictParsing.wrap(new ChangeStreamGrpcService(storage.dictionary,
                        writes.cdcLog, coordinator::generations, captureApply.captureProcesses, captureApply.buffered,
                        changeLog.streamSources, authentication, executor.access()).bindService()), authenticated))
                .addService(ServerInterceptors.intercept(StrictParsing.wrap(
                        new LogTransportGrpcService(captureApply.receivedLogs, authentication).bindService()), authenticated))
                // open to anyone, as load balancers and grpcurl ask them without credentials
                .addService(health.service())
                .addService(ProtoReflectionServiceV1.newInstance())
                .maxInboundMessageSize(config.maxValueBytes() + 1024 * 1024)
                .permitKeepAliveTime(Tls.PERMITTED_KEEPALIVE.toNanos(), TimeUnit.NANOSECONDS)
                .build()
                .start();
        node.endpoints().bound(server);
        parts.addIntake(() -> stop(server, unaryCalls));
        for (ServerServiceDefinition service : server.getServices()) {
            String name = service.getServiceDescriptor().getName();
            if (!name.startsWith("grpc.")) {
                health.track(name);
            }
        }
        health.watch(() -> cluster.refusesWritesBecause() == null);
        coordinator.onSessionLost(health::sessionLostNow);
        if (config.servesNative()) {
            NativeServer nativeServer = NativeServer.start(config.nativeHost(), config.nativePort(),
                    captureApply.tls.nativeServer(), new ClusterStatements(executor, peers), storage.dictionary::latest,
                    new CoordinatorMembers(cluster), statements.access);
            node.endpoints().bound(nativeServer);
            parts.addIntake(nativeServer::close);
        }
    }

    /**
     * Refuses new calls, lets the unary calls under way finish for a while, then cuts what is
     * left (streams end only when cut).
     */
    private static void stop(Server server, UnaryCallsInFlight unaryCalls) {
        server.shutdown();
        try {
            unaryCalls.awaitNone(UNARY_CALLS_WAIT);
            server.shutdownNow();
            server.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.shutdownNow();
        }
    }
}
