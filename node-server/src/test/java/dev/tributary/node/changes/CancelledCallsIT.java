package dev.tributary.node.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.ReadChangesRequest;
import dev.tributary.protocol.v1.ReadStreamRequest;
import dev.tributary.protocol.v1.ReadStreamsRequest;
import dev.tributary.protocol.v1.StreamOpen;
import dev.tributary.protocol.v1.SubscribeRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming calls a client cancels leave nothing behind on the node: no registered call, no
 * watched stream, no thread. The four change-stream RPCs hold a cancelled call in four different
 * ways (ReadStreams and ReadStream as registrations on a shared pool, ReadChanges as a gRPC
 * thread parked on the window, Subscribe as a thread of its own), so each is cancelled at each
 * point where it holds something different.
 */
@Timeout(180)
class CancelledCallsIT {
    /** {@code -Dtributary.p7.calls=N}: the EXT size runs more. */
    private static final int CALLS = Integer.getInteger("tributary.p7.calls", 1000);
    /**
     * Calls open at once. Cancellations of one wave are cleaned up while the next opens, so the
     * node's cleanup races new calls rather than running on an idle node.
     */
    private static final int WAVE = 48;
    private static final int ROWS = 3000;
    /**
     * Working threads the JVM may have above the baseline at the end: threads of other work come
     * and go (a ZooKeeper ping, a log-retention run). A leak of one thread per call (Subscribe's
     * pump, a ReadChanges handler still parked on its window) is hundreds.
     */
    private static final int THREAD_MARGIN = 4;

    private enum Rpc { READ_STREAMS, READ_STREAM, READ_CHANGES, SUBSCRIBE }

    /** When the client cancels. */
    private enum When {
        /** At once: the node may not have started serving the call yet. */
        OPENED,
        /** After its first message: the node has sent and may be reading the next page. */
        FIRST_DATA,
        /**
         * After a few messages more, with the rest of the backlog held back by flow control (a
         * Subscribe call: requesting nothing while LCRs are published to it).
         */
        MID_BACKLOG
    }

    private TributaryNode node;
    private TestNodes.Wire w;
    private ManagedChannel channel;
    private ChangeStreamServiceGrpc.ChangeStreamServiceStub stub;
    private ReadStreamsRequest openAll;
    /** The streams with the most rows: ReadStream reads these, so that each has a backlog to cut. */
    private List<ByteString> fullStreams;
    private final AtomicInteger written = new AtomicInteger();

    /** One call of the churn, cancelled at its {@link When}. */
    private final class Churned {
        final Rpc rpc;
        final When when;
        final ManualCall<?, ?> call;

        Churned(int i) {
            rpc = Rpc.values()[i % Rpc.values().length];
            when = When.values()[(i / Rpc.values().length) % When.values().length];
            // a Subscribe cancelled mid-backlog has requested nothing; the others take their first message
            int initial = rpc == Rpc.SUBSCRIBE && when == When.MID_BACKLOG ? 0 : 1;
            switch (rpc) {
                case READ_STREAMS -> {
                    ManualCall<ReadStreamsRequest, dev.tributary.protocol.v1.StreamsBatch> c = new ManualCall<>(initial);
                    stub.readStreams(c).onNext(openAll);
                    // every other round of RPCs and moments half-closes first: a half-close does
                    // not end a ReadStreams call, the cancel still must
                    if (i / (Rpc.values().length * When.values().length) % 2 == 0) {
                        c.call.onCompleted();
                    }
                    call = c;
                }
                case READ_STREAM -> {
                    ManualCall<ReadStreamRequest, dev.tributary.protocol.v1.StreamBatch> c = new ManualCall<>(initial);
                    stub.readStream(ReadStreamRequest.newBuilder().setTable("ks.t")
                            .setStreamId(fullStreams.get(i % fullStreams.size())).setFollow(true).setMaxBatch(16).build(), c);
                    call = c;
                }
                case READ_CHANGES -> {
                    ManualCall<ReadChangesRequest, dev.tributary.protocol.v1.Lcr> c = new ManualCall<>(initial);
                    stub.readChanges(ReadChangesRequest.newBuilder().setTable("ks.t").build(), c);
                    call = c;
                }
                case SUBSCRIBE -> {
                    ManualCall<SubscribeRequest, dev.tributary.protocol.v1.LcrBatch> c = new ManualCall<>(initial);
                    stub.subscribe(SubscribeRequest.newBuilder().setTable("ks.t").build(), c);
                    call = c;
                }
                default -> throw new IllegalStateException();
            }
            if (when == When.OPENED) {
                cancel();
            }
        }

        /** Reads what this call is to read before it is cancelled, but for Subscribe's, which need writes. */
        void readUpToCancel() throws InterruptedException {
            if (when == When.OPENED || rpc == Rpc.SUBSCRIBE) {
                return;
            }
            call.take();
            if (when == When.MID_BACKLOG) {
                // 3 more of a backlog of thousands: the node is left with most of it to send
                call.call.request(3);
                for (int k = 0; k < 3; k++) {
                    call.take();
                }
            }
        }

