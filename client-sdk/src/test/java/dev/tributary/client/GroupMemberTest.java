package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The group protocol of a {@link ChangeConsumer} member against a stand-in ConsumerGroupService
 * (epochs, leases and fencing as groups.proto defines them): rebalancing, a lost lease, a fenced
 * commit, a clean close. The log has only its schema stream, so these are about the calls.
 */
@Timeout(30)
class GroupMemberTest {
    /** A group in memory; every request is recorded in order, with the answer's kind. */
    private static final class FakeGroups extends ConsumerGroupServiceGrpc.ConsumerGroupServiceImplBase {
        final List<Object> requests = new CopyOnWriteArrayList<>();
        final List<String> answers = new CopyOnWriteArrayList<>();
        final Set<String> members = new TreeSet<>();
        long epoch;
        /** Fence the next commit and drop the member, as when its lease ran out between two heartbeats. */
        volatile boolean fenceAndExpireNext;

        synchronized GroupState state() {
            return GroupState.newBuilder().setGroup("g").setEpoch(epoch).addAllMembers(members).setLeaseMillis(300).build();
        }

        synchronized void addMember(String id) {
            if (members.add(id)) {
                epoch++;
            }
        }

        synchronized void expire(String id) {
            if (members.remove(id)) {
                epoch++;
            }
        }

        private <T> void answer(Object request, StreamObserver<T> out, Supplier<T> body) {
            requests.add(request);
            T r;
            synchronized (this) {
                try {
                    r = body.get();
                } catch (StatusRuntimeException e) {
                    answers.add(TestNodeErrors.codeOf(e));
                    out.onError(e);
                    return;
                }
            }
            answers.add("OK");
            out.onNext(r);
            out.onCompleted();
        }

        @Override
        public void join(JoinRequest req, StreamObserver<GroupState> out) {
            answer(req, out, () -> {
                addMember(req.getMemberId());
                return state();
            });
        }

        @Override
        public void heartbeat(HeartbeatRequest req, StreamObserver<GroupState> out) {
            answer(req, out, () -> {
                if (!members.contains(req.getMemberId())) {
                    throw TestNode.error(Status.Code.NOT_FOUND, "NOT_FOUND", "member " + req.getMemberId() + " is not in the group");
                }
                return state();
            });
        }

        @Override
        public void leave(LeaveRequest req, StreamObserver<GroupState> out) {
            answer(req, out, () -> {
                expire(req.getMemberId());
                return state();
            });
        }

        @Override
        public void commit(CommitRequest req, StreamObserver<CommitResponse> out) {
            answer(req, out, () -> {
                if (fenceAndExpireNext) {
                    fenceAndExpireNext = false;
                    expire(req.getMemberId());
                }
                if (!members.contains(req.getMemberId()) || req.getEpoch() != epoch) {
                    throw TestNode.error(Status.Code.FAILED_PRECONDITION, "FENCED", "fenced");
                }
                return CommitResponse.getDefaultInstance();
            });
        }

        @Override
        public void fetchPositions(FetchPositionsRequest req, StreamObserver<GroupPositions> out) {
            answer(req, out, GroupPositions::getDefaultInstance);
        }

        <T> List<T> of(Class<T> type) {
            return requests.stream().filter(type::isInstance).map(type::cast).toList();
        }
    }

    /** The answer kind of a failed call: its reason code. */
    private static final class TestNodeErrors {
        static String codeOf(StatusRuntimeException e) {
            return dev.tributary.client.internal.ErrorMapper.code(e);
        }
    }

    /** ListStreams: only the schema stream, no nodes. */
    private static final class Streams extends ChangeStreamServiceGrpc.ChangeStreamServiceImplBase {
        final AtomicInteger listings = new AtomicInteger();

        @Override
        public void listStreams(ListStreamsRequest request, StreamObserver<ListStreamsResponse> out) {
            listings.incrementAndGet();
            out.onNext(ListStreamsResponse.newBuilder().setSchemaStream(ByteString.copyFrom(new byte[16])).build());
            out.onCompleted();
        }
    }

    private final FakeGroups groups = new FakeGroups();
    private final Streams streams = new Streams();
    private Server server;
    private TributaryClient client;
    private ChangeConsumer consumer;

