package dev.tributary.node.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.coord.KillSession;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A node's gRPC port answers grpc.health.v1 (SERVING only while it takes writes) and server reflection. */
@Timeout(120)
class HealthAndReflectionIT {
    private static final Set<String> PUBLIC_SERVICES = Set.of("tributary.v1.CqlService", "tributary.v1.AdminService",
            "tributary.v1.ChangeStreamService", "tributary.v1.ConsumerGroupService", "tributary.v1.AuthService",
            "tributary.v1.LogTransportService", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection");

    private static ServingStatus check(ManagedChannel ch, String service) {
        return HealthGrpc.newBlockingStub(ch).withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus();
    }

    @Test
    void healthFollowsTheZooKeeperSessionAndTheShutdown(@TempDir Path dir) throws Exception {
        TributaryNode node = TestNodes.startOperating(dir.resolve("n1"));
        ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
        try {
            assertEquals(ServingStatus.SERVING, check(ch, ""), "a started node takes writes");
            assertEquals(ServingStatus.SERVING, check(ch, "tributary.v1.CqlService"));

            // a watcher (a load balancer) hears every change
            Iterator<HealthCheckResponse> watch = HealthGrpc.newBlockingStub(ch).withDeadlineAfter(60, TimeUnit.SECONDS)
                    .watch(HealthCheckRequest.newBuilder().setService("").build());
            assertEquals(ServingStatus.SERVING, watch.next().getStatus());
            KillSession.expire(node.coordinator());
            assertEquals(ServingStatus.NOT_SERVING, watch.next().getStatus(), "the ZooKeeper session is lost");
            assertEquals(ServingStatus.SERVING, watch.next().getStatus(), "a live member again in a new session");
            assertFalse(node.zookeeperSessionLost());

            CompletableFuture<Void> closed = CompletableFuture.runAsync(node::close);
            assertEquals(ServingStatus.NOT_SERVING, watch.next().getStatus(), "draining is NOT_SERVING");
            closed.get(60, TimeUnit.SECONDS);
            assertEquals(NodeLifecycle.STOPPED, node.lifecycle());
        } finally {
            ch.shutdownNow();
            node.close();
        }
    }

    @Test
    void reflectionListsEveryPublicServiceAndDescribesIt(@TempDir Path dir) throws Exception {
        try (TributaryNode node = TestNodes.startOperating(dir.resolve("n1"))) {
            ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
            try {
                List<ServerReflectionResponse> listed = reflect(ch, ServerReflectionRequest.newBuilder().setListServices("").build());
                Set<String> names = listed.get(0).getListServicesResponse().getServiceList().stream()
                        .map(ServiceResponse::getName).collect(Collectors.toSet());
                assertTrue(names.containsAll(PUBLIC_SERVICES), "listed " + names);

                List<ServerReflectionResponse> file = reflect(ch, ServerReflectionRequest.newBuilder()
                        .setFileContainingSymbol("tributary.v1.CqlService").build());
                assertFalse(file.get(0).hasErrorResponse(), "the file of CqlService: " + file.get(0).getErrorResponse());
                assertFalse(file.get(0).getFileDescriptorResponse().getFileDescriptorProtoList().isEmpty());
            } finally {
                ch.shutdownNow();
            }
        }
    }

    private static List<ServerReflectionResponse> reflect(ManagedChannel ch, ServerReflectionRequest request) throws Exception {
        CompletableFuture<List<ServerReflectionResponse>> done = new CompletableFuture<>();
        List<ServerReflectionResponse> got = new java.util.ArrayList<>();
        StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS)
                .serverReflectionInfo(new StreamObserver<>() {
                    @Override
                    public void onNext(ServerReflectionResponse r) {
                        got.add(r);
                    }

                    @Override
                    public void onError(Throwable t) {
                        done.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        done.complete(got);
                    }
                });
        requests.onNext(request);
        requests.onCompleted();
        return done.get(15, TimeUnit.SECONDS);
    }
}
