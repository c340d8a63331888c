package dev.tributary.node.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.StartPosition;
import dev.tributary.client.TributaryClient;
import dev.tributary.node.NodeProcess;
import dev.tributary.node.TestNodes;
import dev.tributary.node.kit.DeliveryChecker;
import dev.tributary.node.kit.UniqueWriters;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.LcrBatch;
import dev.tributary.protocol.v1.NamedValue;
import dev.tributary.protocol.v1.SubscribeRequest;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY P5: writers at a sustained rate while one subscriber of a capture's queue reads 100
 * LCRs a second through gRPC flow control (it asks for the next batch only when it has handled the
 * last); the node's queue buffer stays within {@code --queue-buffer-bytes} (plus one region) and
 * its heap within a bound, sampled throughout; a consumer of the table's change stream keeps pace;
 * then the slow one catches up and every acknowledged row reaches both exactly once.
 */
@Tag("integration")
class SlowConsumerIT {
    // kept when the test fails: the node's log is in it
    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
    Path dir;

    /** The queue's memory bound: small, so a slow subscriber reaches it within seconds. */
    private static final long QUEUE_BUFFER_BYTES = 1 << 20;
    /**
     * The node's heap floor (NodeProcess: -Xmx512m) stays under half of it: what a buffer that grew
     * with the backlog (590k rows at the reliability size) would not. The floor is the least heap
     * used in each 10 s of samples, the largest of those: what survives the collections. The heap
     * used at any instant says nothing: it climbs towards the maximum under steady allocation.
     */
    private static final long HEAP_BOUND = 256L << 20;
    private static final int FLOOR_WINDOW_SAMPLES = 40;
    private static final int WRITES_PER_SECOND = 10;
    private static final int WRITERS = 2;

