package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.ListStreamsRequest;
import dev.tributary.protocol.v1.ListStreamsResponse;
import dev.tributary.protocol.v1.NodeInfo;
import dev.tributary.protocol.v1.ReadStreamRequest;
import dev.tributary.protocol.v1.StreamBatch;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which nodes a consumer waits for. Two stand-in nodes hold the schema stream: "a" is up and its
 * safe time is far ahead; "b" is listed but down (not live, not in a's members: its ZooKeeper
 * session lapsed) and holds an earlier LCR. Releasing past b's LCR would deliver out of order —
 * or, in a group, commit a watermark over an LCR never handled, which retention then deletes.
 */
@Timeout(30)
class ChangeConsumerNodesTest {
    private static final String PREFIX = "nodes-" + System.nanoTime() + "-";
    private static final long T0 = 1_700_000_000_000_000L; // micros

    /** One node's ChangeStreamService: the listing (both nodes, b not live) and its part of the schema stream. */
    private static final class FakeNode extends ChangeStreamServiceGrpc.ChangeStreamServiceImplBase {
        final String hostId;
        final long lcrMicros;
        final AtomicInteger reads = new AtomicInteger();

        FakeNode(String hostId, long lcrMicros) {
            this.hostId = hostId;
            this.lcrMicros = lcrMicros;
        }

        @Override
        public void listStreams(ListStreamsRequest request, StreamObserver<ListStreamsResponse> out) {
            out.onNext(ListStreamsResponse.newBuilder().setSchemaStream(ByteString.copyFrom(new byte[16]))
                    .addNodes(NodeInfo.newBuilder().setHostId("a").setEndpoint(PREFIX + "a").setLive(true))
                    .addNodes(NodeInfo.newBuilder().setHostId("b").setEndpoint(PREFIX + "b").setLive(false).setState("DOWN"))
                    .build());
            out.onCompleted();
        }

        @Override
        public void readStream(ReadStreamRequest req, StreamObserver<StreamBatch> out) {
            reads.incrementAndGet();
            out.onNext(StreamBatch.newBuilder().addLcrs(lcr(lcrMicros)).setSafeTimeMicros(T0 + 60_000_000)
                    .addMembers(NodeInfo.newBuilder().setHostId("a").setEndpoint(PREFIX + "a").setLive(true)).build());
            // the call stays open (following)
        }
    }

    static Lcr lcr(long micros) {
        long ts = micros * 10 + 0x01B21DD213814000L; // 100 ns units since 1582
        long msb = (ts << 32) | ((ts & 0xFFFF00000000L) >>> 16) | 0x1000L | ((ts >>> 48) & 0x0FFFL);
        UUID time = new UUID(msb, 0x8000000000000001L);
        return Lcr.newBuilder().setLcr("DDL").setCommandType("CREATE TABLE").setObjectOwner("ks").setObjectName("t")
                .setDdlText("CREATE TABLE ks.t" + micros).setEndOfBatch(true)
                .setPosition(dev.tributary.protocol.v1.LcrPosition.newBuilder().setStreamId(ByteString.copyFrom(new byte[16]))
                        .setTime(time.toString()))
                .build();
    }

    private final FakeNode a = new FakeNode("a", T0 + 2_000_000);
    private final FakeNode b = new FakeNode("b", T0 + 1_000_000);
    private Server serverA;
    private Server serverB;
    private TributaryClient client;
    private ChangeConsumer consumer;

    @AfterEach
    void stop() {
        if (consumer != null) {
            consumer.close();
        }
        if (client != null) {
            client.close();
        }
        serverA.shutdownNow();
        if (serverB != null) {
            serverB.shutdownNow();
        }
    }

    private static void await(BooleanSupplier condition, java.util.function.Supplier<String> what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, () -> "timed out waiting for " + what.get());
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
        }
    }

    @Test
    void aListedNodeThatIsDownHoldsTheStreamBackUntilItAnswers() throws Exception {
        serverA = InProcessServerBuilder.forName(PREFIX + "a").addService(a).build().start();
        client = TributaryClient.builder().channel("a", InProcessChannelBuilder.forName(PREFIX + "a").build()).build();
        List<String> seen = new CopyOnWriteArrayList<>();
        consumer = ChangeConsumer.builder(client).table("ks.t").start(StartPosition.earliest())
                .channels(e -> InProcessChannelBuilder.forName(e).build()).handler(r -> seen.add(r.ddlText())).build();
        consumer.start();
        await(() -> a.reads.get() > 0, () -> "a read of node a");
        // b comes back: only now may anything at or above its LCR be released
        serverB = InProcessServerBuilder.forName(PREFIX + "b").addService(b).build().start();
        await(() -> seen.size() >= 2 || consumer.failure().isPresent(), () -> "both LCRs (has " + seen + ")");
        assertEquals(List.of("CREATE TABLE ks.t" + (T0 + 1_000_000), "CREATE TABLE ks.t" + (T0 + 2_000_000)), seen,
                "b's earlier LCR first: the stream waited for b");
        assertTrue(consumer.lowWatermarkMicros() <= T0 + 60_000_000);
    }
}
