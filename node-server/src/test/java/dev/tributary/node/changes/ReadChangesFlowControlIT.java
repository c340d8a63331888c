package dev.tributary.node.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.ReadChangesRequest;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ReadChanges sends only as fast as its reader takes LCRs (gRPC flow control) and stops reading the
 * log when the reader goes away, so a slow or vanished reader cannot make the node hold the rest of
 * the log in memory.
 */
@Timeout(120)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReadChangesFlowControlIT {
    static final int ROWS = 3_000;
    TributaryNode node;
    TestNodes.Wire w;

    @BeforeAll
    void start(@TempDir Path dir) {
        node = TestNodes.startOperating(dir);
        w = new TestNodes.Wire(node);
        w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        // a blob of 2 KB per row: the log (6 MB) is far larger than one flow-control window
        w.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v blob) WITH cdc = {'enabled': true}");
        String blob = "0x" + "ab".repeat(2048);
        w.execInBatches(ROWS, i -> "INSERT INTO ks.t (pk, v) VALUES (" + i + ", " + blob + ")");
        TestNodes.await(() -> rows(read()) == ROWS, Duration.ofSeconds(30), ROWS + " row LCRs in the log");
    }

    @AfterAll
    void stop() {
        w.close();
        node.close();
    }

    private static ReadChangesRequest request() {
        return ReadChangesRequest.newBuilder().setTable("ks.t").build();
    }

    private List<Lcr> read() {
        List<Lcr> out = new ArrayList<>();
        w.changes.readChanges(request()).forEachRemaining(out::add);
        return out;
    }

    private static long rows(List<Lcr> lcrs) {
        return lcrs.stream().filter(l -> l.getLcr().equals("ROW")).count();
    }

    private ManualCall<ReadChangesRequest, Lcr> manualRead(int initial) {
        ManualCall<ReadChangesRequest, Lcr> r = new ManualCall<>(initial);
        ChangeStreamServiceGrpc.newStub(w.channel).readChanges(request(), r);
        return r;
    }

    /** Whether a thread is in {@code ChangeStreamGrpcService.<method>} now. */
    static boolean inHandler(String method) {
        return Thread.getAllStackTraces().values().stream().flatMap(java.util.Arrays::stream)
                .anyMatch(f -> f.getClassName().endsWith("ChangeStreamGrpcService") && f.getMethodName().equals(method));
    }

    @Test
    void aReaderTakingAFewLcrsAtATimeGetsTheWholeLogInOrder() throws Exception {
        List<Lcr> expected = read();
        ManualCall<ReadChangesRequest, Lcr> r = manualRead(0);
        List<Lcr> got = new ArrayList<>();
        while (got.size() < expected.size()) {
            r.call.request(7);
            for (int i = 0; i < 7 && got.size() < expected.size(); i++) {
                got.add(r.take());
            }
        }
        assertEquals("completed", r.end.poll(10, TimeUnit.SECONDS));
        assertEquals(expected, got);
    }

    @Test
    void aReaderThatStopsAndCancelsLeavesTheNodeServing() throws Exception {
        ManualCall<ReadChangesRequest, Lcr> r = manualRead(1);
        r.take();
        // the reader asks for nothing more: once the window is full the node's handler waits on it
        // instead of queueing the rest of the log (6 MB) for the reader
        TestNodes.await(() -> inHandler("awaitReady"), Duration.ofSeconds(10), "the node's handler waiting on the window");
        // and it stays there: a handler that queued the log instead would have finished by now. An
        // absence is asserted over a window of time, so this one test waits on the clock.
        for (int i = 0; i < 10; i++) {
            assertTrue(r.received.poll(100, TimeUnit.MILLISECONDS) == null, "nothing is delivered that was not requested");
            assertTrue(inHandler("awaitReady"),
                    "the handler still waits on the reader's window after " + (i + 1) * 100 + " ms");
        }
        r.call.cancel("reader gone", null);
        Object end = r.end.poll(10, TimeUnit.SECONDS);
        assertEquals(Status.Code.CANCELLED, Status.fromThrowable((Throwable) end).getCode());
        TestNodes.await(() -> !inHandler("readChanges"), Duration.ofSeconds(10), "the handler to stop reading the log");
        assertEquals(ROWS, rows(read()), "the node still serves the whole log");
    }
}
