package dev.tributary.node.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.node.TestNodes;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What health answers in each lifecycle state, with the write check failing or not (in-process gRPC). */
@Timeout(30)
class NodeHealthTest {
    private final NodeHealth health = new NodeHealth();
    private final AtomicBoolean takesWrites = new AtomicBoolean(true);
    private Server server;
    private ManagedChannel channel;

    @BeforeEach
    void serve() throws Exception {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).addService(health.service()).build().start();
        channel = InProcessChannelBuilder.forName(name).build();
        health.track("tributary.v1.CqlService");
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.shutdownNow();
        health.close();
    }

    private ServingStatus status(String service) {
        return HealthGrpc.newBlockingStub(channel).check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus();
    }

    @Test
    void servingOnlyWhileServingAndTakingWrites() {
        assertEquals(ServingStatus.NOT_SERVING, status(""), "starting");
        assertEquals(ServingStatus.NOT_SERVING, status("tributary.v1.CqlService"));
        health.watch(takesWrites::get);
        health.become(NodeLifecycle.SERVING);
        assertEquals(ServingStatus.SERVING, status(""));
        assertEquals(ServingStatus.SERVING, status("tributary.v1.CqlService"));

        takesWrites.set(false);
        TestNodes.await(() -> status("") == ServingStatus.NOT_SERVING, Duration.ofSeconds(5), "NOT_SERVING without writes");
        assertEquals(ServingStatus.NOT_SERVING, status("tributary.v1.CqlService"));
        takesWrites.set(true);
        TestNodes.await(() -> status("") == ServingStatus.SERVING, Duration.ofSeconds(5), "SERVING with writes again");

        health.become(NodeLifecycle.DRAINING);
        assertEquals(ServingStatus.NOT_SERVING, status(""), "draining");
        assertEquals(ServingStatus.NOT_SERVING, status("tributary.v1.CqlService"));
    }

    @Test
    void aFailingWriteCheckIsNotServing() {
        health.watch(() -> {
            throw new IllegalStateException("ZooKeeper unreachable");
        });
        health.become(NodeLifecycle.SERVING);
        TestNodes.await(() -> status("") == ServingStatus.NOT_SERVING, Duration.ofSeconds(5), "NOT_SERVING");
    }
}
