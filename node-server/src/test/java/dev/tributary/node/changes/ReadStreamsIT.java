package dev.tributary.node.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.client.Lcrs;
import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.DeliveryChecker;
import dev.tributary.node.kit.History;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.ListStreamsRequest;
import dev.tributary.protocol.v1.ReadStreamsRequest;
import dev.tributary.protocol.v1.StreamChunk;
import dev.tributary.protocol.v1.StreamOpen;
import dev.tributary.protocol.v1.StreamsBatch;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** ReadStreams on one real node: many streams on one call, opens and closes, the safe time rule, flow control. */
@Timeout(180)
class ReadStreamsIT {
    private static final long SKEW_MILLIS = 300;

    /** A ReadStreams call whose messages are requested by hand. */
    private static final class MuxCall extends ManualCall<ReadStreamsRequest, StreamsBatch> {
        private long seq;

        MuxCall(int initial) {
            super(initial);
        }

        static MuxCall start(ManagedChannel channel, int initial, ReadStreamsRequest first) {
            MuxCall c = new MuxCall(initial);
            ChangeStreamServiceGrpc.newStub(channel).readStreams(c).onNext(first);
            return c;
        }

        synchronized long open(ReadStreamsRequest.Builder req, ByteString stream, long fromMicros) {
            req.addOpen(StreamOpen.newBuilder().setStreamId(stream).setFromTimeMicros(fromMicros).setSeq(++seq));
            return seq;
        }

        synchronized void send(ReadStreamsRequest req) {
            call.onNext(req);
        }

        Status.Code failure() throws InterruptedException {
            Object e = end.poll(20, TimeUnit.SECONDS);
            assertTrue(e instanceof StatusRuntimeException, "the call failed: " + e);
            return ((StatusRuntimeException) e).getStatus().getCode();
        }
    }

    /**
     * What a consumer may conclude from the messages of one call, per stream: the bound below
     * which it has every LCR of the stream on this node (the contract's invariant), checked
     * against every LCR that arrives later.
     */
    private static final class Tracker {
        final Map<ByteString, Long> openSeq = new HashMap<>();
        final Map<ByteString, Long> covered = new HashMap<>();
        final Map<ByteString, List<Lcr>> lcrs = new HashMap<>();
        final Set<String> positions = new HashSet<>();
        long safe = Long.MIN_VALUE;
        boolean sawBehind;
        /** Every LCR this call delivered, for the check against the acknowledged writes. */
        final DeliveryChecker delivered;

        Tracker(DeliveryChecker delivered) {
            this.delivered = delivered;
        }

        synchronized void opened(ByteString stream, long seq) {
            openSeq.put(stream, seq);
            covered.putIfAbsent(stream, Long.MIN_VALUE);
        }

        void apply(StreamsBatch b) {
            assertTrue(b.getSafeTimeMicros() >= safe, "the safe time never decreases");
            safe = b.getSafeTimeMicros();
            for (StreamChunk c : b.getChunksList()) {
                ByteString s = c.getStreamId();
                long bound = covered.get(s);
                for (Lcr l : c.getLcrsList()) {
                    // had the node announced a bound too high, a late LCR would arrive below it
                    assertTrue(micros(l) >= bound, "an LCR at " + micros(l) + " arrived after the stream was complete below "
                            + bound);
                    assertTrue(micros(l) < b.getSafeTimeMicros(), "only LCRs below the safe time");
                    assertTrue(positions.add(l.getPosition().getTime() + "/" + l.getPosition().getBatchSeqNo()),
                            "every LCR once");
                    delivered.record(Lcrs.toRecord(l));
                    List<Lcr> got = lcrs.computeIfAbsent(s, k -> new ArrayList<>());
                    assertTrue(got.isEmpty() || micros(got.get(got.size() - 1)) <= micros(l), "position order");
                    got.add(l);
                }
                assertTrue(c.getThroughMicros() >= bound, "through_micros never decreases");
                covered.put(s, c.getThroughMicros());
            }
            Set<ByteString> behind = new HashSet<>(b.getBehindList());
            sawBehind |= !behind.isEmpty();
            synchronized (this) {
                for (Map.Entry<ByteString, Long> e : openSeq.entrySet()) {
                    if (e.getValue() <= b.getOpenedThroughSeq() && !behind.contains(e.getKey())) {
                        covered.merge(e.getKey(), b.getSafeTimeMicros(), Math::max);
                    }
                }
            }
        }

        int total() {
            return lcrs.values().stream().mapToInt(List::size).sum();
        }
    }

