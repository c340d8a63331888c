package dev.tributary.node.changes;

import dev.tributary.capture.log.LogPosition;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.generations.StreamId;
import dev.tributary.node.capture.RocksDbCdcLog;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.NodeInfo;
import dev.tributary.protocol.v1.StreamBatch;
import dev.tributary.protocol.v1.StreamsBatch;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open {@code ReadStream} and {@code ReadStreams} calls of a node. No call has a thread of its
 * own: a small shared pool runs a call's pump when something may let it send — an append to one
 * of its streams, the client's flow-control window opening, or the 100 ms tick that sends
 * heartbeats as safe times advance (once per call, however many streams it reads; see
 * {@link StreamsCall} for the multiplexed calls). A
 * pump reads the log a page at a time and sends only while the call is ready, so a slow client
 * costs one page of memory, not its backlog. A following call sends only LCRs below the safe
 * time, so what it has sent is always a complete prefix of the stream on this node. The tick also refreshes the membership view.
 * Thread-safe.
 */
public final class StreamReads implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamReads.class);
    public static final int DEFAULT_BATCH = 256;
    public static final int MAX_BATCH = 4096;
    /** Pages one pump sends before yielding the pool to the other calls. */
    private static final int PAGES_PER_TURN = 8;
    private static final long TICK_MILLIS = 100;
    private static final long MEMBERSHIP_MILLIS = 200;

    /** What a call reads and how: resolved from the request by the gRPC service. */
    public record Request(long logId, StreamId stream, LogPosition after, long fromMicros, boolean follow, int maxBatch,
            Supplier<SafeTimes.SafeTime> safeTime, LongSupplier newestStreamSetMillis, Function<LogRecord, Lcr> toWire) {
    }

    /** What a ReadStreams call reads and how: resolved from its first request by the gRPC service. */
    public record StreamsRequest(long logId, int maxBatch, Supplier<SafeTimes.SafeTime> safeTime,
            LongSupplier newestStreamSetMillis, Function<LogRecord, Lcr> toWire) {
    }

    record StreamKey(long logId, StreamId stream) {
    }

    /** Told of appends to one stream it watches; must be quick and not block (runs in the capture's append). */
    interface Watcher {
        void appended();
    }

    private final RocksDbCdcLog log;
    private final ScheduledExecutorService pool;
    private final ConcurrentHashMap<StreamKey, Set<Watcher>> watchers = new ConcurrentHashMap<>();
    private final Set<Call> calls = ConcurrentHashMap.newKeySet();
    private final Set<StreamsCall> streamsCalls = ConcurrentHashMap.newKeySet();
    private final AtomicLong streamsLcrsSent = new AtomicLong();
    private final AtomicLong readinessPauses = new AtomicLong();

    public StreamReads(RocksDbCdcLog log, MembershipView membership) {
        this.log = log;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "tributary-read-stream-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        log.addAppendListener((logId, stream) -> {
            Set<Watcher> s = watchers.get(new StreamKey(logId, stream));
            if (s != null) {
                s.forEach(Watcher::appended);
            }
        });
        // a capture caught up: a safe time moved past what it appended, so calls may send it now, not at the next tick
        log.addCaughtUpListener(() -> {
            try {
                pool.execute(this::tick);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                // the node is stopping: no call is left to tell
            }
        });
        pool.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        pool.scheduleWithFixedDelay(membership::refresh, 0, MEMBERSHIP_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void tick() {
        calls.forEach(Call::wake);
        streamsCalls.forEach(StreamsCall::tick);
    }

    /** Starts serving a call; returns at once (handlers must be set before the RPC method returns). */
    public void open(Request req, ServerCallStreamObserver<StreamBatch> out) {
        Call c = new Call(req, out);
        StreamKey key = new StreamKey(req.logId(), req.stream());
        out.setOnCancelHandler(() -> {
            c.done = true;
            remove(key, c);
        });
        out.setOnReadyHandler(c::wake);
        calls.add(c);
        watch(key, c);
        c.onDone = () -> remove(key, c);
        c.wake();
    }

    private void remove(StreamKey key, Call c) {
        calls.remove(c);
        unwatch(key, c);
    }

    /**
     * Takes a new ReadStreams call; its handlers are set here, before the RPC method returns, and
     * it reads nothing until {@link StreamsCall#begin} with its first request.
     */
    public StreamsCall openStreams(ServerCallStreamObserver<StreamsBatch> out) {
        StreamsCall c = new StreamsCall(this, out);
        streamsCalls.add(c);
        out.setOnCancelHandler(c::cancelled);
        out.setOnReadyHandler(c::wake);
        return c;
    }

    void watch(StreamKey key, Watcher w) {
        // inside compute: an unwatch emptying the set at the same time must not drop this watcher
        watchers.compute(key, (k, s) -> {
            Set<Watcher> set = s != null ? s : ConcurrentHashMap.<Watcher>newKeySet();
            set.add(w);
            return set;
        });
    }

    void unwatch(StreamKey key, Watcher w) {
        watchers.computeIfPresent(key, (k, s) -> {
            s.remove(w);
            return s.isEmpty() ? null : s;
        });
    }

    void ended(StreamsCall c) {
        streamsCalls.remove(c);
    }

    void pausedForReadiness() {
        readinessPauses.incrementAndGet();
    }

    void sentOnStreamsCall(int lcrs) {
        streamsLcrsSent.addAndGet(lcrs);
    }

    RocksDbCdcLog log() {
        return log;
    }

    /** Runs a pump on the pool; false when the node is shutting down. */
    boolean execute(Runnable pump) {
        try {
            pool.execute(pump);
            return true;
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return false;
        }
    }

    /** Open ReadStream calls (for tests and views). */
    public int openCalls() {
        return calls.size();
    }

    /** Open ReadStreams calls (for tests and views). */
    public int openStreamsCalls() {
        return streamsCalls.size();
    }

    /** (log, stream) pairs some call watches for appends: none once every call has ended. */
    public int watchedStreams() {
        return watchers.size();
    }

    /**
     * Times a ReadStream or ReadStreams call stopped sending because its client was not ready
     * for more (gRPC flow control): a test awaits it rather than guessing how long a node that
     * ignored readiness would take to send too much.
     */
    public long readinessPauses() {
        return readinessPauses.get();
    }

    /** LCRs sent on ReadStreams calls since the node started (for tests of flow control). */
    public long streamsLcrsSent() {
        return streamsLcrsSent.get();
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    private final class Call implements Watcher {
        private final Request req;
        private final ServerCallStreamObserver<StreamBatch> out;
        private volatile boolean done;
        private final PumpTurns turns = new PumpTurns(StreamReads.this::execute, this::pump, () -> done, this::fail);
        private Runnable onDone = () -> { };
        private LogPosition after;
        private long sentSafe = Long.MIN_VALUE;
        private boolean sentAny;

        Call(Request req, ServerCallStreamObserver<StreamBatch> out) {
            this.req = req;
            this.out = out;
            this.after = req.after();
        }

        /** Something may let the call send: an append, the client turning ready, the tick. */
        void wake() {
            if (!done) {
                turns.wake();
            }
        }

        @Override
        public void appended() {
            wake();
        }

        /** Sends what it can; false when it stopped only because its turn was used up. */
        private boolean pump() {
            for (int page = 0; page < PAGES_PER_TURN; page++) {
                if (done || out.isCancelled()) {
                    finish();
                    return true;
                }
                if (!out.isReady()) {
                    pausedForReadiness();
                    return true; // the onReady handler wakes it
                }
                // The safe time is taken before the read: every LCR below it is in the log by then.
                // Following, only LCRs below it are sent: a later LCR may still land before an LCR
                // above it (a write USING TIMESTAMP in the past), so what was sent must be a
                // complete prefix of the stream for "after the last one sent" to stay the place to
                // go on from.
                SafeTimes.SafeTime safe = req.safeTime().get();
                long until = req.follow() ? safe.micros() : Long.MAX_VALUE;
                List<LogRecord> records = log.readStream(req.logId(), req.stream(), after, req.fromMicros(), until,
                        req.maxBatch());
                boolean full = records.size() == req.maxBatch();
                long reported = safe.micros();
                if (full) {
                    // the page was cut: LCRs at the last one's time may still follow on this call
                    reported = Math.min(reported, TimeUuids.micros(records.get(records.size() - 1).position().time()));
                }
                reported = Math.max(reported, sentSafe);
                if (!records.isEmpty() || reported > sentSafe || !sentAny) {
                    StreamBatch.Builder b = StreamBatch.newBuilder().setSafeTimeMicros(reported)
                            .setNewestStreamSetMillis(req.newestStreamSetMillis().getAsLong());
                    for (LogRecord r : records) {
                        b.addLcrs(req.toWire().apply(r));
                    }
                    for (MembershipView.Member m : safe.members().live()) {
                        b.addMembers(NodeInfo.newBuilder().setHostId(m.hostId()).setEndpoint(m.endpoint()).setLive(true)
                                .setState(m.state()));
                    }
                    out.onNext(b.build());
                    sentAny = true;
                    sentSafe = reported;
                    if (!records.isEmpty()) {
                        after = records.get(records.size() - 1).position();
                    }
                }
                if (!full) {
                    if (!req.follow()) {
                        out.onCompleted();
                        finish();
                    }
                    return true;
                }
            }
            return false;
        }

        private void finish() {
            if (!done) {
                done = true;
            }
            onDone.run();
        }

        private void fail(RuntimeException e) {
            if (done) {
                return;
            }
            LOG.debug("ReadStream of log {} stream {} failed", req.logId(), req.stream(), e);
            try {
                out.onError(dev.tributary.node.net.ErrorMapping.toStatus(e));
            } catch (IllegalStateException alreadyClosed) {
                // cancelled meanwhile
            }
            finish();
        }
    }
}
