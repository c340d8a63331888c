package dev.tributary.node.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.ListStreamsRequest;
import dev.tributary.protocol.v1.ListStreamsResponse;
import dev.tributary.protocol.v1.ReadStreamRequest;
import dev.tributary.protocol.v1.StreamBatch;
import dev.tributary.protocol.v1.StreamState;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** ReadStream on one real node: paging under flow control, follow, and the safe time rule. */
@Timeout(120)
class ReadStreamIT {
    private static final long SKEW_MILLIS = 300;

    private static long micros(Lcr l) {
        return TimeUuids.micros(UUID.fromString(l.getPosition().getTime()));
    }

    @Test
    @DisplayName("ReadStream pages one stream under flow control: a client that takes one message holds the call open; "
            + "taking the rest delivers every LCR once, in position order, and the call ends at the end of the log")
    void flowControlAndPaging(@TempDir Path dir) throws Exception {
        try (TributaryNode node = TestNodes.startOperating(dir, "--max-write-skew", SKEW_MILLIS + "ms");
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int, ck int, v text, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            String pad = "x".repeat(200);
            int n = 3000;
            w.execInBatches(n, i -> "INSERT INTO ks.t (pk, ck, v) VALUES (7, " + i + ", '" + pad + "')");
            TestNodes.await(() -> w.exec("SELECT count(*) FROM ks.t_scylla_cdc_log").getRows(0).getValues(0).getInteger() == n,
                    Duration.ofSeconds(30), "all LCRs captured");
            ByteString stream = w.exec("SELECT \"cdc$stream_id\" FROM ks.t_scylla_cdc_log LIMIT 1").getRows(0).getValues(0)
                    .getBlob();

            long pausesBefore = node.streamReads().readinessPauses();
            ManualCall<ReadStreamRequest, StreamBatch> call = new ManualCall<>(1);
            ChangeStreamServiceGrpc.newStub(w.channel).readStream(ReadStreamRequest.newBuilder().setTable("ks.t")
                    .setStreamId(stream).setMaxBatch(50).build(), call);
            StreamBatch first = call.take();
            assertEquals(50, first.getLcrsCount(), "a page of max_batch LCRs");
            // The rest (~700 KB) is far above the HTTP/2 window: a server ignoring readiness would
            // send it all and end the call; one that heeds it stops once the window is full, and
            // cannot go on until this client asks for more.
            TestNodes.await(() -> node.streamReads().readinessPauses() > pausesBefore, Duration.ofSeconds(30),
                    "the node to stop sending while the client is not ready");
            assertEquals(1, node.openStreamReads(), "the call is still open: the node stopped sending while not ready");
            assertTrue(call.end.isEmpty(), "not completed");

            call.call.request(Integer.MAX_VALUE);
            Object end = call.end.poll(30, TimeUnit.SECONDS);
            assertEquals("completed", end, "follow = false ends at the end of the log");
            List<Lcr> all = new ArrayList<>(first.getLcrsList());
            call.received.forEach(b -> all.addAll(b.getLcrsList()));
            assertEquals(n, all.size(), "every LCR once");
            for (int i = 0; i < n; i++) {
                assertEquals(i, all.get(i).getNewValuesList().stream().filter(v -> v.getName().equals("ck")).findFirst()
                        .orElseThrow().getValue().getInteger(), "position order = batch_seq_no order within the batch's time");
            }
            TestNodes.await(() -> node.openStreamReads() == 0, Duration.ofSeconds(5), "the call to be forgotten");

            // the wire contract: typed errors for bad requests
            StatusRuntimeException bad = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
                    () -> w.changes.readStream(ReadStreamRequest.newBuilder().setTable("ks.t")
                            .setStreamId(ByteString.copyFrom(new byte[3])).build()).hasNext());
            assertEquals(Status.Code.INVALID_ARGUMENT, bad.getStatus().getCode());
            StatusRuntimeException missing = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
                    () -> w.changes.listStreams(ListStreamsRequest.newBuilder().setTable("ks.nope").build()));
            assertEquals(Status.Code.NOT_FOUND, missing.getStatus().getCode());
        }
    }

    @Test
    @DisplayName("a committed change is released to a following reader without waiting out the write-skew window: "
            + "its safe time passes the change while the clock is still far inside the window (60 s, the old default)")
    void releasedWithoutASkewWindow(@TempDir Path dir) throws Exception {
        long skewMillis = 60_000;
        try (TributaryNode node = TestNodes.startOperating(dir, "--max-write-skew", skewMillis + "ms");
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            w.exec("INSERT INTO ks.t (pk, ck, v) VALUES (7, 0, 0)");
            // the capture logs a change after its commit is acknowledged: wait for the row, then take its stream
            String firstLogged = "SELECT \"cdc$stream_id\" FROM ks.t_scylla_cdc_log LIMIT 1";
            TestNodes.await(() -> w.exec(firstLogged).getRowsCount() == 1, Duration.ofSeconds(30), "the first change logged");
            ByteString stream = w.exec(firstLogged).getRows(0).getValues(0).getBlob();
            ManualCall<ReadStreamRequest, StreamBatch> call = new ManualCall<>(Integer.MAX_VALUE);
            ChangeStreamServiceGrpc.newStub(w.channel).readStream(ReadStreamRequest.newBuilder().setTable("ks.t")
                    .setStreamId(stream).setFollow(true).build(), call);
            // a write at the node's clock, and one USING TIMESTAMP far in the past (inside the skew): both are
            // released once captured; the late one is logged at its commit, its cells keep its timestamp
            long lateMicros = (System.currentTimeMillis() - skewMillis / 2) * 1000;
            w.exec("INSERT INTO ks.t (pk, ck, v) VALUES (7, 1, 1)");
            w.exec("INSERT INTO ks.t (pk, ck, v) VALUES (7, 2, 2) USING TIMESTAMP " + lateMicros);
            Set<Long> seen = new HashSet<>();
            while (seen.size() < 3) {
                StreamBatch b = call.take();
                long now = System.currentTimeMillis() * 1000;
                for (Lcr l : b.getLcrsList()) {
                    seen.add(l.getNewValuesList().stream().filter(v -> v.getName().equals("ck")).findFirst().orElseThrow()
                            .getValue().getInteger());
                    assertTrue(micros(l) < b.getSafeTimeMicros(), "released below its batch's safe time");
                    assertTrue(now < micros(l) + skewMillis * 1000 / 4, "released " + (now - micros(l)) / 1000
                            + " ms after its log time: the safe time waited for a skew window");
                }
            }
            assertEquals(lateMicros, w.exec("SELECT writetime(v) FROM ks.t WHERE pk = 7 AND ck = 2").getRows(0).getValues(0)
                    .getInteger(), "the late write keeps its timestamp in the table");
            call.call.cancel("done", null);
        }
    }

    @Test
    @DisplayName("CDC-GEN-8 CDC-GEN-9: ReadStream(follow) tails new LCRs and heartbeats an advancing safe time; no LCR "
            + "ever arrives below a safe time already sent, even for writes USING TIMESTAMP near the skew limit")
    void followAndSafeTime(@TempDir Path dir) throws Exception {
        // seed: CDC-GEN-8 seed: CDC-GEN-9
        try (TributaryNode node = TestNodes.startOperating(dir, "--max-write-skew", SKEW_MILLIS + "ms");
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");

            ListStreamsResponse streams = w.changes.listStreams(ListStreamsRequest.newBuilder().setTable("ks.t").build());
            assertEquals(1, streams.getLineagesCount());
            assertEquals("vnodes", streams.getLineages(0).getName());
            assertEquals(1, streams.getLineages(0).getSetsCount(), "one generation");
            assertEquals(8, streams.getLineages(0).getSets(0).getStreamsCount(), "one stream per vnode (8 tokens)");
            assertTrue(streams.getLineages(0).getSets(0).getStreamsList().stream()
                    .allMatch(s -> s.getState() == StreamState.STREAM_STATE_OPENED));
            assertEquals(SKEW_MILLIS, streams.getMaxWriteSkewMillis());
            assertEquals(1, streams.getNodesCount());
            assertEquals(node.endpoint(), streams.getNodes(0).getEndpoint());

            w.exec("INSERT INTO ks.t (pk, ck, v) VALUES (7, -1, -1)");
            TestNodes.await(() -> w.exec("SELECT \"cdc$stream_id\" FROM ks.t_scylla_cdc_log").getRowsCount() == 1,
                    Duration.ofSeconds(10), "the first LCR");
            ByteString stream = w.exec("SELECT \"cdc$stream_id\" FROM ks.t_scylla_cdc_log LIMIT 1").getRows(0).getValues(0)
                    .getBlob();
            ManualCall<ReadStreamRequest, StreamBatch> call = new ManualCall<>(Integer.MAX_VALUE);
            ChangeStreamServiceGrpc.newStub(w.channel).readStream(ReadStreamRequest.newBuilder().setTable("ks.t")
                    .setStreamId(stream).setFollow(true).build(), call);

            // idle: heartbeats, each safe time above the last
            long last = Long.MIN_VALUE;
            int heartbeats = 0;
            // the first LCR comes once the safe time passes it, during these heartbeats or after
            int lcrs = 0;
            while (heartbeats < 5) {
                StreamBatch b = call.take();
                lcrs += b.getLcrsCount();
                long now = System.currentTimeMillis() * 1000;
                assertTrue(b.getSafeTimeMicros() <= now, "safe time never runs ahead of the clock");
                assertTrue(b.getSafeTimeMicros() >= last, "never decreases");
                if (b.getLcrsCount() == 0 && b.getSafeTimeMicros() > last) {
                    heartbeats++;
                }
                assertEquals(List.of(node.hostId().toString()), b.getMembersList().stream().map(m -> m.getHostId()).toList(),
                        "the membership the safe time is bounded by");
                last = b.getSafeTimeMicros();
            }

            // writes: some at the node's clock, some USING TIMESTAMP just inside the skew in the past
            int writes = 300;
            NearSkewWriter writer = new NearSkewWriter(node, writes, SKEW_MILLIS,
                    i -> "INSERT INTO ks.t (pk, ck, v) VALUES (7, " + i + ", " + i + ")");
            writer.start();
            long safe = last;
            long writesDoneAt = 0;
            Lcr previous = null;
            while (true) {
                StreamBatch b = call.take();
                for (Lcr l : b.getLcrsList()) {
                    // had the node promised a safe time too high, a late write would arrive below it (or be lost)
                    assertTrue(micros(l) >= safe, "an LCR at " + micros(l) + " arrived after safe time " + safe);
                    assertTrue(micros(l) < b.getSafeTimeMicros(), "following, only LCRs below the batch's safe time");
                    assertTrue(previous == null || micros(previous) <= micros(l), "position order");
                    previous = l;
                    lcrs++;
                }
                assertTrue(b.getSafeTimeMicros() >= safe, "never decreases");
                safe = b.getSafeTimeMicros();
                if (writer.done.get() && writesDoneAt == 0) {
                    writesDoneAt = System.currentTimeMillis() * 1000;
                }
                if (writesDoneAt != 0 && safe > writesDoneAt) {
                    break; // the safe time passed the end of the writes: everything of theirs is here
                }
            }
            writer.joinAndCheck();
            long logged = w.exec("SELECT count(*) FROM ks.t_scylla_cdc_log").getRows(0).getValues(0).getInteger();
            assertEquals(logged, lcrs, "every LCR of the stream, once");
            assertTrue(lcrs > writes / 2, "most writes were accepted: " + lcrs);
            call.call.cancel("done", null);
            TestNodes.await(() -> node.openStreamReads() == 0, Duration.ofSeconds(5), "the cancelled call to be forgotten");
        }
    }
}