    private static long micros(Lcr l) {
        return TimeUuids.micros(UUID.fromString(l.getPosition().getTime()));
    }

    static List<ByteString> streams(TestNodes.Wire w) {
        return w.changes.listStreams(ListStreamsRequest.newBuilder().setTable("ks.t").build()).getLineages(0).getSets(0)
                .getStreamsList().stream().map(s -> s.getStreamId()).toList();
    }

    static long logged(TestNodes.Wire w) {
        return w.exec("SELECT count(*) FROM ks.t_scylla_cdc_log").getRows(0).getValues(0).getInteger();
    }

    static void createTable(TestNodes.Wire w, String valueType) {
        w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
        w.exec("CREATE TABLE ks.t (pk int, ck int, v " + valueType + ", PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
    }

    @Test
    @DisplayName("one ReadStreams call reads every stream of the log, streams opened and closed while it runs; no LCR ever "
            + "arrives below a bound the call announced for its stream (safe time outside `behind` and for acknowledged "
            + "opens, chunk through_micros), with writes USING TIMESTAMP near the skew limit")
    void manyStreamsOpenCloseAndSafeTime(@TempDir Path dir) throws Exception {
        try (TributaryNode node = TestNodes.startOperating(dir, "--max-write-skew", SKEW_MILLIS + "ms");
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            createTable(w, "int");
            List<ByteString> streams = streams(w);
            assertEquals(8, streams.size(), "one stream per vnode (8 tokens)");
            // every write keyed by its ck, so delivery is checked against what was acknowledged, not the node's log
            History history = new History();
            for (int i = 0; i < 200; i++) {
                history.invoke(1, i);
                w.exec("INSERT INTO ks.t (pk, ck, v) VALUES (" + i % 40 + ", " + i + ", " + i + ")");
                history.ok(i);
            }
            TestNodes.await(() -> logged(w) == 200, Duration.ofSeconds(30), "the first LCRs captured");

            // small pages, so streams get cut and are listed behind
            MuxCall call = MuxCall.start(w.channel, Integer.MAX_VALUE,
                    ReadStreamsRequest.newBuilder().setTable("ks.t").setMaxBatch(7).build());
            DeliveryChecker checker = new DeliveryChecker("ck");
            Tracker t = new Tracker(checker);
            ReadStreamsRequest.Builder first = ReadStreamsRequest.newBuilder();
            for (ByteString s : streams.subList(0, 3)) {
                t.opened(s, call.open(first, s, 0));
            }
            call.send(first.build());

            int writes = 400;
            NearSkewWriter writer = new NearSkewWriter(node, writes, SKEW_MILLIS,
                    i -> "INSERT INTO ks.t (pk, ck, v) VALUES (" + i % 40 + ", " + (1000 + i) + ", " + i + ")", history,
                    i -> 1000 + i);
            writer.start();

            // the other streams are opened one by one while LCRs flow; the first is closed midway
            int next = 3;
            long closedAtSeq = Long.MAX_VALUE;
            long writesDoneAt = 0;
            while (true) {
                StreamsBatch b = call.take();
                t.apply(b);
                if (b.getOpenedThroughSeq() >= closedAtSeq) {
                    // the close came before this open on the call: the closed stream is done with
                    assertTrue(b.getChunksList().stream().noneMatch(c -> c.getStreamId().equals(streams.get(0))),
                            "no chunk of a closed stream");
                }
                if (next < streams.size() && b.getOpenedThroughSeq() == next) {
                    ReadStreamsRequest.Builder r = ReadStreamsRequest.newBuilder();
                    if (next == 5) {
                        r.addClose(streams.get(0));
                    }
                    long seq = call.open(r, streams.get(next), 0);
                    t.opened(streams.get(next), seq);
                    if (next == 5) {
                        closedAtSeq = seq;
                        t.openSeq.remove(streams.get(0));
                    }
                    call.send(r.build());
                    next++;
                }
                if (writer.done.get() && writesDoneAt == 0) {
                    writesDoneAt = System.currentTimeMillis() * 1000;
                }
                if (next == streams.size() && writesDoneAt != 0 && b.getSafeTimeMicros() > writesDoneAt && b.getBehindCount() == 0
                        && b.getOpenedThroughSeq() == next) {
                    break; // everything written is below the safe time and sent
                }
            }
            writer.joinAndCheck();
            assertTrue(t.sawBehind, "with pages of 7 LCRs some stream was listed behind");

            call.call.cancel("done", null);
            // the closed stream gave a prefix: read it again to its end on a call of its own, so that
            // every acknowledged write has its stream read through (a position seen twice counts once)
            ByteString closed = streams.get(0);
            MuxCall rest = MuxCall.start(w.channel, Integer.MAX_VALUE, ReadStreamsRequest.newBuilder().setTable("ks.t").build());
            Tracker again = new Tracker(checker);
            ReadStreamsRequest.Builder reopen = ReadStreamsRequest.newBuilder();
            again.opened(closed, rest.open(reopen, closed, 0));
            rest.send(reopen.build());
            while (true) {
                StreamsBatch b = rest.take();
                again.apply(b);
                if (b.getOpenedThroughSeq() == 1 && b.getSafeTimeMicros() > writesDoneAt && b.getBehindCount() == 0) {
                    break;
                }
            }
            rest.call.cancel("done", null);
            // every acknowledged write delivered at one position, no refused one, nothing no write
            // produced, per-stream order; how many near-skew writes were refused depends on the load
            checker.verify(history);
            assertTrue(!history.ok().isEmpty() && t.total() > 0, "LCRs arrived: " + t.total() + "; " + history.summary());

            TestNodes.await(() -> node.streamReads().openStreamsCalls() == 0 && node.streamReads().watchedStreams() == 0,
                    Duration.ofSeconds(5), "the cancelled call and its streams to be forgotten");
        }
    }

    @Test
    @DisplayName("ReadStreams under flow control: a client that stops requesting holds the node to a few messages while "
            + "thousands of LCRs wait; requesting again delivers every LCR once")
    void flowControl(@TempDir Path dir) throws Exception {
        try (TributaryNode node = TestNodes.startOperating(dir, "--max-write-skew", SKEW_MILLIS + "ms");
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            createTable(w, "text");
            String pad = "x".repeat(500);
            int n = 4000;
            History history = new History();
            for (int i = 0; i < n; i++) {
                history.invoke(0, i);
            }
            w.execInBatches(n, i -> "INSERT INTO ks.t (pk, ck, v) VALUES (" + (i / 100) % 4 + ", " + i + ", '" + pad + "')");
            // execInBatches returns once every batch was acknowledged
            for (int i = 0; i < n; i++) {
                history.ok(i);
            }
            DeliveryChecker checker = new DeliveryChecker("ck");
            TestNodes.await(() -> logged(w) == n, Duration.ofSeconds(30), "all LCRs captured");
            long sentBefore = node.streamReads().streamsLcrsSent();
            long pausesBefore = node.streamReads().readinessPauses();

            // a small HTTP/2 window, so that what the transport buffers is small next to the backlog
            ManagedChannel channel = NettyChannelBuilder.forTarget(node.endpoint()).usePlaintext().flowControlWindow(64 * 1024)
                    .build();
            try {
                MuxCall call = MuxCall.start(channel, 1, ReadStreamsRequest.newBuilder().setTable("ks.t").setMaxBatch(50).build());
                ReadStreamsRequest.Builder open = ReadStreamsRequest.newBuilder();
                for (ByteString s : streams(w)) {
                    call.open(open, s, 0);
                }
                call.send(open.build());
                // the first message may already carry LCRs: they count (dropping it lost 50 LCRs
                // whenever the node's first message was a full batch rather than a heartbeat)
                StreamsBatch first = call.received.poll(20, TimeUnit.SECONDS);
                assertTrue(first != null, "a first message within 20 s");
                // ~2.4 MB wait; a node ignoring readiness would send them all at once, one that
                // heeds it stops once the window is full and cannot go on until this client asks
                TestNodes.await(() -> node.streamReads().readinessPauses() > pausesBefore, Duration.ofSeconds(30),
                        "the node to stop sending while the call is not ready");
                long sent = node.streamReads().streamsLcrsSent() - sentBefore;
                assertTrue(sent <= 500, "the node stopped sending while the call was not ready: " + sent + " of " + n
                        + " LCRs sent");
                assertEquals(1, node.streamReads().openStreamsCalls(), "the call is still open");

                call.call.request(Integer.MAX_VALUE);
                int got = 0;
                Set<String> positions = new HashSet<>();
                for (StreamChunk c : first.getChunksList()) {
                    for (Lcr l : c.getLcrsList()) {
                        checker.record(Lcrs.toRecord(l));
                        assertTrue(positions.add(l.getPosition().getTime() + "/" + l.getPosition().getBatchSeqNo()),
                                "every LCR once");
                        got++;
                    }
                }
                // heartbeats keep coming whether or not LCRs do: a stall shows as a deadline, with what came last
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                StreamsBatch last = null;
                while (got < n) {
                    int sofar = got;
                    StreamsBatch lastSeen = last;
                    assertTrue(System.nanoTime() < deadline, () -> "after the client asked for everything only " + sofar
                            + " of " + n + " LCRs came; the last message: " + lastSeen + "; node: "
                            + node.streamReads().streamsLcrsSent() + " LCRs sent in all, " + node.streamReads().openStreamsCalls()
                            + " calls open");
                    last = call.take();
                    for (StreamChunk c : last.getChunksList()) {
                        for (Lcr l : c.getLcrsList()) {
                            checker.record(Lcrs.toRecord(l));
                            assertTrue(positions.add(l.getPosition().getTime() + "/" + l.getPosition().getBatchSeqNo()),
                                    "every LCR once");
                            got++;
                        }
                    }
                }
                assertEquals(n, got);
                checker.verify(history);
                call.call.cancel("done", null);
                TestNodes.await(() -> node.streamReads().openStreamsCalls() == 0 && node.streamReads().watchedStreams() == 0,
                        Duration.ofSeconds(5), "the cancelled call to be forgotten");
            } finally {
                channel.shutdownNow();
            }
        }
    }

    @Test
    @DisplayName("ReadStreams refuses bad requests with typed errors and the node keeps serving")
    void badRequests(@TempDir Path dir) throws Exception {
        try (TributaryNode node = TestNodes.startOperating(dir, "--max-write-skew", SKEW_MILLIS + "ms");
                TestNodes.Wire w = new TestNodes.Wire(node)) {
            createTable(w, "int");
            ByteString stream = streams(w).get(0);

            assertEquals(Status.Code.NOT_FOUND, MuxCall.start(w.channel, 10,
                    ReadStreamsRequest.newBuilder().setTable("ks.nope").build()).failure(), "unknown table");
            assertEquals(Status.Code.INVALID_ARGUMENT, MuxCall.start(w.channel, 10,
                    ReadStreamsRequest.newBuilder().build()).failure(), "no table or queue on the first request");
            assertEquals(Status.Code.INVALID_ARGUMENT, MuxCall.start(w.channel, 10,
                    ReadStreamsRequest.newBuilder().setTable("ks.t").setMaxBatch(5000).build()).failure(), "max_batch too big");
            assertEquals(Status.Code.INVALID_ARGUMENT, MuxCall.start(w.channel, 10,
                    ReadStreamsRequest.newBuilder().setTable("ks.t").addOpen(StreamOpen.newBuilder()
                            .setStreamId(ByteString.copyFrom(new byte[3])).setSeq(1)).build()).failure(), "a 3-byte stream id");

            MuxCall twice = MuxCall.start(w.channel, 10, ReadStreamsRequest.newBuilder().setTable("ks.t")
                    .addOpen(StreamOpen.newBuilder().setStreamId(stream).setSeq(1)).build());
            twice.send(ReadStreamsRequest.newBuilder().addOpen(StreamOpen.newBuilder().setStreamId(stream).setSeq(2)).build());
            assertEquals(Status.Code.INVALID_ARGUMENT, twice.failure(), "a stream opened twice");

            MuxCall relog = MuxCall.start(w.channel, 10, ReadStreamsRequest.newBuilder().setTable("ks.t").build());
            relog.send(ReadStreamsRequest.newBuilder().setTable("ks.t").build());
            assertEquals(Status.Code.INVALID_ARGUMENT, relog.failure(), "the log named again");

            // the node goes on serving
            w.exec("INSERT INTO ks.t (pk, ck, v) VALUES (1, 1, 1)");
            MuxCall good = MuxCall.start(w.channel, Integer.MAX_VALUE, ReadStreamsRequest.newBuilder().setTable("ks.t").build());
            ReadStreamsRequest.Builder open = ReadStreamsRequest.newBuilder();
            for (ByteString s : streams(w)) {
                good.open(open, s, 0);
            }
            good.send(open.build());
            int got = 0;
            while (got < 1) {
                got += good.take().getChunksList().stream().mapToInt(StreamChunk::getLcrsCount).sum();
            }
            good.call.cancel("done", null);
            TestNodes.await(() -> node.streamReads().openStreamsCalls() == 0 && node.streamReads().watchedStreams() == 0,
                    Duration.ofSeconds(5), "every call to be forgotten");
        }
    }
}
