package dev.tributary.client;

import com.google.protobuf.ByteString;
import dev.tributary.client.internal.ErrorMapper;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.NodeInfo;
import dev.tributary.protocol.v1.ReadStreamsRequest;
import dev.tributary.protocol.v1.StreamChunk;
import dev.tributary.protocol.v1.StreamsBatch;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The one ReadStreams call to a node that carries every stream a consumer reads there: opens and
 * closes streams on it, routes each chunk to its {@link StreamRead}, applies a message's node-wide
 * safe time to the reads it covers, and calls again after a failure with a {@link Backoff}.
 * Touched only on the consumer's loop thread: the call's messages are handed to it through
 * {@code loop}.
 */
final class NodeReader {
    /** LCRs a stream may hold from one node before its read there is paused. */
    static final int BUFFER_LCRS = 2048;

    /** What a node's messages mean to the consumer; called on the loop thread. */
    interface Listener {
        /** A node in this node's membership view: added before anything past this message's safe time is released. */
        void member(String hostId, String endpoint);

        /** Reads got LCRs or a higher safe time; a node knows a stream set opened at {@code newestSetMillis}. */
        void received(Set<StreamRead> touched, long newestSetMillis);

        /** The node refused the call (retrying will not help): the consumer stops. */
        void refused(RuntimeException e);
    }

    /**
     * What every node reader of one consumer shares.
     *
     * @param header   the first request's table or queue and batch size
     * @param backoff  the wait before calling a node again, at its start
     * @param loop     runs a task on the consumer's loop thread
     * @param listener what the nodes' messages mean to the consumer
     */
    record Setup(ReadStreamsRequest header, Backoff backoff, Executor loop, Listener listener) {
    }

    final String hostId;
    private String endpoint;
    private ManagedChannel channel;
    private final Setup setup;
    private final Map<ByteString, StreamRead> reads = new HashMap<>();
    /**
     * Reads closed on the call because their buffer filled (a stream far ahead on this node,
     * waiting for another node's safe time); reopened after their last LCR once it drains.
     * Per stream, not per call: pausing the whole call could deadlock two nodes each waiting
     * on a stream the other has paused.
     */
    private final Set<StreamRead> paused = new HashSet<>();
    private ClientCallStreamObserver<ReadStreamsRequest> call;
    private ReadStreamsRequest.Builder unsent;
    /** Tells the messages of an earlier call, still in flight, from the current one's. */
    private int attempt;
    private long seq;
    private int outstanding;
    private boolean failed;
    private long retryAtNanos;
    private Backoff backoff;

    NodeReader(String hostId, String endpoint, ManagedChannel channel, Setup setup) {
        this.hostId = hostId;
        this.endpoint = endpoint;
        this.channel = channel;
        this.setup = setup;
        this.backoff = setup.backoff();
    }

    String endpoint() {
        return endpoint;
    }

    /** The node is at another endpoint now: reads go on over the new channel once the old call fails. */
    void moveTo(String newEndpoint, ManagedChannel newChannel) {
        channel.shutdownNow();
        endpoint = newEndpoint;
        channel = newChannel;
    }

    /** Ends the call and the channel (the consumer stops, or the node left). */
    void shutdown() {
        cancel();
        channel.shutdownNow();
    }

    /** The stream is read from here (again), after what {@code r} received. */
    void open(StreamRead r) {
        reads.put(r.wireId, r);
        r.failed = failed;
        if (!failed) {
            connect();
            r.openSeq = ++seq;
            unsent().addOpen(r.open().setSeq(r.openSeq));
        }
    }

    void close(StreamRead r) {
        paused.remove(r);
        if (reads.remove(r.wireId, r)) {
            if (unsent != null) {
                for (int i = 0; i < unsent.getOpenCount(); i++) {
                    if (unsent.getOpen(i).getStreamId().equals(r.wireId)) {
                        unsent.removeOpen(i); // not sent yet: a close in the same request would come before it
                        return;
                    }
                }
            }
            if (call != null) {
                unsent().addClose(r.wireId);
            }
        }
    }

    /** Sends the opens and closes of this turn, one request. */
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