    @BeforeEach
    void start() throws Exception {
        String name = "groups-" + System.nanoTime();
        server = InProcessServerBuilder.forName(name).addService(groups).addService(streams).build().start();
        client = TributaryClient.builder().channel("n1", InProcessChannelBuilder.forName(name).build()).build();
        consumer = ChangeConsumer.builder(client).table("ks.t").group("g").groupLease(Duration.ofMillis(300))
                .groupCommitInterval(Duration.ofMillis(100)).handler(r -> { }).build();
        consumer.start();
    }

    @AfterEach
    void stop() {
        consumer.close();
        client.close();
        server.shutdownNow();
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
        }
    }

    private String memberId() {
        return consumer.membership().orElseThrow().memberId();
    }

    @Test
    void aNewEpochRestartsTheSessionWithTheNewShareWithoutJoiningAgain() {
        String me = memberId();
        await(() -> groups.of(CommitRequest.class).stream().anyMatch(c -> c.getEpoch() == 1), "a commit under epoch 1");
        groups.addMember("zzz-other");
        await(() -> groups.of(CommitRequest.class).stream().anyMatch(c -> c.getEpoch() == 2 && c.getMemberId().equals(me)),
                "a commit under the new epoch");
        assertEquals(List.of(me, "zzz-other"), consumer.membership().orElseThrow().members());
        assertEquals(0, consumer.membership().orElseThrow().index());
        assertTrue(streams.listings.get() >= 2, "the reading started again for the new share");
        assertEquals(1, groups.of(JoinRequest.class).size(), "a refused commit under the old epoch is dropped, not a reason to rejoin");
        assertTrue(consumer.isRunning() && consumer.failure().isEmpty());
    }

    @Test
    void aLostLeaseStopsCommittingAndRejoinsAsANewMember() {
        String me = memberId();
        await(() -> !groups.of(CommitRequest.class).isEmpty(), "a first commit");
        groups.expire(me);
        await(() -> groups.of(JoinRequest.class).size() == 2, "a second join");
        String again = groups.of(JoinRequest.class).get(1).getMemberId();
        assertNotEquals(me, again, "a new member id");
        int notFound = groups.answers.indexOf("NOT_FOUND");
        assertTrue(notFound >= 0);
        for (int i = notFound + 1; i < groups.requests.size(); i++) {
            if (groups.requests.get(i) instanceof CommitRequest c) {
                assertNotEquals(me, c.getMemberId(), "no commit from the member that lost its lease");
            }
        }
        await(() -> groups.of(CommitRequest.class).stream().anyMatch(c -> c.getMemberId().equals(again)),
                "commits from the new member");
        assertEquals(again, memberId());
    }

    @Test
    void aFencedCommitStopsAndRejoinsWhenItsLeaseIsGone() {
        String me = memberId();
        await(() -> !groups.of(CommitRequest.class).isEmpty(), "a first commit");
        groups.fenceAndExpireNext = true;
        await(() -> groups.of(JoinRequest.class).size() == 2, "a second join");
        assertTrue(groups.answers.contains("FENCED"));
        String again = groups.of(JoinRequest.class).get(1).getMemberId();
        assertNotEquals(me, again);
        await(() -> groups.of(CommitRequest.class).stream().anyMatch(c -> c.getMemberId().equals(again) && c.getEpoch() == groups.epoch),
                "commits from the new member under the group's epoch");
        assertTrue(consumer.isRunning() && consumer.failure().isEmpty());
    }

    @Test
    void closeCommitsThenLeaves() throws Exception {
        String me = memberId();
        consumer.close();
        assertTrue(consumer.awaitTermination(Duration.ofSeconds(5)));
        List<Object> mine = groups.requests.stream().filter(r -> r instanceof CommitRequest c && c.getMemberId().equals(me)
                || r instanceof LeaveRequest l && l.getMemberId().equals(me)).toList();
        assertTrue(mine.size() >= 2, mine::toString);
        assertTrue(mine.get(mine.size() - 2) instanceof CommitRequest, "the last commit, then");
        assertTrue(mine.get(mine.size() - 1) instanceof LeaveRequest, "Leave");
        assertEquals(Set.of(), groups.members);
    }
}
