package dev.tributary.client;

import dev.tributary.client.StreamGate.Status;
import dev.tributary.client.errors.TributaryException;
import dev.tributary.client.internal.Endpoints;
import dev.tributary.client.internal.Lcrs;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.ListStreamsRequest;
import dev.tributary.protocol.v1.ListStreamsResponse;
import dev.tributary.protocol.v1.NodeInfo;
import dev.tributary.protocol.v1.ReadStreamsRequest;
import dev.tributary.protocol.v1.StreamChunk;
import dev.tributary.protocol.v1.StreamOpen;
import dev.tributary.protocol.v1.StreamsBatch;
import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Follows a table's CDC log (or a queue) across generations and tablet stream sets, delivering
 * every LCR once, in position order per stream, to a {@link ChangeHandler}.
 *
 * <pre>{@code
 * try (ChangeConsumer c = ChangeConsumer.builder(client).table("ks.t").start(StartPosition.latest())
 *         .handler(r -> System.out.println(r.toJson())).workers(4).build()) {
 *     c.start();
 *     ...
 * }
 * }</pre>
 *
 * <p>How it reads (docs/CONSUMERS.md): it lists the log's streams (ListStreams) and the nodes,
 * and reads each stream from every live node, all of its streams on one {@code ReadStreams} call
 * per node. A node sends only LCRs below its safe time and tells it in every message (with the
 * streams it is still behind on, for which it tells how far each is complete); the consumer merges a stream's LCRs
 * from all nodes by position and releases those below the lowest safe time of the nodes, so per
 * stream nothing is skipped and the order is exact. A stream of a newer set starts being delivered
 * once each of its parents (the streams of the set before whose token ranges overlap it) is
 * delivered up to the new set's timestamp — the switch follows the safe times, with no fixed
 * window. Nodes that appear in a node's membership list are added before anything past that
 * node's safe time is released. Streams go to workers by token range; a child waits for its
 * parents, so a partition's changes never race across workers at a switch.
 *
 * <p>A node that is down holds back the streams (it may hold LCRs of any of them): delivery waits
 * until it is back, rather than skip what it has.
 *
 * <p>With {@link Builder#group(String)} the consumer is a member of a consumer group: it reads its
 * share of the token ring, resumes from the group's committed positions and commits as it goes
 * (docs/CONSUMERS.md, "Consumer groups"); delivery is then at-least-once — after a rebalance or a
 * member's crash some LCRs come again, each with its position to dedupe by. Thread-safe.
 */
public final class ChangeConsumer implements AutoCloseable {
    private static final int BUFFER_LCRS = 2048;
    private static final int MAX_EVENTS_PER_TURN = 4096;
    private static final long MAX_BACKOFF_MILLIS = 5000;

    private final Endpoints endpoints;
    private final String table;
    private final String queue;
    private final StartPosition startPosition;
    private final ChangeHandler handler;
    private final PositionStore store;
    private final StreamAssignment assignment;
    private final Function<String, ManagedChannel> channels;
    private final int maxBatch;
    private final Duration refreshInterval;
    private final ExecutorService[] workers;
    private final LinkedBlockingQueue<Runnable> events = new LinkedBlockingQueue<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    private volatile boolean running;
    private Thread loop;
    /** Set when this consumer is a group member: it then only delegates (its sessions do the reading). */
    private final GroupMember group;
    /** Every LCR of the streams read below this time has been handled (see {@link #lowWatermarkMicros()}). */
    private volatile long lowWatermark = Long.MIN_VALUE;
    private volatile long listingSentMicros = Long.MIN_VALUE;

    // --- state of the event loop thread only
    private final Map<String, Node> nodes = new LinkedHashMap<>();
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

    /** A group member: its sessions are plain consumers built from a copy of the builder. */
    private ChangeConsumer(Builder b, GroupSettings settings) {
        this.endpoints = b.client.endpointsInternal();
        this.table = b.table;
        this.queue = b.queue;
        this.startPosition = b.start;
        this.handler = b.handler;
        this.store = b.store;
        this.assignment = b.assignment;
        this.channels = b.channels;
        this.maxBatch = b.maxBatch;
        this.refreshInterval = b.refreshInterval;
        this.workers = new ExecutorService[0];
        Builder copy = b.copy();
        this.group = new GroupMember(endpoints, settings, b.table, b.queue, b.start, b.handler,
                (share, store, start, handler) -> new ChangeConsumer(copy, share, store, start, handler));
    }

    private ChangeConsumer(Builder b, StreamAssignment assignment, PositionStore store, StartPosition start,
            ChangeHandler handler) {
        this.group = null;
        this.endpoints = b.client.endpointsInternal();
        this.table = b.table;
        this.queue = b.queue;
        this.startPosition = start;
        this.handler = handler;
        this.store = store;
        this.assignment = assignment;
        this.channels = b.channels;
        this.maxBatch = b.maxBatch;
        this.refreshInterval = b.refreshInterval;
        this.workers = new ExecutorService[b.workers];
        for (int i = 0; i < workers.length; i++) {
            int n = i;
            workers[i] = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "tributary-consumer-worker-" + n);
                t.setDaemon(true);
                return t;
            });
        }
    }

    public static Builder builder(TributaryClient client) {
        return new Builder(client);
    }

    /**
     * Lists the streams and starts reading; returns once reading has begun.
     *
     * @throws TributaryException when the table or queue cannot be listed (e.g. it does not exist)
     */
    public synchronized void start() {
        if (group != null) {
            group.start();
            return;
        }
        if (loop != null) {
            throw new IllegalStateException("the consumer was already started");
        }
        startMicros = startPosition.startMicros(Instant.now());
        ListStreamsResponse first = listStreams();
        running = true;
        loop = new Thread(() -> runLoop(first), "tributary-consumer");
        loop.setDaemon(true);
        loop.start();
    }

    /** The failure that stopped the consumer (a handler's exception, or a refused request). */
    public Optional<Throwable> failure() {
        return group != null ? group.failure() : Optional.ofNullable(failure.get());
    }

    /** How many LCRs the handler has taken. */
    public long delivered() {
        return group != null ? group.delivered() : delivered.get();
    }

    /** LCRs that arrived from two nodes at the same position and were delivered once. */
    public long duplicatesDropped() {
        return group != null ? group.duplicatesDropped() : duplicates.get();
    }

    public boolean isRunning() {
        return group != null ? group.isRunning() : running;
    }

    /**
     * Where this consumer stands in its consumer group; empty when it is not in one, or between a
     * lost lease and joining again.
     */
    public Optional<GroupMembership> membership() {
        return group != null ? group.membership() : Optional.empty();
    }

    /** Waits until the consumer stopped (closed or failed); false on timeout. */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return group != null ? group.awaitTermination(timeout) : stopped.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Stops reading and waits a few seconds for the handler calls in progress. In a group it then
     * commits what was handled and leaves the group. Idempotent.
     */
    @Override
    public void close() {
        if (group != null) {
            group.close();
            return;
        }
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
    long lowWatermarkMicros() {
        return lowWatermark;
    }

    /**
     * The reading state, for diagnostics: per node known, and per stream its status, how far it
     * is released and delivered, and per node its safe time, buffer and whether it is failing.
     * Taken on the event loop; "not running" when it stopped.
     */
    String describe(Duration timeout) {
        if (group != null) {
            return group.describe(timeout);
        }
        CompletableFuture<String> f = new CompletableFuture<>();
        events.add(() -> f.complete(stateNow()));
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return running ? "the event loop did not answer within " + timeout : "not running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (java.util.concurrent.ExecutionException e) {
            return "failed: " + e.getCause();
        }
    }

    private String stateNow() {
        StringBuilder b = new StringBuilder("nodes ").append(nodes.keySet()).append(", unread down ").append(unreadDown)
                .append(", departed ").append(departed).append(", listed at ").append(listedAtMicros)
                .append(", low watermark ").append(lowWatermark);
        for (Node n : nodes.values()) {
            b.append("\n  node ").append(n.hostId).append(n.reads.failed ? " failing" : "").append(" streams ")
                    .append(n.reads.reads.size()).append(" outstanding ").append(n.reads.outstanding).append(" paused ")
                    .append(n.reads.paused.size());
        }
        for (Run run : runs.values()) {
            b.append("\n  stream ").append(run.key).append(' ').append(run.status).append(" opened ")
                    .append(run.descriptor.openedMillis()).append(" closed ").append(run.descriptor.closedMillis())
                    .append(" released ").append(run.released).append(" delivered ").append(run.delivered)
                    .append(" in flight ").append(run.inFlight);
            for (Read r : run.status == Status.DONE ? List.<Read>of() : run.reads.values()) { // done: reads cancelled
                b.append("\n    ").append(r.node.hostId).append(" safe ").append(r.safe).append(r.reported ? "" : " unreported")
                        .append(r.failed ? " failing" : "").append(" buffered ").append(r.buffer.size());
            }
        }
        return b.toString();
    }

    /** Looks again at the streams waiting for parents (another member's committed progress moved). */
    void recheckGates() {
        events.add(() -> progressWanted = true);
    }

    /** Tests: a group member behaves as a process that died (no heartbeat, commit or Leave again). */
    void crashForTest() {
        if (group == null) {
            throw new IllegalStateException("not a consumer group member");
        }
        group.crashForTest();
    }

    // ------------------------------------------------------------------ the event loop

    private ListStreamsResponse listStreams() {
        Instant now = Instant.now();
        listingSentMicros = Math.multiplyExact(now.getEpochSecond(), 1_000_000L) + now.getNano() / 1000;
        ListStreamsRequest.Builder req = ListStreamsRequest.newBuilder();
        if (table != null) {
            req.setTable(table);
        } else {
            req.setQueue(queue);
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
                        nextRefreshNanos = now + refreshInterval.toNanos(); // try again later; reading goes on
                    }
                }
                retryFailedReads(now);
                for (Node n : nodes.values()) {
                    n.reads.flush(); // the opens and closes of this turn, one request per node
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
            for (Node n : nodes.values()) {
                n.reads.cancel();
                n.channel.shutdownNow();
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
        nextRefreshNanos = System.nanoTime() + refreshInterval.toNanos();
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
                    for (Node n : nodes.values()) {
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
        Node n = nodes.get(hostId);
        if (n != null) {
            if (!n.endpoint.equals(endpoint)) {
                n.channel.shutdownNow();
                n.endpoint = endpoint;
                n.channel = channels.apply(endpoint);
            }
            return;
        }
        n = new Node(hostId, endpoint, channels.apply(endpoint));
        n.reads = new NodeReads(n);
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
        Node n = nodes.remove(hostId);
        n.reads.cancel();
        n.channel.shutdownNow();
        for (Run run : runs.values()) {
            run.reads.remove(hostId);
        }
        for (Node other : nodes.values()) {
            other.reads.rewindAll();
        }
    }

    private void retryFailedReads(long now) {
        for (Node n : nodes.values()) {
            n.reads.retryIfDue(now);
        }
    }

    private static final class Node {
        final String hostId;
        String endpoint;
        ManagedChannel channel;
        NodeReads reads;

        Node(String hostId, String endpoint, ManagedChannel channel) {
            this.hostId = hostId;
            this.endpoint = endpoint;
            this.channel = channel;
        }
    }

    /** An LCR held for merging, with its position decoded once. */
    private record Held(Lcr lcr, long micros, long lsb, int seq) implements Comparable<Held> {
        static Held of(Lcr l) {
            UUID t = UUID.fromString(l.getPosition().getTime());
            long micros = Math.floorDiv(t.timestamp() - 0x01B21DD213814000L, 10);
            return new Held(l, micros, t.getLeastSignificantBits(), l.getPosition().getBatchSeqNo());
        }

        @Override
        public int compareTo(Held o) {
            int c = Long.compare(micros, o.micros);
            if (c == 0) {
                c = Long.compareUnsigned(lsb, o.lsb);
            }
            return c != 0 ? c : Integer.compareUnsigned(seq, o.seq);
        }
    }

    /** One stream read from one node. Touched only on the loop thread. */
    private final class Read {
        final Run run;
        final Node node;
        final ArrayDeque<Held> buffer = new ArrayDeque<>();
        long safe = Long.MIN_VALUE;
        boolean reported;
        dev.tributary.protocol.v1.LcrPosition lastReceived;
        /** Its node's call failed: nothing comes until the retry reopens it (with every stream of that node). */
        boolean failed;
        /** The seq of its open on the node's current call. */
        long openSeq;

        Read(Run run, Node node) {
            this.run = run;
            this.node = node;
        }
    }

    /**
     * The one ReadStreams call to a node that carries every stream this consumer reads there:
     * opens and closes streams on it, routes each chunk to its Read, and applies a message's
     * node-wide safe time to the Reads it covers. Touched only on the loop thread.
     */
    private final class NodeReads {
        final Node node;
        final Map<com.google.protobuf.ByteString, Read> reads = new HashMap<>();
        /**
         * Reads closed on the call because their buffer filled (a stream far ahead on this node,
         * waiting for another node's safe time); reopened after their last LCR once it drains.
         * Per stream, not per call: pausing the whole call could deadlock two nodes each waiting
         * on a stream the other has paused.
         */
        final Set<Read> paused = new HashSet<>();
        ClientCallStreamObserver<ReadStreamsRequest> call;
        ReadStreamsRequest.Builder unsent;
        int attempt;
        long seq;
        int outstanding;
        boolean failed;
        long retryAtNanos;
        long backoffMillis = 200;

        NodeReads(Node node) {
            this.node = node;
        }

        void open(Read r) {
            reads.put(r.run.wireId, r);
            r.failed = failed;
            if (!failed) {
                connect();
                r.openSeq = ++seq;
                unsent().addOpen(r.run.openOf(r).setSeq(r.openSeq));
            }
        }

        void close(Read r) {
            paused.remove(r);
            if (reads.remove(r.run.wireId, r)) {
                if (unsent != null) {
                    for (int i = 0; i < unsent.getOpenCount(); i++) {
                        if (unsent.getOpen(i).getStreamId().equals(r.run.wireId)) {
                            unsent.removeOpen(i); // not sent yet: a close in the same request would come before it
                            return;
                        }
                    }
                }
                if (call != null) {
                    unsent().addClose(r.run.wireId);
                }
            }
        }

        void flush() {
            if (call != null && unsent != null) {
                call.onNext(unsent.build());
            }
            unsent = null;
        }

        void cancel() {
            if (call != null) {
                call.cancel("the consumer is closing", null);
            }
            call = null;
            attempt++;
        }

        private ReadStreamsRequest.Builder unsent() {
            if (unsent == null) {
                unsent = ReadStreamsRequest.newBuilder();
            }
            return unsent;
        }

        private void connect() {
            if (call != null) {
                return;
            }
            int a = ++attempt;
            seq = 0;
            ReadStreamsRequest.Builder first = unsent().setMaxBatch(maxBatch);
            if (table != null) {
                first.setTable(table);
            } else {
                first.setQueue(queue);
            }
            ChangeStreamServiceGrpc.newStub(node.channel).readStreams(
                    new ClientResponseObserver<ReadStreamsRequest, StreamsBatch>() {
                        @Override
                        public void beforeStart(ClientCallStreamObserver<ReadStreamsRequest> s) {
                            call = s;
                            s.disableAutoRequestWithInitial(1);
                            outstanding = 1;
                        }

                        @Override
                        public void onNext(StreamsBatch b) {
                            events.add(() -> received(a, b));
                        }

                        @Override
                        public void onError(Throwable t) {
                            events.add(() -> failed(a, t));
                        }

                        @Override
                        public void onCompleted() {
                            events.add(() -> failed(a, null));
                        }
                    });
        }

        void failed(int a, Throwable t) {
            if (a != attempt) {
                return;
            }
            if (t instanceof io.grpc.StatusRuntimeException sre && sre.getStatus().getCode() != io.grpc.Status.Code.UNAVAILABLE
                    && sre.getStatus().getCode() != io.grpc.Status.Code.CANCELLED
                    && sre.getStatus().getCode() != io.grpc.Status.Code.UNKNOWN
                    && sre.getStatus().getCode() != io.grpc.Status.Code.DEADLINE_EXCEEDED) {
                fail(dev.tributary.client.internal.ErrorMapper.map(sre, node.endpoint, null)); // refused: retrying will not help
                return;
            }
            // the node is down or restarting: what was received stays valid (a prefix), go on after it later
            call = null;
            unsent = null;
            failed = true;
            for (Read r : reads.values()) {
                r.failed = true;
            }
            retryAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoffMillis);
            backoffMillis = Math.min(MAX_BACKOFF_MILLIS, backoffMillis * 2);
        }

        /** One call again, with every stream still read from this node, each after what it received. */
        void retryIfDue(long now) {
            if (failed && now >= retryAtNanos) {
                failed = false;
                for (Read r : List.copyOf(reads.values())) {
                    open(r);
                }
            }
        }

        void received(int a, StreamsBatch b) {
            if (a != attempt) {
                return;
            }
            outstanding--;
            backoffMillis = 200;
            for (NodeInfo m : b.getMembersList()) {
                if (!m.getEndpoint().isEmpty()) {
                    addNode(m.getHostId(), m.getEndpoint()); // before anything past this safe time is released
                }
            }
            Set<Run> touched = new LinkedHashSet<>();
            for (StreamChunk c : b.getChunksList()) {
                Read r = reads.get(c.getStreamId());
                if (r == null || b.getOpenedThroughSeq() < r.openSeq) {
                    continue; // closed meanwhile, or sent for an earlier open of it (paused and reopened since)
                }
                for (Lcr l : c.getLcrsList()) {
                    r.buffer.add(Held.of(l));
                    r.lastReceived = l.getPosition();
                }
                if (r.buffer.size() >= BUFFER_LCRS) {
                    close(r);
                    paused.add(r);
                }
                r.safe = Math.max(r.safe, c.getThroughMicros());
                r.reported = true;
                touched.add(r.run);
            }
            // the node-wide safe time holds for the streams it has acknowledged and is not behind on
            Set<com.google.protobuf.ByteString> behind = b.getBehindCount() == 0 ? Set.of() : new HashSet<>(b.getBehindList());
            for (Map.Entry<com.google.protobuf.ByteString, Read> e : reads.entrySet()) {
                Read r = e.getValue();
                if (r.openSeq <= b.getOpenedThroughSeq() && !behind.contains(e.getKey())
                        && (r.safe < b.getSafeTimeMicros() || !r.reported)) {
                    r.safe = Math.max(r.safe, b.getSafeTimeMicros());
                    r.reported = true;
                    touched.add(r.run);
                }
            }
            if (b.getNewestStreamSetMillis() > newestSetMillis) {
                refreshWanted = true;
            }
            for (Run run : touched) {
                if (run.status == Status.ACTIVE) {
                    run.release();
                }
            }
            for (Node n : nodes.values()) {
                n.reads.requestMore(); // a release here may have made room in another node's buffers
            }
        }

        /**
         * Every stream read here (only active ones are), again from just after its last LCR
         * released, on a new call: the old call's messages in flight are then told apart by the
         * attempt (see removeDeparted).
         */
        void rewindAll() {
            cancel();
            unsent = null;
            for (Read r : paused) {
                reads.put(r.run.wireId, r);
            }
            paused.clear();
            for (Read r : List.copyOf(reads.values())) {
                r.run.rewind(r);
                open(r);
            }
        }

        void requestMore() {
            for (java.util.Iterator<Read> it = paused.iterator(); it.hasNext();) {
                Read r = it.next();
                if (r.buffer.size() < BUFFER_LCRS / 2) {
                    it.remove();
                    open(r); // after its last LCR received
                }
            }
            if (!failed && call != null && outstanding == 0) {
                outstanding++;
                call.request(1);
            }
        }
    }

    /** A stream: its reads from every node, and how far it is released and delivered. */
    private final class Run implements StreamMerge.StreamProgress {
        final StreamKey key;
        StreamDescriptor descriptor;
        final int worker;
        final Map<String, Read> reads = new HashMap<>();
        final com.google.protobuf.ByteString wireId;
        final LcrPosition resumeAfter;
        /** Without a last LCR to resume after: the time to read from ({@link Long#MIN_VALUE}: the beginning). */
        final long fromMicros;
        Status status = Status.WAITING;
        /** Every LCR below this time has been handed to the worker. */
        long released;
        /** Every LCR below this time has been handled. */
        long delivered;
        int inFlight;
        Held lastReleased;
        /** Touched only on the stream's worker. */
        final StreamHandoff<Held> handoff = new StreamHandoff<>(new StreamHandoff.Lcrs<>() {
            @Override
            public LcrPosition handle(Held h) throws Exception {
                ChangeRecord r = Lcrs.toRecord(h.lcr());
                handler.handle(r);
                ChangeConsumer.this.delivered.incrementAndGet();
                return r.position();
            }

            @Override
            public long micros(Held h) {
                return h.micros();
            }
        });

        Run(StreamKey key, StreamDescriptor d) {
            this.key = key;
            this.descriptor = d;
            this.worker = workerOf(d);
            this.wireId = com.google.protobuf.ByteString.copyFrom(d.streamId().duplicate());
            this.resumeAfter = store.load(d.streamId()).orElse(null);
            long through = store.deliveredThrough(d.streamId());
            long from;
            if (resumeAfter != null) {
                from = Math.floorDiv(resumeAfter.time().timestamp() - 0x01B21DD213814000L, 10);
            } else {
                from = Math.max(startMicros, through); // handled through a time without an LCR yet: go on from there
            }
            this.fromMicros = from;
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

        void open(Node n) {
            Read r = reads.computeIfAbsent(n.hostId, h -> new Read(this, n));
            n.reads.open(r);
        }

        /** Forgets what {@code r} holds, so that it is read again from just after the last LCR released. */
        void rewind(Read r) {
            r.buffer.clear();
            r.lastReceived = lastReleased == null ? null : lastReleased.lcr().getPosition();
            r.safe = Long.MIN_VALUE;
            r.reported = false;
        }

        /** Where a (re)opened read of this stream starts: after what it received, else where the stream starts. */
        StreamOpen.Builder openOf(Read r) {
            StreamOpen.Builder o = StreamOpen.newBuilder().setStreamId(wireId);
            if (r.lastReceived != null) {
                o.setAfter(r.lastReceived);
            } else if (resumeAfter != null) {
                o.setAfter(Lcrs.toWire(resumeAfter));
            } else if (fromMicros > 0) {
                o.setFromTimeMicros(fromMicros);
            }
            return o;
        }

        /** Hands the worker every LCR below the lowest safe time of all nodes, merged by position. */
        void release() {
            long bound = Long.MAX_VALUE;
            for (Node n : nodes.values()) {
                Read r = reads.get(n.hostId);
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
            List<ArrayDeque<Held>> buffers = new ArrayList<>(reads.size());
            for (Read r : reads.values()) {
                buffers.add(r.buffer);
            }
            StreamMerge.Released<Held> taken = StreamMerge.release(buffers, bound, lastReleased, Held::micros);
            List<Held> out = taken.lcrs();
            lastReleased = taken.last();
            duplicates.addAndGet(taken.duplicates());
            released = bound;
            inFlight++;
            long through = bound;
            workers[worker].execute(() -> deliver(this, out, through));
        }

        void cancelReads() {
            for (Read r : reads.values()) {
                r.node.reads.close(r);
            }
        }
    }

    /** On the stream's worker: hands the LCRs to the handler, records how far it got, then tells the loop. */
    private void deliver(Run run, List<Held> lcrs, long through) {
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

    /** Configures a consumer; not thread-safe. */
    public static final class Builder {
        private final TributaryClient client;
        private String table;
        private String queue;
        private StartPosition start = StartPosition.latest();
        private ChangeHandler handler;
        private int workers = 1;
        private PositionStore store = PositionStore.inMemory();
        private StreamAssignment assignment = StreamAssignment.ALL;
        private Function<String, ManagedChannel> channels;
        private int maxBatch = 256;
        private Duration refreshInterval = Duration.ofSeconds(5);
        private String group;
        private Duration groupLease = Duration.ZERO;
        private Duration groupCommitInterval = GroupSettings.DEFAULT_COMMIT_INTERVAL;

        private Builder(TributaryClient client) {
            this.client = Objects.requireNonNull(client, "client");
            this.channels = client.dialer(); // the client's TLS settings
        }

        /** The settings a group member's sessions are built with (the caller may change this builder later). */
        private Builder copy() {
            Builder c = new Builder(client);
            c.table = table;
            c.queue = queue;
            c.start = start;
            c.handler = handler;
            c.workers = workers;
            c.channels = channels;
            c.maxBatch = maxBatch;
            c.refreshInterval = refreshInterval;
            return c;
        }

        /**
         * Reads as a member of the consumer group {@code name} (created on first use, bound to this
         * table or queue): this consumer reads its share of the streams, resumes from the group's
         * committed positions (streams without one start where the group started, which {@link #start}
         * sets only for the member that creates the group), commits as it goes and
         * on close, and takes a new share when members come and go. Delivery is at-least-once:
         * dedupe by {@link ChangeRecord#position()}. A position store or assignment set here is
         * replaced by the group's.
         */
        public Builder group(String name) {
            this.group = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * How long this member stays in the group without a heartbeat (it heartbeats every third
         * of it); after that the others take its streams over. Default: the node's (10 s). The
         * group has one lease: the last member to join sets it.
         */
        public Builder groupLease(Duration lease) {
            Objects.requireNonNull(lease, "lease");
            if (lease.isNegative()) {
                throw new IllegalArgumentException("the lease must not be negative, got " + lease);
            }
            this.groupLease = lease;
            return this;
        }

        /** How often handled positions and the low watermark are committed to the group; default 750 ms. */
        public Builder groupCommitInterval(Duration interval) {
            Objects.requireNonNull(interval, "interval");
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("the commit interval must be positive, got " + interval);
            }
            this.groupCommitInterval = interval;
            return this;
        }

        /** The CDC log of a table, "ks.t". */
        public Builder table(String table) {
            this.table = Objects.requireNonNull(table, "table");
            return this;
        }

        /** A capture's queue. */
        public Builder queue(String queue) {
            this.queue = Objects.requireNonNull(queue, "queue");
            return this;
        }

        /** Where to start in streams the position store knows nothing of; default latest. */
        public Builder start(StartPosition start) {
            this.start = Objects.requireNonNull(start, "start");
            return this;
        }

        public Builder handler(ChangeHandler handler) {
            this.handler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** Handler threads; streams are spread over them by token range. Default 1. */
        public Builder workers(int workers) {
            if (workers < 1) {
                throw new IllegalArgumentException("workers must be at least 1, got " + workers);
            }
            this.workers = workers;
            return this;
        }

        public Builder positionStore(PositionStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        public Builder assignment(StreamAssignment assignment) {
            this.assignment = Objects.requireNonNull(assignment, "assignment");
            return this;
        }

        /** How the channel to a node's endpoint (host:port) is made; default plaintext Netty. */
        public Builder channels(Function<String, ManagedChannel> channels) {
            this.channels = Objects.requireNonNull(channels, "channels");
            return this;
        }

        /** LCRs per ReadStreams message (1 to 4096); default 256. */
        public Builder maxBatch(int maxBatch) {
            if (maxBatch < 1 || maxBatch > 4096) {
                throw new IllegalArgumentException("maxBatch must be 1 to 4096, got " + maxBatch);
            }
            this.maxBatch = maxBatch;
            return this;
        }

        /** How often the stream sets are listed again besides when a node says there is a newer one. */
        public Builder refreshInterval(Duration refreshInterval) {
            this.refreshInterval = Objects.requireNonNull(refreshInterval, "refreshInterval");
            return this;
        }

        public ChangeConsumer build() {
            if ((table == null) == (queue == null)) {
                throw new IllegalStateException("give exactly one of table(\"ks.t\") or queue(\"name\")");
            }
            if (handler == null) {
                throw new IllegalStateException("no handler: call handler(record -> ...)");
            }
            if (group != null) {
                return new ChangeConsumer(this, new GroupSettings(group, groupLease, groupCommitInterval));
            }
            return new ChangeConsumer(this, assignment, store, start, handler);
        }
    }
}