    /**
     * Every stream read here, again from where {@code rewind} sets each, on a new call: the old
     * call's messages in flight are then told apart by the attempt.
     */
    void rewindAll(Consumer<StreamRead> rewind) {
        cancel();
        unsent = null;
        for (StreamRead r : paused) {
            reads.put(r.wireId, r);
        }
        paused.clear();
        for (StreamRead r : List.copyOf(reads.values())) {
            rewind.accept(r);
            open(r);
        }
    }

    /** Reopens paused reads whose buffer drained, and asks for the next message when none is outstanding. */
    void requestMore() {
        for (Iterator<StreamRead> it = paused.iterator(); it.hasNext();) {
            StreamRead r = it.next();
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

    /** One call again, with every stream still read from this node, each after what it received. */
    void retryIfDue(long nowNanos) {
        if (failed && nowNanos >= retryAtNanos) {
            failed = false;
            for (StreamRead r : List.copyOf(reads.values())) {
                open(r);
            }
        }
    }

    /** For diagnostics: the node's line of the consumer's state. */
    String describe() {
        return "node " + hostId + (failed ? " failing" : "") + " streams " + reads.size() + " outstanding " + outstanding
                + " paused " + paused.size();
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
        unsent().mergeFrom(setup.header());
        ChangeStreamServiceGrpc.newStub(channel).readStreams(new ClientResponseObserver<ReadStreamsRequest, StreamsBatch>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<ReadStreamsRequest> s) {
                call = s;
                s.disableAutoRequestWithInitial(1);
                outstanding = 1;
            }

            @Override
            public void onNext(StreamsBatch b) {
                setup.loop().execute(() -> received(a, b));
            }

            @Override
            public void onError(Throwable t) {
                setup.loop().execute(() -> failed(a, t));
            }

            @Override
            public void onCompleted() {
                setup.loop().execute(() -> failed(a, null));
            }
        });
    }

    private void failed(int a, Throwable t) {
        if (a != attempt) {
            return;
        }
        if (t instanceof StatusRuntimeException sre && sre.getStatus().getCode() != Status.Code.UNAVAILABLE
                && sre.getStatus().getCode() != Status.Code.CANCELLED
                && sre.getStatus().getCode() != Status.Code.UNKNOWN
                && sre.getStatus().getCode() != Status.Code.DEADLINE_EXCEEDED) {
            setup.listener().refused(ErrorMapper.map(sre, endpoint, null));
            return;
        }
        // the node is down or restarting: what was received stays valid (a prefix), go on after it later
        call = null;
        unsent = null;
        failed = true;
        for (StreamRead r : reads.values()) {
            r.failed = true;
        }
        retryAtNanos = System.nanoTime() + backoff.delay().toNanos();
        backoff = backoff.next();
    }

    private void received(int a, StreamsBatch b) {
        if (a != attempt) {
            return;
        }
        outstanding--;
        backoff = backoff.reset();
        for (NodeInfo m : b.getMembersList()) {
            if (!m.getEndpoint().isEmpty()) {
                setup.listener().member(m.getHostId(), m.getEndpoint());
            }
        }
        Set<StreamRead> touched = new LinkedHashSet<>();
        for (StreamChunk c : b.getChunksList()) {
            StreamRead r = reads.get(c.getStreamId());
            if (r == null || b.getOpenedThroughSeq() < r.openSeq) {
                continue; // closed meanwhile, or sent for an earlier open of it (paused and reopened since)
            }
            for (Lcr l : c.getLcrsList()) {
                r.buffer.add(HeldLcr.of(l));
                r.lastReceived = l.getPosition();
            }
            if (r.buffer.size() >= BUFFER_LCRS) {
                close(r);
                paused.add(r);
            }
            r.safe = Math.max(r.safe, c.getThroughMicros());
            r.reported = true;
            touched.add(r);
        }
        // the node-wide safe time holds for the streams it has acknowledged and is not behind on
        Set<ByteString> behind = b.getBehindCount() == 0 ? Set.of() : new HashSet<>(b.getBehindList());
        for (Map.Entry<ByteString, StreamRead> e : reads.entrySet()) {
            StreamRead r = e.getValue();
            if (r.openSeq <= b.getOpenedThroughSeq() && !behind.contains(e.getKey())
                    && (r.safe < b.getSafeTimeMicros() || !r.reported)) {
                r.safe = Math.max(r.safe, b.getSafeTimeMicros());
                r.reported = true;
                touched.add(r);
            }
        }
        setup.listener().received(touched, b.getNewestStreamSetMillis());
    }
}