        void cancel() {
            call.call.cancel("P7: the client goes away", null);
        }

        void assertCancelled() throws InterruptedException {
            Object end = call.end.poll(10, TimeUnit.SECONDS);
            assertTrue(end instanceof Throwable && Status.fromThrowable((Throwable) end).getCode() == Status.Code.CANCELLED,
                    () -> rpc + " cancelled " + when + " ended with " + end + ", not CANCELLED");
            call.received.clear(); // 1,000 calls' messages need not stay in the test's heap
        }
    }

    /** Opens {@code n} calls, cancels each at its moment, and checks the client saw CANCELLED. */
    private void wave(int first, int n) throws InterruptedException {
        List<Churned> calls = new ArrayList<>();
        for (int i = first; i < first + n; i++) {
            calls.add(new Churned(i));
        }
        for (Churned c : calls) {
            c.readUpToCancel();
        }
        // Subscribe sends only what is published after it subscribed, and when the node has
        // registered a subscription is not visible to the client: write until every one has data
        List<Churned> subscribers = calls.stream().filter(c -> c.rpc == Rpc.SUBSCRIBE && c.when == When.FIRST_DATA).toList();
        TestNodes.await(() -> {
            if (subscribers.stream().allMatch(c -> !c.call.received.isEmpty())) {
                return true;
            }
            int k = written.incrementAndGet();
            w.exec("INSERT INTO ks.t (pk, ck, v) VALUES (" + k % 200 + ", " + (ROWS + k) + ", 'live')");
            return false;
        }, Duration.ofSeconds(20), "every Subscribe call of the wave to receive a batch");
        for (Churned c : calls) {
            if (c.when != When.OPENED) {
                c.cancel();
            }
        }
        for (Churned c : calls) {
            c.assertCancelled();
        }
    }

    /**
     * The JVM's live threads but those idle in a thread pool, waiting for a task. gRPC's executor
     * is a cached pool whose idle threads live 60 s: a wave that needed a few more threads at once
     * than the warm-up did leaves them behind for a minute, holding nothing of any call. A thread
     * still serving a cancelled call is not idle in its pool, so it counts.
     */
    private static Map<Thread, StackTraceElement[]> workingThreads() {
        Map<Thread, StackTraceElement[]> all = Thread.getAllStackTraces();
        all.values().removeIf(stack -> java.util.Arrays.stream(stack).anyMatch(
                f -> f.getClassName().equals("java.util.concurrent.ThreadPoolExecutor") && f.getMethodName().equals("getTask")));
        return all;
    }

    /** Working threads by name with the numbers taken out, for a failure message. */
    private static Map<String, Long> threadCensus() {
        return workingThreads().keySet().stream()
                .collect(Collectors.groupingBy(t -> t.getName().replaceAll("\\d+", "#"), TreeMap::new, Collectors.counting()));
    }