    @Test
    @DisplayName("P5: a queue subscriber at 100 LCRs/s under a sustained write rate: buffered bytes within --queue-buffer-bytes, heap "
            + "within its bound; the table's consumer keeps pace; the slow one catches up, every acknowledged row once")
    // the limit that holds is the size's, inside; this only lifts the 300 s default above it
    @org.junit.jupiter.api.Timeout(value = 1, unit = java.util.concurrent.TimeUnit.DAYS)
    void aSlowSubscriberHoldsTheNodesMemoryToItsBound() {
        int rowsPerSecond = Integer.getInteger("tributary.p5.rowsPerSecond", 1000);
        int seconds = Integer.getInteger("tributary.p5.seconds", 20);
        // the node's start, the run, then the catch-up and the checks, each allowed as long again as the run
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(240 + 3L * seconds),
                () -> run(rowsPerSecond, seconds));
    }

    private void run(int rowsPerSecond, int seconds) throws Exception {
        int rowsPerWrite = Math.max(1, rowsPerSecond / WRITES_PER_SECOND);
        // RELIABILITY P5's slow consumer reads 100 LCRs a second, whatever the write rate
        double slowRate = Integer.getInteger("tributary.p5.slowPerSecond", 100);
        int metricsPort = TestNodes.freePort();
        System.out.printf("SlowConsumerIT: RELIABILITY P5 at %d rows/s (%d writers x %.1f writes/s x %d rows) for %d s, "
                + "the slow subscriber at %.0f LCRs/s, --queue-buffer-bytes %d%n", rowsPerSecond, WRITERS,
                (double) WRITES_PER_SECOND / WRITERS, rowsPerWrite, seconds, slowRate, QUEUE_BUFFER_BYTES);
        try (NodeProcess node = NodeProcess.start(dir.resolve("n1"), "--queue-buffer-bytes", Long.toString(QUEUE_BUFFER_BYTES),
                "--metrics-listen", "127.0.0.1:" + metricsPort);
                TributaryClient client = TributaryClient.builder().endpoints(node.endpoint()).build()) {
            TestNodes.await(() -> {
                try {
                    client.execute("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = "
                            + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
                    return true;
                } catch (RuntimeException notYet) {
                    return false;
                }
            }, Duration.ofSeconds(60), "the first generation");
            client.execute("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            client.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'p5cap', queue_name => 'p5q')");
            client.execute("CALL dbms_capture_adm.start_capture(capture_name => 'p5cap')");

            SlowSubscriber slow = new SlowSubscriber(slowRate);
            ManagedChannel channel = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
            DeliveryChecker keepingPace = new DeliveryChecker("pk", rowsPerWrite);
            UniqueWriters writers = UniqueWriters.pkCkVBatches(rowsPerWrite).paced((double) WRITES_PER_SECOND / WRITERS);
            Sampler sampler = new Sampler(metricsPort);
            try (ChangeConsumer fast = ChangeConsumer.builder(client).table("ks.t").start(StartPosition.earliest())
                    .handler(keepingPace::record).build()) {
                fast.start();
                ChangeStreamServiceGrpc.newStub(channel).subscribe(SubscribeRequest.newBuilder().setQueue("p5q").build(), slow);
                TestNodes.await(() -> sampler.subscribers() == 1, Duration.ofSeconds(30), "the slow subscription");
                sampler.start();
                for (int w = 0; w < WRITERS; w++) {
                    writers.start(w + 1, client);
                }
                Thread.sleep(seconds * 1000L); // the run's length is the scenario
                writers.close();
                long wrote = (long) writers.acked.size() * rowsPerWrite;
                long ended = System.nanoTime();
                System.out.printf("SlowConsumerIT: %d rows acknowledged in %d s (%.0f rows/s); the slow subscriber had %d; %s%n",
                        wrote, seconds, (double) wrote / seconds, slow.rows(), writers.history.summary());
                // the other consumer kept pace: all of it within seconds of the writes' end, while the slow one is far behind
                TestNodes.await(() -> keepingPace.hasAll(writers), Duration.ofSeconds(30),
                        () -> "the table's consumer to keep pace: " + keepingPace.problems(writers));
                double fastLag = (System.nanoTime() - ended) / 1e9;
                long slowHad = slow.rows();
                assertTrue(slowHad < wrote / 2, "the slow subscriber was behind (" + slowHad + " of " + wrote
                        + " rows): the run tested nothing");
                assertTrue(slow.failure() == null, "the slow subscription failed: " + slow.failure());

                slow.catchUp();
                TestNodes.await(() -> slow.hasAll(writers, rowsPerWrite) || slow.failure() != null, Duration.ofSeconds(120),
                        () -> "the slow subscriber to catch up: " + slow.rows() + " of " + wrote + " rows");
                sampler.stop();
                assertTrue(slow.failure() == null, "the slow subscription failed: " + slow.failure());
                keepingPace.verify(writers);
                slow.verify(writers, rowsPerWrite);
                System.out.printf("SlowConsumerIT: RELIABILITY P5 %d rows/s for %d s: queue buffer at most %d bytes (bound %d + "
                        + "none), node heap floor at most %d MB (bound %d MB; used at most %d MB), %d samples; the table's consumer had every row "
                        + "%.1f s after the writes ended, the slow subscriber then %d of %d rows%n", rowsPerSecond, seconds,
                        sampler.maxBuffered.get(), QUEUE_BUFFER_BYTES, sampler.heapFloor() >> 20, HEAP_BOUND >> 20, sampler.maxHeap.get() >> 20,
                        sampler.samples.get(), fastLag, slowHad, wrote);
                assertTrue(sampler.failure.get() == null, "the sampler failed: " + sampler.failure.get());
                assertTrue(sampler.samples.get() >= seconds, "sampled throughout: " + sampler.samples.get());
                assertTrue(sampler.maxBuffered.get() >= QUEUE_BUFFER_BYTES / 2, "the buffer came near its bound: the slow "
                        + "subscriber held it back (" + sampler.maxBuffered.get() + " bytes)");
                // a region is enqueued whole only if the buffer stays within its bound (an empty one takes any)
                assertTrue(sampler.maxBuffered.get() <= QUEUE_BUFFER_BYTES, "the queue's buffer stayed within "
                        + "--queue-buffer-bytes: " + sampler.maxBuffered.get() + " bytes");
                assertTrue(sampler.heapFloor() <= HEAP_BOUND, "the node's heap floor stayed under " + (HEAP_BOUND >> 20)
                        + " MB: " + (sampler.heapFloor() >> 20) + " MB");
            } finally {
                sampler.stop();
                channel.shutdownNow();
            }
        }
    }

    /**
     * A Subscribe call that asks for one batch at a time and handles it at {@code rate} LCRs a
     * second before asking for the next, until {@link #catchUp}; counts each row (pk, ck) it gets.
     */
    private static final class SlowSubscriber implements ClientResponseObserver<SubscribeRequest, LcrBatch> {
        private final double rate;
        private final Map<Long, Integer> times = new ConcurrentHashMap<>();
        private final AtomicReference<Throwable> failed = new AtomicReference<>();
        private final AtomicReference<ClientCallStreamObserver<SubscribeRequest>> call = new AtomicReference<>();
        private volatile boolean slow = true;

        SlowSubscriber(double rate) {
            this.rate = rate;
        }

        @Override
        public void beforeStart(ClientCallStreamObserver<SubscribeRequest> c) {
            c.disableAutoRequestWithInitial(1);
            call.set(c);
        }

        @Override
        public void onNext(LcrBatch batch) {
            int rows = 0;
            for (Lcr lcr : batch.getLcrsList()) {
                if (lcr.getLcr().equals("ROW")) {
                    long pk = 0;
                    long ck = 0;
                    for (NamedValue v : lcr.getNewValuesList()) {
                        if (v.getName().equals("pk")) {
                            pk = v.getValue().getInteger();
                        } else if (v.getName().equals("ck")) {
                            ck = v.getValue().getInteger();
                        }
                    }
                    times.merge(pk << 20 | ck, 1, Integer::sum);
                    rows++;
                }
            }
            if (slow && rows > 0) {
                // the consumer's own handling time: what makes it slow, not a wait for a condition
                java.util.concurrent.locks.LockSupport.parkNanos((long) (rows / rate * 1e9));
            }
            call.get().request(1);
        }

        @Override
        public void onError(Throwable t) {
            failed.set(t);
        }

        @Override
        public void onCompleted() {
            failed.compareAndSet(null, new IllegalStateException("the subscription ended"));
        }

        void catchUp() {
            slow = false;
            call.get().request(Integer.MAX_VALUE);
        }

        long rows() {
            return times.size();
        }

        Throwable failure() {
            return failed.get();
        }

        boolean hasAll(UniqueWriters w, int rowsPerWrite) {
            for (int pk : w.acked) {
                for (int ck = 0; ck < rowsPerWrite; ck++) {
                    if (!times.containsKey((long) pk << 20 | ck)) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** Every acknowledged row once, an unknown write's rows all or none, nothing refused or unwritten. */
        void verify(UniqueWriters w, int rowsPerWrite) {
            List<String> problems = new ArrayList<>();
            Map<Integer, Integer> rowsOf = new TreeMap<>();
            times.forEach((key, n) -> {
                int pk = (int) (key >> 20);
                if (n != 1) {
                    problems.add("row " + pk + "/" + (key & 0xFFFFF) + " delivered " + n + " times");
                }
                rowsOf.merge(pk, 1, Integer::sum);
            });
            rowsOf.forEach((pk, n) -> {
                if (!w.history.written(pk) || w.refused.contains(pk)) {
                    problems.add("write " + pk + " delivered but " + (w.refused.contains(pk) ? "refused" : "never written"));
                } else if (n != rowsPerWrite) {
                    problems.add("write " + pk + " delivered in part: " + n + " of " + rowsPerWrite + " rows");
                }
            });
            for (int pk : w.acked) {
                if (!rowsOf.containsKey(pk)) {
                    problems.add("acknowledged write " + pk + " never delivered");
                }
            }
            assertEquals(List.of(), problems.subList(0, Math.min(20, problems.size())), "the slow subscriber's delivery");
        }
    }

    /** Samples the node's queue buffer and heap from its Prometheus endpoint every 250 ms, keeping the largest. */
    private static final class Sampler {
        private static final Pattern BUFFERED = Pattern.compile("tributary_queue_buffered_bytes\\{[^}]*queue=\"p5q\"[^}]*} (\\S+)");
        private static final Pattern HEAP = Pattern.compile("jvm_memory_used_bytes\\{area=\"heap\"} (\\S+)");
        private static final Pattern SUBSCRIBERS = Pattern.compile(
                "tributary_queue_subscribers\\{[^}]*queue=\"p5q\"[^}]*} (\\S+)");
        private final int port;
        final AtomicLong maxBuffered = new AtomicLong();
        final AtomicLong maxHeap = new AtomicLong();
        final AtomicLong samples = new AtomicLong();
        final List<Long> heapUsed = java.util.Collections.synchronizedList(new ArrayList<>());
        final AtomicReference<RuntimeException> failure = new AtomicReference<>();
        private volatile Thread thread;

        Sampler(int port) {
            this.port = port;
        }

        String scrape() {
            try {
                java.net.HttpURLConnection c = (java.net.HttpURLConnection) java.net.URI.create("http://127.0.0.1:" + port
                        + "/metrics").toURL().openConnection();
                c.setConnectTimeout(2000);
                c.setReadTimeout(5000);
                try (var in = c.getInputStream()) {
                    return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                } finally {
                    c.disconnect();
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("the node's metrics on port " + port, e);
            }
        }

        private static long value(Pattern p, String text) {
            Matcher m = p.matcher(text);
            return m.find() ? (long) Double.parseDouble(m.group(1)) : -1;
        }

        /** The largest of the least heap used in each window of samples: the heap that outlives collections. */
        long heapFloor() {
            List<Long> all;
            synchronized (heapUsed) {
                all = new ArrayList<>(heapUsed);
            }
            long floor = 0;
            for (int i = 0; i + FLOOR_WINDOW_SAMPLES <= all.size(); i += FLOOR_WINDOW_SAMPLES) {
                floor = Math.max(floor, all.subList(i, i + FLOOR_WINDOW_SAMPLES).stream().mapToLong(Long::longValue).min()
                        .orElse(0));
            }
            return floor;
        }

        long subscribers() {
            return value(SUBSCRIBERS, scrape());
        }

        void start() {
            thread = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    String text;
                    try {
                        text = scrape();
                    } catch (RuntimeException e) {
                        failure.set(e);
                        return;
                    }
                    long buffered = value(BUFFERED, text);
                    long heap = value(HEAP, text);
                    if (buffered < 0 || heap < 0) {
                        failure.set(new IllegalStateException("no queue buffer or heap figure in the node's metrics"));
                        return;
                    }
                    maxBuffered.accumulateAndGet(buffered, Math::max);
                    maxHeap.accumulateAndGet(heap, Math::max);
                    heapUsed.add(heap);
                    samples.incrementAndGet();
                    try {
                        Thread.sleep(250); // the sampling period
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "p5-sampler");
            thread.start();
        }

        void stop() throws InterruptedException {
            Thread t = thread;
            if (t != null) {
                t.interrupt();
                t.join(5000);
            }
        }
    }
}
