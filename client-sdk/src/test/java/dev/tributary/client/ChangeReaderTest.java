package dev.tributary.client;

import static dev.tributary.client.TestNode.error;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.client.errors.NotFoundException;
import dev.tributary.client.errors.UnavailableException;
import dev.tributary.protocol.v1.Generation;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.ListGenerationsResponse;
import dev.tributary.protocol.v1.ReadChangesRequest;
import dev.tributary.protocol.v1.VnodeStreams;
import io.grpc.Status;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ChangeReaderTest {
    private TestNode node;
    private TributaryClient client;

    @BeforeEach
    void start() {
        node = TestNode.start("n1");
        client = TributaryClient.builder().channel("n1", node.channel()).build();
    }

    @AfterEach
    void stop() {
        client.close();
        node.close();
    }

    static Lcr lcr(int seq) {
        return ChangeRecordTest.rowLcr("INSERT", seq);
    }

    /** Serves LCRs numbered after the request's position (by batch_seq_no), up to its limit. */
    static void serveFrom(ReadChangesRequest r, io.grpc.stub.StreamObserver<Lcr> out, int total) {
        int first = r.hasAfter() ? r.getAfter().getBatchSeqNo() + 1 : 0;
        int n = 0;
        for (int i = first; i < total && (r.getLimit() == 0 || n < r.getLimit()); i++, n++) {
            out.onNext(lcr(i));
        }
        out.onCompleted();
    }

    @Test
    void readReturnsTheLcrsInOrderAndSendsThePosition() {
        node.onReadChanges = (r, out) -> serveFrom(r, out, 5);
        List<ChangeRecord> all = client.changes().read("hr.employees", null, 0);
        assertEquals(5, all.size());
        assertEquals(List.of(0, 1, 2, 3, 4), all.stream().map(c -> c.position().batchSeqNo()).toList());

        LcrPosition after = all.get(1).position();
        List<ChangeRecord> some = client.changes().read("hr.employees", after, 2);
        assertEquals(List.of(2, 3), some.stream().map(c -> c.position().batchSeqNo()).toList());
        ReadChangesRequest sent = node.requestsOf(ReadChangesRequest.class).get(1);
        assertEquals("hr.employees", sent.getTable());
        assertEquals(2, sent.getLimit());
        assertEquals(ByteString.copyFrom(new byte[] {0x0a, 0x0b}), sent.getAfter().getStreamId());
        assertEquals(ChangeRecordTest.TIME, sent.getAfter().getTime());
        assertEquals(1, sent.getAfter().getBatchSeqNo());
    }

    @Test
    void theLimitIsKeptEvenWhenTheServerSendsMore() {
        node.onReadChanges = (r, out) -> serveFrom(r.toBuilder().setLimit(0).build(), out, 10);
        assertEquals(3, client.changes().read("hr.employees", null, 3).size());
    }

    @Test
    void aStreamContinuesOnTheNextNodeAfterTheLastLcr() {
        TestNode second = TestNode.start("n2");
        node.onReadChanges = (r, out) -> {
            out.onNext(lcr(0));
            out.onNext(lcr(1));
            out.onError(error(Status.Code.UNAVAILABLE, null, "node stopping"));
        };
        second.onReadChanges = (r, out) -> serveFrom(r, out, 4);
        try (TributaryClient c = TributaryClient.builder().channel("n1", node.channel()).channel("n2", second.channel()).build();
                ChangeStream s = c.changes().stream("hr.employees", null, 10)) {
            List<Integer> seen = new ArrayList<>();
            while (s.hasNext()) {
                seen.add(s.next().position().batchSeqNo());
            }
            assertEquals(List.of(0, 1, 2, 3), seen);
            ReadChangesRequest resumed = second.requestsOf(ReadChangesRequest.class).get(0);
            assertEquals(1, resumed.getAfter().getBatchSeqNo());
            assertEquals(8, resumed.getLimit());
            assertEquals(3, s.position().batchSeqNo());
        } finally {
            second.close();
        }
    }

    @Test
    void aStreamNoNodeCanServeFailsUnavailable() {
        node.onReadChanges = (r, out) -> out.onError(error(Status.Code.UNAVAILABLE, null, "down"));
        try (ChangeStream s = client.changes().stream("hr.employees", null, 0)) {
            UnavailableException e = assertThrows(UnavailableException.class, s::hasNext);
            assertEquals(List.of("n1"), e.endpointsTried());
        }
    }

    @Test
    void closeStopsABlockedStream() throws Exception {
        CountDownLatch served = new CountDownLatch(1);
        node.onReadChanges = (r, out) -> {
            out.onNext(lcr(0));
            served.countDown();
            // never completes: the log has no more LCRs yet
        };
        ChangeStream s = client.changes().stream("hr.employees", null, 0);
        assertTrue(s.hasNext());
        s.next();
        assertTrue(served.await(5, TimeUnit.SECONDS));
        Thread closer = new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            s.close();
        });
        closer.start();
        assertFalse(s.hasNext());
        closer.join();
    }

    @Test
    void unknownTablesAreNotFound() {
        node.onReadChanges = (r, out) -> out.onError(error(Status.Code.NOT_FOUND, "NOT_FOUND", "table hr.nope does not exist"));
        NotFoundException e = assertThrows(NotFoundException.class, () -> client.changes().read("hr.nope", null, 0));
        assertEquals("table hr.nope does not exist", e.getMessage());
    }

    @Test
    @SuppressWarnings("unused")
    void generationsNewestFirst() {
        node.onGenerations = r -> ListGenerationsResponse.newBuilder()
                .addGenerations(Generation.newBuilder().setTimestampMillis(2000)
                        .addVnodes(VnodeStreams.newBuilder().setRangeEnd(-5).addStreams(ByteString.copyFrom(new byte[] {1}))))
                .addGenerations(Generation.newBuilder().setTimestampMillis(1000))
                .build();
        List<GenerationInfo> gens = client.changes().generations();
        assertEquals(2, gens.size());
        assertEquals(Instant.ofEpochMilli(2000), gens.get(0).timestamp());
        assertEquals(-5, gens.get(0).vnodes().get(0).rangeEnd());
        assertEquals(ByteBuffer.wrap(new byte[] {1}), gens.get(0).vnodes().get(0).streams().get(0));
        assertTrue(gens.get(0).vnodes().get(0).streams().get(0).isReadOnly());
        assertEquals(List.of(), gens.get(1).vnodes());
        UUID unused = null;
    }
}