    private static long subscribePumps() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("tributary-subscribe-")).count();
    }

    /** Nothing of any cancelled call is left on the node, and the JVM has at most {@code maxThreads} threads. */
    private boolean settled(int maxThreads) {
        StreamReads r = node.streamReads();
        return r.openCalls() == 0 && r.openStreamsCalls() == 0 && r.watchedStreams() == 0 && subscribePumps() == 0
                && !ReadChangesFlowControlIT.inHandler("readChanges") && workingThreads().size() <= maxThreads;
    }

    private String state(int baseline, Map<String, Long> census) {
        StreamReads r = node.streamReads();
        return "the node to forget every cancelled call: " + r.openCalls() + " ReadStream and " + r.openStreamsCalls()
                + " ReadStreams calls open, " + r.watchedStreams() + " streams watched, " + subscribePumps()
                + " Subscribe pumps, ReadChanges handler running: " + ReadChangesFlowControlIT.inHandler("readChanges")
                + "; " + workingThreads().size() + " threads working (not idle in a pool) against "
                + (baseline < 0 ? "no baseline yet (the warm-up)" : "a baseline of " + baseline + " (+" + THREAD_MARGIN + ")")
                + ", " + ManagementFactory.getThreadMXBean().getThreadCount() + " live"
                + "\nworking threads at the baseline: " + census + "\nworking threads now: " + threadCensus()
                + workingStacks("grpc-default-executor", "tributary-subscribe-");
    }

    /**
     * The stacks of the working threads named so (the idle ones of a pool say nothing): a handler
     * or pump still serving a cancelled call shows here.
     */
    private static String workingStacks(String... prefixes) {
        StringBuilder b = new StringBuilder();
        workingThreads().forEach((t, stack) -> {
            if (java.util.Arrays.stream(prefixes).anyMatch(t.getName()::startsWith)) {
                b.append('\n').append(t.getName()).append(' ').append(t.getState());
                for (StackTraceElement e : stack) {
                    b.append("\n    at ").append(e);
                }
            }
        });
        return b.toString();
    }

    private static Map<ByteString, Long> perStream(TestNodes.Wire w) {
        return w.exec("SELECT \"cdc$stream_id\" FROM ks.t_scylla_cdc_log").getRowsList().stream()
                .collect(Collectors.groupingBy(r -> r.getValues(0).getBlob(), Collectors.counting()));
    }

    @Test
    @DisplayName("RELIABILITY P7: 1,000 streaming calls (ReadStreams, ReadStream, ReadChanges, Subscribe) cancelled at once, "
            + "after their first message and mid-backlog under flow control: the node's open calls and watched streams return "
            + "to zero and the JVM's working threads to the baseline taken after a warm-up")
    void thousandCancelledCalls(@TempDir Path dir) throws Exception {
        try (TributaryNode n = TestNodes.startOperating(dir); TestNodes.Wire wire = new TestNodes.Wire(n)) {
            node = n;
            w = wire;
            ReadStreamsIT.createTable(w, "text");
            String pad = "x".repeat(1000);
            w.execInBatches(ROWS, i -> "INSERT INTO ks.t (pk, ck, v) VALUES (" + i % 200 + ", " + i + ", '" + pad + "')");
            TestNodes.await(() -> ReadStreamsIT.logged(w) == ROWS, Duration.ofSeconds(30), "the backlog captured");

            List<ByteString> streams = ReadStreamsIT.streams(w);
            ReadStreamsRequest.Builder open = ReadStreamsRequest.newBuilder().setTable("ks.t").setMaxBatch(32);
            for (int i = 0; i < streams.size(); i++) {
                open.addOpen(StreamOpen.newBuilder().setStreamId(streams.get(i)).setSeq(i + 1));
            }
            openAll = open.build();
            // the node's 8 vnode tokens are random, so the rows split over the streams by chance: top up
            // the 4 fullest until each holds 200 rows, writing more rows into a partition each already has
            Map<ByteString, Long> counted = perStream(w);
            fullStreams = counted.entrySet().stream().sorted(Map.Entry.<ByteString, Long>comparingByValue().reversed())
                    .limit(4).map(Map.Entry::getKey).toList();
            Map<ByteString, Long> partitionOf = w.exec("SELECT \"cdc$stream_id\", pk FROM ks.t_scylla_cdc_log").getRowsList()
                    .stream().collect(Collectors.toMap(r -> r.getValues(0).getBlob(), r -> r.getValues(1).getInteger(), (a, b) -> a));
            int added = 0;
            for (ByteString s : fullStreams) {
                for (long k = counted.get(s); k < 200; k++, added++) {
                    w.exec("INSERT INTO ks.t (pk, ck, v) VALUES (" + partitionOf.get(s) + ", " + (2_000_000 + added) + ", '" + pad + "')");
                }
            }
            int total = ROWS + added;
            TestNodes.await(() -> ReadStreamsIT.logged(w) == total, Duration.ofSeconds(30), "the top-up captured");
            Map<ByteString, Long> perStream = perStream(w);
            assertTrue(perStream.get(fullStreams.get(fullStreams.size() - 1)) >= 200,
                    "each stream ReadStream reads holds more than the window lets through: " + perStream.values());

            // a small HTTP/2 window: a call cancelled mid-backlog has most of it still to send,
            // without each of them moving megabytes first
            channel = NettyChannelBuilder.forTarget(node.endpoint()).usePlaintext().flowControlWindow(64 * 1024).build();
            try {
                stub = ChangeStreamServiceGrpc.newStub(channel);
                // the warm-up starts what is started once (event loops, pools sized for a wave)
                wave(0, WAVE);
                wave(WAVE, WAVE);
                TestNodes.await(() -> settled(Integer.MAX_VALUE), Duration.ofSeconds(20), () -> state(-1, Map.of()));
                int baseline = workingThreads().size();
                Map<String, Long> census = threadCensus();

                long start = System.nanoTime();
                for (int first = 0; first < CALLS; first += WAVE) {
                    wave(2 * WAVE + first, Math.min(WAVE, CALLS - first));
                }
                TestNodes.await(() -> settled(baseline + THREAD_MARGIN), Duration.ofSeconds(20), () -> state(baseline, census));
                System.out.printf("P7: %d calls cancelled in %d ms; working threads %d at the baseline, %d now; %d live%n",
                        CALLS, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), baseline, workingThreads().size(),
                        ManagementFactory.getThreadMXBean().getThreadCount());

                // and the node still serves a reader from the start of the log
                ManualCall<ReadChangesRequest, dev.tributary.protocol.v1.Lcr> after = new ManualCall<>(Integer.MAX_VALUE);
                stub.readChanges(ReadChangesRequest.newBuilder().setTable("ks.t").setLimit(ROWS).build(), after);
                assertEquals("completed", after.end.poll(20, TimeUnit.SECONDS));
                assertEquals(ROWS, after.received.size());
            } finally {
                channel.shutdownNow();
            }
        }
    }
}
