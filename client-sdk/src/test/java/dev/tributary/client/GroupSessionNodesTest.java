package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.CommitRequest;
import dev.tributary.protocol.v1.CommitResponse;
import dev.tributary.protocol.v1.ConsumerGroupServiceGrpc;
import dev.tributary.protocol.v1.FetchPositionsRequest;
import dev.tributary.protocol.v1.GroupPositions;
import dev.tributary.protocol.v1.GroupState;
import dev.tributary.protocol.v1.HeartbeatRequest;
import dev.tributary.protocol.v1.JoinRequest;
import dev.tributary.protocol.v1.LeaveRequest;
import dev.tributary.protocol.v1.ListStreamsRequest;
import dev.tributary.protocol.v1.ListStreamsResponse;
import dev.tributary.protocol.v1.NodeInfo;
import dev.tributary.protocol.v1.ReadStreamRequest;
import dev.tributary.protocol.v1.StreamBatch;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A group member's new session (after a lost lease) waits for the nodes its earlier session
 * knew, even when the listing no longer names one (it is overloaded or down: its ZooKeeper
 * session lapsed). Node "b" holds an LCR earlier than node "a"'s; a session that forgot b
 * delivered a's LCR, committed a watermark over b's, and retention on b deleted it.
 */
@Timeout(30)
class GroupSessionNodesTest {
    private static final String PREFIX = "group-nodes-" + System.nanoTime() + "-";
    private static final long T0 = 1_700_000_000_000_000L;

    /** A group of lease 300 ms in memory; {@link #expire} drops every member, as when a lease ran out. */
    private static final class Groups extends ConsumerGroupServiceGrpc.ConsumerGroupServiceImplBase {
        final Set<String> members = new HashSet<>();
        final AtomicInteger joins = new AtomicInteger();
        long epoch;

        synchronized GroupState state() {
            return GroupState.newBuilder().setGroup("g").setEpoch(epoch).addAllMembers(members).setLeaseMillis(300).build();
        }

        synchronized void expire() {
            members.clear();
            epoch++;
        }

        private <T> void answer(StreamObserver<T> out, Supplier<T> body) {
            T r;
            synchronized (this) {
                try {
                    r = body.get();
                } catch (io.grpc.StatusRuntimeException e) {
                    out.onError(e);
                    return;
                }
            }
            out.onNext(r);
            out.onCompleted();
        }

        @Override
        public void join(JoinRequest req, StreamObserver<GroupState> out) {
            answer(out, () -> {
                members.add(req.getMemberId());
                epoch++;
                joins.incrementAndGet();
                return state();
            });
        }

        @Override
        public void heartbeat(HeartbeatRequest req, StreamObserver<GroupState> out) {
            answer(out, () -> {
                if (!members.contains(req.getMemberId())) {
                    throw TestNode.error(Status.Code.NOT_FOUND, "NOT_FOUND", "not in the group");
                }
                return state();
            });
        }

        @Override
        public void leave(LeaveRequest req, StreamObserver<GroupState> out) {
            answer(out, () -> {
                members.remove(req.getMemberId());
                return state();
            });
        }

        @Override
        public void commit(CommitRequest req, StreamObserver<CommitResponse> out) {
            answer(out, () -> {
                if (!members.contains(req.getMemberId()) || req.getEpoch() != epoch) {
                    throw TestNode.error(Status.Code.FAILED_PRECONDITION, "FENCED", "fenced");
                }
                return CommitResponse.getDefaultInstance();
            });
        }

        @Override
        public void fetchPositions(FetchPositionsRequest req, StreamObserver<GroupPositions> out) {
            answer(out, () -> GroupPositions.newBuilder().setEpoch(epoch).build());
        }
    }

    /** A node's stream service: the listing names b only while {@link #bListed}; reads give one LCR. */
    private static final class Node extends ChangeStreamServiceGrpc.ChangeStreamServiceImplBase {
        static volatile boolean bListed = true;
        final long lcrMicros;
        final AtomicInteger reads = new AtomicInteger();

        Node(long lcrMicros) {
            this.lcrMicros = lcrMicros;
        }

        @Override
        public void listStreams(ListStreamsRequest request, StreamObserver<ListStreamsResponse> out) {
            ListStreamsResponse.Builder b = ListStreamsResponse.newBuilder().setSchemaStream(ByteString.copyFrom(new byte[16]))
                    .addNodes(NodeInfo.newBuilder().setHostId("a").setEndpoint(PREFIX + "a").setLive(true));
            if (bListed) {
                b.addNodes(NodeInfo.newBuilder().setHostId("b").setEndpoint(PREFIX + "b").setLive(true));
            }
            out.onNext(b.build());
            out.onCompleted();
        }

        @Override
        public void readStream(ReadStreamRequest req, StreamObserver<StreamBatch> out) {
            reads.incrementAndGet();
            out.onNext(StreamBatch.newBuilder().addLcrs(ChangeConsumerNodesTest.lcr(lcrMicros)).setSafeTimeMicros(T0 + 60_000_000)
                    .addMembers(NodeInfo.newBuilder().setHostId("a").setEndpoint(PREFIX + "a").setLive(true)).build());
        }
    }

    private final Groups groups = new Groups();
    private final Node a = new Node(T0 + 2_000_000);
    private final Node b = new Node(T0 + 1_000_000);
    private Server serverA;
    private Server serverB;
    private TributaryClient client;
    private ChangeConsumer consumer;

    @AfterEach
    void stop() {
        Node.bListed = true;
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

    private static void await(BooleanSupplier condition, Supplier<String> what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, () -> "timed out waiting for " + what.get());
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
        }
    }

    @Test
    void aNewSessionWaitsForTheNodesAnEarlierSessionKnew() throws Exception {
        serverA = InProcessServerBuilder.forName(PREFIX + "a").addService(a).addService(groups).build().start();
        client = TributaryClient.builder().channel("a", InProcessChannelBuilder.forName(PREFIX + "a").build()).build();
        List<String> seen = new CopyOnWriteArrayList<>();
        consumer = ChangeConsumer.builder(client).table("ks.t").group("g").groupLease(Duration.ofMillis(300))
                .groupCommitInterval(Duration.ofMillis(100)).start(StartPosition.earliest())
                .channels(e -> InProcessChannelBuilder.forName(e).build()).handler(r -> seen.add(r.ddlText())).build();
        consumer.start();
        await(() -> a.reads.get() > 0, () -> "the first session to read node a");
        // b drops out of the listing and the lease is lost: the member joins again, a new session
        Node.bListed = false;
        groups.expire();
        await(() -> groups.joins.get() >= 2 && a.reads.get() >= 2, () -> "a second session reading node a");
        serverB = InProcessServerBuilder.forName(PREFIX + "b").addService(b).build().start();
        await(() -> seen.size() >= 2 || consumer.failure().isPresent(), () -> "both LCRs (has " + seen + ")");
        assertEquals(List.of("CREATE TABLE ks.t" + (T0 + 1_000_000), "CREATE TABLE ks.t" + (T0 + 2_000_000)), seen,
                "b's earlier LCR first: the new session waited for b");
    }
}
