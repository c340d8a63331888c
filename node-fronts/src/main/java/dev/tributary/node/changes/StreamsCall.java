package dev.tributary.node.changes;

import com.google.protobuf.ByteString;
import dev.tributary.capture.log.LogPosition;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.generations.StreamId;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.net.ErrorMapping;
import dev.tributary.protocol.v1.NodeInfo;
import dev.tributary.protocol.v1.StreamChunk;
import dev.tributary.protocol.v1.StreamsBatch;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code ReadStreams} call: many streams of one log, multiplexed. Like a ReadStream call it
 * has no thread of its own; its pump runs on {@link StreamReads}' pool when one of its streams
 * is appended to, when the call turns ready, or on the tick. Per message the pump takes the safe
 * time first, then the streams appended to since (an LCR below that safe time was appended,
 * and so announced, before it was computed: the capture raises its caught-up SCN only after the
 * append returns), then reads round-robin a page of each stream that may have unsent LCRs below
 * the safe time, packing at most max_batch LCRs into the message. A stream read complete below
 * the safe time remembers the time of its next LCR (one at or above that safe time, waiting for
 * it to pass) and is read again when the safe time passes it or when it is appended to; streams
 * not read for a message cost nothing, as nothing below the safe time can have appeared in them.
 * A stream is "behind" while it may have unsent LCRs below the safe time (newly opened, cut,
 * appended to or passed by the safe time, and not read again yet). Requests from the client arrive on gRPC's thread and are queued, so
 * only the pump touches the call's streams and writes to the call. Thread-safe.
 */
public final class StreamsCall {
    private static final Logger LOG = LoggerFactory.getLogger(StreamsCall.class);
    /** Messages one pump sends before yielding the pool to the other calls. */
    private static final int MESSAGES_PER_TURN = 8;

    /** A stream to start reading: after a position, or from a time; {@code seq} as the client numbered the open. */
    public record Open(StreamId stream, LogPosition after, long fromMicros, long seq) {
    }

    /** One request's changes to the streams read: closes first, then opens. */
    private record Change(List<Open> opens, List<StreamId> closes) {
    }

    /** A stream read complete whose next LCR, at {@code micros}, waits for the safe time to pass it. */
    private record Waiting(long micros, Stream stream) {
    }

    private final StreamReads reads;
    private final ServerCallStreamObserver<StreamsBatch> out;
    private final ConcurrentLinkedQueue<Change> changes = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Stream> appended = new ConcurrentLinkedQueue<>();
    private final PumpTurns turns;
    private final AtomicBoolean tickDue = new AtomicBoolean();
    private volatile StreamReads.StreamsRequest req;
    private volatile RuntimeException failure;
    private volatile boolean cancelled;

    // --- the pump's state (one pump runs at a time: `turns`)
    private final Map<StreamId, Stream> streams = new HashMap<>();
    /** The streams that may have unsent LCRs below the safe time, in round-robin order. */
    private final ArrayDeque<Stream> work = new ArrayDeque<>();
    /** Streams with LCRs above the safe time, earliest first; an entry whose stream moved on is stale. */
    private final PriorityQueue<Waiting> waiting = new PriorityQueue<>(Comparator.comparingLong(Waiting::micros));
    private boolean ended;
    private long openedThroughSeq;
    private long sentOpenedThroughSeq;
    private long sentSafe = Long.MIN_VALUE;
    private boolean sentAny;
    /** A stream listed behind in a sent message has since been read complete: worth a message. */
    private boolean caughtUp;

    StreamsCall(StreamReads reads, ServerCallStreamObserver<StreamsBatch> out) {
        this.reads = reads;
        this.out = out;
        this.turns = new PumpTurns(reads::execute, this::pump, () -> ended, this::sendFailure);
    }

    /** The first request's log and batch size; the call reads from now on. */
    public void begin(StreamReads.StreamsRequest request) {
        this.req = request;
        wake();
    }

    /** A request's opens and closes, applied by the pump in order. */
    public void request(List<Open> opens, List<StreamId> closes) {
        changes.add(new Change(List.copyOf(opens), List.copyOf(closes)));
        wake();
    }

    /** Fails the call with this error (a bad request); the pump sends it, as only it writes to the call. */
    public void fail(RuntimeException e) {
        failure = e;
        wake();
    }

    void cancelled() {
        cancelled = true;
        wake();
    }

    void tick() {
        tickDue.set(true);
        wake();
    }

    void wake() {
        turns.wake();
    }

