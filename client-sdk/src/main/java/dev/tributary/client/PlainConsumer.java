package dev.tributary.client;

import com.google.protobuf.ByteString;
import dev.tributary.client.StreamGate.Status;
import dev.tributary.client.errors.TributaryException;
import dev.tributary.client.internal.Endpoints;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.ListStreamsRequest;
import dev.tributary.protocol.v1.ListStreamsResponse;
import dev.tributary.protocol.v1.NodeInfo;
import dev.tributary.protocol.v1.ReadStreamsRequest;
import dev.tributary.protocol.v1.StreamOpen;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link ChangeConsumer} on its own, or one session of a group member: lists the streams,
 * reads them from every live node (a {@link NodeReader} each), releases what all nodes vouch for
 * (see {@link ChangeConsumer} for how) and hands it to the workers. One event loop thread owns
 * the reading state; the pure decisions are {@link StreamMerge}, {@link StreamGate} and
 * {@link StreamHandoff}.
 */
final class PlainConsumer extends Consumption {
    private static final int MAX_EVENTS_PER_TURN = 4096;

    private final Endpoints endpoints;
    private final ReadSettings settings;
    private final StartPosition startPosition;
    private final ChangeHandler handler;
    private final PositionStore store;
    private final StreamAssignment assignment;
    private final ExecutorService[] workers;
    private final NodeReader.Setup nodeSetup;
    private final LinkedBlockingQueue<Runnable> events = new LinkedBlockingQueue<>();
    private final AtomicLong duplicates = new AtomicLong();
    private Thread loop;
    /** Every LCR of the streams read below this time has been handled (see {@link #lowWatermarkMicros()}). */
    private volatile long lowWatermark = Long.MIN_VALUE;
    private volatile long listingSentMicros = Long.MIN_VALUE;
    /** The largest --max-write-skew a listing reported (ms); -1 before the first listing. */
    private final AtomicLong maxWriteSkewMillis = new AtomicLong(-1);

    // --- state of the event loop thread only
    private final Map<String, NodeReader> nodes = new LinkedHashMap<>();
    private final Map<StreamKey, Run> runs = new LinkedHashMap<>();
    /**
     * Nodes the last listing showed with tokens but not live, and not read yet: they may hold LCRs
     * of any stream below the others' safe times, so nothing is released until they are read.
     */
    private final Set<String> unreadDown = new HashSet<>();
    /** Nodes that left the cluster (decommissioned: their LCRs were handed to the others first). */
    private final Set<String> departed = new HashSet<>();
    private Map<StreamKey, StreamDescriptor> descriptors = Map.of();
    private long startMicros;
    private long newestSetMillis;
    private boolean refreshWanted;
    private long nextRefreshNanos;
    private long listedAtMicros = Long.MIN_VALUE;
    /** A stream's delivery moved: gates, done streams and the watermark are looked at once this turn. */
    private boolean progressWanted;