    /** Sends what it can; false when it stopped only because its turn was used up. */
    private boolean pump() {
        for (int m = 0; m < MESSAGES_PER_TURN; m++) {
            if (cancelled || out.isCancelled()) {
                end();
                return true;
            }
            if (failure != null) {
                sendFailure(failure);
                return true;
            }
            StreamReads.StreamsRequest r = req;
            if (r == null) {
                return true; // no first request yet
            }
            applyChanges(r);
            if (!out.isReady()) {
                reads.pausedForReadiness();
                return true; // the onReady handler wakes it
            }
            // The safe time first, then what was appended before it: see the class comment.
            SafeTimes.SafeTime safe = r.safeTime().get();
            takeAppended();
            takePassed(safe.micros());
            boolean heartbeatDue = tickDue.getAndSet(false);
            StreamsBatch.Builder b = StreamsBatch.newBuilder();
            int room = r.maxBatch();
            int lcrs = 0;
            for (int turns = work.size(); turns > 0 && room > 0; turns--) {
                Stream s = work.poll();
                List<LogRecord> page = reads.log().readStream(r.logId(), s.id, s.after, s.fromMicros, safe.micros(), room);
                boolean cut = page.size() == room;
                // cut: LCRs at the last one's time may still follow on this call
                s.through = Math.max(s.through,
                        cut ? TimeUuids.micros(page.get(page.size() - 1).position().time()) : safe.micros());
                if (!page.isEmpty()) {
                    StreamChunk.Builder c = b.addChunksBuilder().setStreamId(s.wireId).setThroughMicros(s.through);
                    for (LogRecord rec : page) {
                        c.addLcrs(r.toWire().apply(rec));
                    }
                    s.after = page.get(page.size() - 1).position();
                    room -= page.size();
                    lcrs += page.size();
                }
                if (cut) {
                    work.add(s);
                } else {
                    s.pending = false;
                    caughtUp |= s.reportedBehind;
                    s.reportedBehind = false;
                    // every LCR still to come here is at or above the safe time: find the first
                    List<LogRecord> next = reads.log().readStream(r.logId(), s.id, s.after, s.fromMicros, Long.MAX_VALUE, 1);
                    s.nextMicros = next.isEmpty() ? Long.MAX_VALUE : TimeUuids.micros(next.get(0).position().time());
                    if (!next.isEmpty()) {
                        waiting.add(new Waiting(s.nextMicros, s));
                    }
                }
            }
            boolean heartbeat = heartbeatDue && safe.micros() > sentSafe;
            if (lcrs > 0 || !sentAny || caughtUp || openedThroughSeq > sentOpenedThroughSeq || heartbeat) {
                for (Stream s : work) {
                    b.addBehind(s.wireId);
                    s.reportedBehind = true;
                }
                b.setSafeTimeMicros(safe.micros()).setOpenedThroughSeq(openedThroughSeq)
                        .setNewestStreamSetMillis(r.newestStreamSetMillis().getAsLong());
                for (MembershipView.Member mb : safe.members().live()) {
                    b.addMembers(NodeInfo.newBuilder().setHostId(mb.hostId()).setEndpoint(mb.endpoint()).setLive(true)
                            .setState(mb.state()));
                }
                out.onNext(b.build());
                reads.sentOnStreamsCall(lcrs);
                sentAny = true;
                sentSafe = safe.micros();
                sentOpenedThroughSeq = openedThroughSeq;
                caughtUp = false;
            }
            if (work.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private void applyChanges(StreamReads.StreamsRequest r) {
        for (Change c = changes.poll(); c != null; c = changes.poll()) {
            for (StreamId id : c.closes()) {
                Stream s = streams.remove(id);
                if (s != null) {
                    s.closed = true;
                    reads.unwatch(s.key, s);
                    work.remove(s);
                }
            }
            for (Open o : c.opens()) {
                if (streams.containsKey(o.stream())) {
                    throw new InvalidRequestException("ReadStreams: stream " + o.stream().toHex() + " is already open on this call");
                }
                if (o.seq() <= openedThroughSeq) {
                    throw new InvalidRequestException("ReadStreams: open seq numbers must increase, got " + o.seq()
                            + " after " + openedThroughSeq);
                }
                Stream s = new Stream(new StreamReads.StreamKey(r.logId(), o.stream()), o);
                streams.put(o.stream(), s);
                reads.watch(s.key, s);
                work.add(s); // behind until its first complete read
                openedThroughSeq = o.seq();
            }
        }
    }

    private void takeAppended() {
        for (Stream s = appended.poll(); s != null; s = appended.poll()) {
            s.queued.set(false); // before reading it: a later append queues it again
            if (!s.closed && !s.pending) {
                s.nextMicros = Long.MAX_VALUE; // its waiting entry, if any, is stale now
                s.pending = true;
                work.add(s);
            }
        }
    }

    /** Streams whose next LCR the safe time has passed: they have LCRs to send. */
    private void takePassed(long safeMicros) {
        while (!waiting.isEmpty() && waiting.peek().micros() < safeMicros) {
            Waiting w = waiting.poll();
            Stream s = w.stream();
            if (!s.closed && !s.pending && s.nextMicros == w.micros()) {
                s.pending = true;
                work.add(s);
            }
        }
    }

    private void sendFailure(RuntimeException e) {
        if (ended) {
            return;
        }
        LOG.debug("ReadStreams call failed", e);
        try {
            out.onError(ErrorMapping.toStatus(e));
        } catch (IllegalStateException alreadyClosed) {
            // cancelled meanwhile
        }
        end();
    }

    /** Forgets the call: its streams are no longer watched. */
    private void end() {
        if (ended) {
            return;
        }
        ended = true;
        for (Stream s : streams.values()) {
            s.closed = true;
            reads.unwatch(s.key, s);
        }
        streams.clear();
        work.clear();
        waiting.clear();
        reads.ended(this);
    }

    /** One stream read on this call. */
    private final class Stream implements StreamReads.Watcher {
        final StreamReads.StreamKey key;
        final StreamId id;
        final ByteString wireId;
        final long fromMicros;
        final AtomicBoolean queued = new AtomicBoolean();
        volatile boolean closed;
        LogPosition after;
        /** Every LCR below this has been sent (as far as chunks told). */
        long through = Long.MIN_VALUE;
        /** When read complete: the time of its next LCR (above the safe time), or none. */
        long nextMicros = Long.MAX_VALUE;
        /** In {@link #work}: may have unsent LCRs below the safe time. */
        boolean pending = true;
        /** Listed behind in the last message sent. */
        boolean reportedBehind;

        Stream(StreamReads.StreamKey key, Open o) {
            this.key = key;
            this.id = o.stream();
            this.wireId = ByteString.copyFrom(o.stream().toBytes());
            this.after = o.after();
            this.fromMicros = o.fromMicros();
        }

        @Override
        public void appended() {
            if (!closed && queued.compareAndSet(false, true)) {
                appended.add(this);
                wake();
            }
        }
    }
}