    PlainConsumer(ReadSettings settings, StreamAssignment assignment, PositionStore store, StartPosition start,
            ChangeHandler handler) {
        this.endpoints = settings.endpoints();
        this.settings = settings;
        this.startPosition = start;
        this.handler = handler;
        this.store = store;
        this.assignment = assignment;
        this.nodeSetup = new NodeReader.Setup(readHeader(), Backoff.READS, events::add, new NodeEvents());
        this.workers = new ExecutorService[settings.workers()];
        for (int i = 0; i < workers.length; i++) {
            int n = i;
            workers[i] = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "tributary-consumer-worker-" + n);
                t.setDaemon(true);
                return t;
            });
        }
    }

    @Override
    synchronized void start() {
        if (loop != null) {
            throw new IllegalStateException("the consumer was already started");
        }
        startMicros = startPosition.startMicros(Instant.now());
        ListStreamsResponse first = listStreams();
        maxWriteSkewMillis.accumulateAndGet(first.getMaxWriteSkewMillis(), Math::max); // known once start returns
        running = true;
        loop = new Thread(() -> runLoop(first), "tributary-consumer");
        loop.setDaemon(true);
        loop.start();
    }

    @Override
    long duplicatesDropped() {
        return duplicates.get();
    }

    @Override
    public void close() {
        running = false;
        events.add(() -> { });
        Thread t;
        synchronized (this) {
            t = loop;
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else if (t == null) {
            shutdownWorkers();
            stopped.countDown();
        }
    }

    /**
     * The time (microseconds) below which every LCR of the streams this consumer reads has been
     * handled: the lowest delivered-through time over its streams not yet done (a stream waiting
     * for its parents has nothing below its set's timestamp), and no later than the last listing
     * was asked for, since a stream set not listed yet starts after that. It only rises: delivered
     * times only rise, and a set first seen in a listing starts after the listing before it. Not
     * clamped to its highest value on purpose — over-reporting would let retention drop LCRs
     * still being read. {@link Long#MIN_VALUE} before the streams are known. Group members commit it.
     */
    @Override
    long lowWatermarkMicros() {
        return lowWatermark;
    }

    /**
     * The largest of the nodes' skews seen: a listing is answered by one node, and the bound a
     * reader derives from it must hold for the LCRs of every node.
     */
    @Override
    long maxWriteSkewMillis() {
        return maxWriteSkewMillis.get();
    }

    /** Taken on the event loop; "not running" when it stopped. */
    @Override
    String describe(Duration timeout) {
        CompletableFuture<String> f = new CompletableFuture<>();
        events.add(() -> f.complete(stateNow()));
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return running ? "the event loop did not answer within " + timeout : "not running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (ExecutionException e) {
            return "failed: " + e.getCause();
        }
    }

    private String stateNow() {
        StringBuilder b = new StringBuilder("nodes ").append(nodes.keySet()).append(", unread down ").append(unreadDown)
                .append(", departed ").append(departed).append(", listed at ").append(listedAtMicros)
                .append(", low watermark ").append(lowWatermark);
        for (NodeReader n : nodes.values()) {
            b.append("\n  ").append(n.describe());
        }
        for (Run run : runs.values()) {
            b.append("\n  stream ").append(run.key).append(' ').append(run.status).append(" opened ")
                    .append(run.descriptor.openedMillis()).append(" closed ").append(run.descriptor.closedMillis())
                    .append(" released ").append(run.released).append(" delivered ").append(run.delivered)
                    .append(" in flight ").append(run.inFlight);
            for (StreamRead r : run.status == Status.DONE ? List.<StreamRead>of() : run.reads.values()) { // done: reads cancelled
                b.append("\n    ").append(r.node.hostId).append(" safe ").append(r.safe).append(r.reported ? "" : " unreported")
                        .append(r.failed ? " failing" : "").append(" buffered ").append(r.buffer.size());
            }
        }
        return b.toString();
    }

    /** Looks again at the streams waiting for parents (another member's committed progress moved). */
    @Override
    void recheckGates() {
        events.add(() -> progressWanted = true);
    }

    // ------------------------------------------------------------------ the event loop

    private ListStreamsResponse listStreams() {
        Instant now = Instant.now();
        listingSentMicros = Math.multiplyExact(now.getEpochSecond(), 1_000_000L) + now.getNano() / 1000;
        ListStreamsRequest.Builder req = ListStreamsRequest.newBuilder();
        if (settings.table() != null) {
            req.setTable(settings.table());
        } else {
            req.setQueue(settings.queue());
        }
        return endpoints.call(ep -> ChangeStreamServiceGrpc.newBlockingStub(ep.channel())
                .withDeadlineAfter(endpoints.requestTimeout().toNanos(), TimeUnit.NANOSECONDS)
                .listStreams(req.build()), null);
    }

    private void runLoop(ListStreamsResponse first) {
        try {
            apply(first);
            while (running) {
                // what is queued first, then progress() once: it walks every stream, and after each
                // delivered batch that was most of the consumer's time with thousands of streams
                Runnable e = events.poll(100, TimeUnit.MILLISECONDS);
                for (int n = 0; e != null; n++) {
                    e.run();
                    e = running && n < MAX_EVENTS_PER_TURN ? events.poll() : null;
                }
                if (progressWanted) {
                    progressWanted = false;
                    progress();
                }
                long now = System.nanoTime();
                if (running && (refreshWanted || now >= nextRefreshNanos)) {
                    refreshWanted = false;
                    try {
                        apply(listStreams());
                    } catch (TributaryException ex) {
                        nextRefreshNanos = now + settings.refreshInterval().toNanos(); // try again later; reading goes on
                    }
                }
                retryFailedReads(now);
                for (NodeReader n : nodes.values()) {
                    n.flush(); // the opens and closes of this turn, one request per node
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            fail(e);
        } finally {
            running = false;
            for (Run r : runs.values()) {
                r.cancelReads();
            }
            shutdownWorkers();
            for (NodeReader n : nodes.values()) {
                n.shutdown();
            }
            stopped.countDown();
        }
    }

    private void shutdownWorkers() {
        for (ExecutorService w : workers) {
            w.shutdown();
        }
        for (ExecutorService w : workers) {
            try {
                if (!w.awaitTermination(5, TimeUnit.SECONDS)) {
                    w.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                w.shutdownNow();
            }
        }
    }

    private void fail(Throwable t) {
        failure.compareAndSet(null, t);
        running = false;
        events.add(() -> { });
    }

    /** Takes in a (new) listing: nodes, new streams, newly known closing times. */
    private void apply(ListStreamsResponse r) {
        nextRefreshNanos = System.nanoTime() + settings.refreshInterval().toNanos();
        maxWriteSkewMillis.accumulateAndGet(r.getMaxWriteSkewMillis(), Math::max);
        listedAtMicros = Math.max(listedAtMicros, listingSentMicros);
        Set<String> listed = new HashSet<>();
        unreadDown.clear();
        for (NodeInfo n : r.getNodesList()) {
            listed.add(n.getHostId());
            if (n.getLive() && !n.getEndpoint().isEmpty()) {
                addNode(n.getHostId(), n.getEndpoint());
            } else if (!nodes.containsKey(n.getHostId()) && !departed.contains(n.getHostId())) {
                unreadDown.add(n.getHostId()); // down, or joining and not registered yet
            }
        }
        for (String hostId : List.copyOf(nodes.keySet())) {
            if (!listed.contains(hostId)) {
                removeDeparted(hostId); // a listing names every node holding tokens
            }
        }
        descriptors = StreamLineages.describe(r);
        for (Map.Entry<StreamKey, StreamDescriptor> e : descriptors.entrySet()) {
            StreamDescriptor d = e.getValue();
            newestSetMillis = Math.max(newestSetMillis, d.openedMillis() == Long.MIN_VALUE ? 0 : d.openedMillis());
            Run run = runs.get(e.getKey());
            if (run == null) {
                if (!assignment.assigned(d)) {
                    continue;
                }
                run = new Run(e.getKey(), d);
                runs.put(e.getKey(), run);
                if (d.closedMillis() != Long.MAX_VALUE && d.closedMillis() * 1000 <= run.delivered) {
                    run.status = run.status.to(Status.DONE); // closed before where we start: nothing of it to deliver
                }
            } else {
                run.descriptor = d; // its closing time may have become known
            }
        }
        progress();
    }

    /** Opens the streams whose parents are delivered far enough, and finishes completed ones. */
    private void progress() {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Run run : runs.values()) {
                if (run.status == Status.WAITING && gateOpen(run)) {
                    run.status = run.status.to(Status.ACTIVE);
                    for (NodeReader n : nodes.values()) {
                        run.open(n);
                    }
                    changed = true;
                } else if (run.status == Status.ACTIVE && run.complete()) {
                    run.cancelReads();
                    run.status = run.status.to(Status.DONE);
                    changed = true;
                }
            }
        }
        updateLowWatermark();
    }

    private void updateLowWatermark() {
        lowWatermark = StreamMerge.lowWatermark(listedAtMicros, runs.values());
    }

    private boolean gateOpen(Run child) {
        List<StreamGate.Parent> parents = new ArrayList<>();
        for (ByteBuffer p : child.descriptor.parents()) {
            StreamKey pk = StreamKey.of(p);
            Run parent = runs.get(pk);
            StreamDescriptor d = descriptors.get(pk);
            // a parent another member reads: as far as the group's committed positions say
            parents.add(parent != null ? StreamGate.Parent.readHere(parent.status, parent.delivered)
                    : StreamGate.Parent.elsewhere(d != null, store.deliveredThrough(p),
                            d == null ? Long.MAX_VALUE : d.closedMillis()));
        }
        return StreamGate.open(child.descriptor.openedMillis(), parents, startMicros);
    }

    private void addNode(String hostId, String endpoint) {
        if (departed.contains(hostId)) {
            return; // a node's membership view from before it left
        }
        unreadDown.remove(hostId);
        NodeReader n = nodes.get(hostId);
        if (n != null) {
            if (!n.endpoint().equals(endpoint)) {
                n.moveTo(endpoint, settings.channels().apply(endpoint));
            }
            return;
        }
        n = new NodeReader(hostId, endpoint, settings.channels().apply(endpoint), nodeSetup);
        nodes.put(hostId, n);
        for (Run run : runs.values()) {
            if (run.status == Status.ACTIVE) {
                run.open(n);
            }
        }
    }

    /**
     * A node left the cluster. Before leaving it handed its LCRs to the nodes now owning its
     * tokens, at their original positions — below those nodes' safe times, so their open reads
     * will not send them. Every active stream therefore reads the other nodes again from just
     * after the last LCR it released: what was released is exactly what lies at or before it.
     */
    private void removeDeparted(String hostId) {
        departed.add(hostId);
        nodes.remove(hostId).shutdown();
        for (Run run : runs.values()) {
            run.reads.remove(hostId);
        }
        for (NodeReader other : nodes.values()) {
            other.rewindAll(r -> runs.get(r.key).rewind(r));
        }
    }

    /** What every ReadStreams call of this consumer starts with. */
    private ReadStreamsRequest readHeader() {
        ReadStreamsRequest.Builder h = ReadStreamsRequest.newBuilder().setMaxBatch(settings.maxBatch());
        return (settings.table() != null ? h.setTable(settings.table()) : h.setQueue(settings.queue())).build();
    }

    /** Takes the nodes' messages in on the loop thread. */
    private final class NodeEvents implements NodeReader.Listener {
        @Override
        public void member(String hostId, String endpoint) {
            addNode(hostId, endpoint);
        }

        @Override
        public void received(Set<StreamRead> touched, long newestStreamSetMillis) {
            if (newestStreamSetMillis > newestSetMillis) {
                refreshWanted = true;
            }
            for (StreamRead r : touched) {
                Run run = runs.get(r.key);
                if (run.status == Status.ACTIVE) {
                    run.release();
                }
            }
            for (NodeReader n : nodes.values()) {
                n.requestMore(); // a release here may have made room in another node's buffers
            }
        }

        @Override
        public void refused(RuntimeException e) {
            fail(e); // retrying will not help
        }
    }

    private void retryFailedReads(long now) {
        for (NodeReader n : nodes.values()) {
            n.retryIfDue(now);
        }
    }

    /** A stream: its reads from every node, and how far it is released and delivered. */
    private final class Run implements StreamMerge.StreamProgress {
        final StreamKey key;
        StreamDescriptor descriptor;
        final int worker;
        final Map<String, StreamRead> reads = new HashMap<>();
        /** Where its reading starts on a node nothing was received from yet. */
        final StreamOpen origin;
        Status status = Status.WAITING;
        /** Every LCR below this time has been handed to the worker. */
        long released;
        /** Every LCR below this time has been handled. */
        long delivered;
        int inFlight;
        HeldLcr lastReleased;
        /** Touched only on the stream's worker. */
        final StreamHandoff<HeldLcr> handoff = new StreamHandoff<>(new StreamHandoff.Lcrs<>() {
            @Override
            public LcrPosition handle(HeldLcr h) throws Exception {
                ChangeRecord r = Lcrs.toRecord(h.lcr());
                handler.handle(r);
                PlainConsumer.this.delivered.incrementAndGet();
                return r.position();
            }

            @Override
            public long micros(HeldLcr h) {
                return h.micros();
            }
        });

        Run(StreamKey key, StreamDescriptor d) {
            this.key = key;
            this.descriptor = d;
            this.worker = workerOf(d);
            LcrPosition resumeAfter = store.load(d.streamId()).orElse(null);
            long through = store.deliveredThrough(d.streamId());
            long from;
            StreamOpen.Builder o = StreamOpen.newBuilder().setStreamId(ByteString.copyFrom(d.streamId().duplicate()));
            if (resumeAfter != null) {
                from = HeldLcr.micros(resumeAfter.time());
                o.setAfter(Lcrs.toWire(resumeAfter));
            } else {
                from = Math.max(startMicros, through); // handled through a time without an LCR yet: go on from there
                if (from > 0) {
                    o.setFromTimeMicros(from);
                }
            }
            this.origin = o.build();
            this.released = from;
            this.delivered = Math.max(from, through);
        }

        @Override
        public boolean done() {
            return status == Status.DONE;
        }

        @Override
        public boolean waiting() {
            return status == Status.WAITING;
        }

        @Override
        public long deliveredMicros() {
            return delivered;
        }

        @Override
        public long openedMillis() {
            return descriptor.openedMillis();
        }

        boolean complete() {
            return StreamGate.complete(descriptor.closedMillis(), inFlight, delivered);
        }

        void open(NodeReader n) {
            StreamRead r = reads.computeIfAbsent(n.hostId, h -> new StreamRead(key, origin, n));
            n.open(r);
        }

        /** Forgets what {@code r} holds, so that it is read again from just after the last LCR released. */
        void rewind(StreamRead r) {
            r.rewind(lastReleased == null ? null : lastReleased.lcr().getPosition());
        }

        /** Hands the worker every LCR below the lowest safe time of all nodes, merged by position. */
        void release() {
            long bound = Long.MAX_VALUE;
            for (NodeReader n : nodes.values()) {
                StreamRead r = reads.get(n.hostId);
                if (r == null || !r.reported) {
                    return; // a node not heard from yet may hold any LCR of this stream
                }
                bound = Math.min(bound, r.safe);
            }
            if (!unreadDown.isEmpty()) {
                return;
            }
            if (bound <= released) {
                return;
            }
            List<ArrayDeque<HeldLcr>> buffers = new ArrayList<>(reads.size());
            for (StreamRead r : reads.values()) {
                buffers.add(r.buffer);
            }
            StreamMerge.Released<HeldLcr> taken = StreamMerge.release(buffers, bound, lastReleased, HeldLcr::micros);
            List<HeldLcr> out = taken.lcrs();
            lastReleased = taken.last();
            duplicates.addAndGet(taken.duplicates());
            released = bound;
            inFlight++;
            long through = bound;
            workers[worker].execute(() -> deliver(this, out, through));
        }

        void cancelReads() {
            for (StreamRead r : reads.values()) {
                r.node.close(r);
            }
        }
    }

    /** On the stream's worker: hands the LCRs to the handler, records how far it got, then tells the loop. */
    private void deliver(Run run, List<HeldLcr> lcrs, long through) {
        StreamHandoff.Outcome o = run.handoff.deliver(lcrs, through, () -> running);
        if (o.handled() != null) {
            try {
                store.delivered(run.descriptor.streamId(), o.handled().last(), o.handled().throughMicros());
            } catch (RuntimeException e) {
                fail(e);
                return;
            }
        }
        if (o.failure() != null) {
            fail(o.failure());
        }
        if (o.complete()) {
            events.add(() -> {
                run.inFlight--;
                run.delivered = Math.max(run.delivered, through);
                progressWanted = true;
            });
        }
    }

    /** A worker by token range, so neighbouring keys share a worker across stream sets. */
    private int workerOf(StreamDescriptor d) {
        if (workers.length == 1 || StreamLineages.SCHEMA.equals(d.lineage())) {
            return 0; // (and 2^64 / 1 does not fit a long)
        }
        long unsigned = d.rangeEnd() ^ Long.MIN_VALUE;
        return (int) Long.divideUnsigned(unsigned, Long.divideUnsigned(-1L, workers.length) + 1);
    }
}
