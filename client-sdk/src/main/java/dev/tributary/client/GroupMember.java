package dev.tributary.client;

import dev.tributary.client.errors.FencedException;
import dev.tributary.client.errors.NotFoundException;
import dev.tributary.client.errors.RequestTimeoutException;
import dev.tributary.client.errors.TributaryException;
import dev.tributary.client.errors.UnavailableException;
import dev.tributary.client.internal.Endpoints;
import dev.tributary.protocol.v1.CommitRequest;
import dev.tributary.protocol.v1.ConsumerGroupServiceGrpc;
import dev.tributary.protocol.v1.FetchPositionsRequest;
import dev.tributary.protocol.v1.GroupLog;
import dev.tributary.protocol.v1.GroupPositions;
import dev.tributary.protocol.v1.GroupState;
import dev.tributary.protocol.v1.HeartbeatRequest;
import dev.tributary.protocol.v1.JoinRequest;
import dev.tributary.protocol.v1.LeaveRequest;
import dev.tributary.protocol.v1.StreamPosition;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * A {@link ChangeConsumer} in a consumer group (groups.proto): joins, heartbeats, and reads its
 * ring share with a plain consumer — a <em>session</em> — resuming from the group's committed
 * positions, committing what it handled and its low watermark as it goes.
 *
 * <p>A session lives as long as one epoch. When any answer shows another epoch, the session
 * stops delivering, commits under its old epoch (refused as fenced once the group moved on: then
 * the positions are dropped and the new owner starts from what was committed before) and a new
 * session starts with the new share. A lost lease (Heartbeat NOT_FOUND) or a fenced periodic
 * commit stops delivery at once; the member then joins again. Sessions never overlap in the
 * handler: a new one starts only after every handler call of the old one returned, so a stream's
 * LCRs never race — after a rebalance or crash some may come again (at-least-once).
 *
 * <p>All group calls and session changes run on one control thread.
 */
final class GroupMember extends Consumption {
    /** Opens the reader of one session: a plain consumer over a share and a store. */
    @FunctionalInterface
    interface Readers {
        PlainConsumer open(StreamAssignment share, PositionStore store, StartPosition start, ChangeHandler handler);
    }

    /** Thrown in a stopped session's handler calls, so that LCR counts as not handled. */
    static final class SessionStopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SessionStopped() {
            super("the consumer group session ended (a new epoch, or fenced)", null, false, false);
        }
    }

    /** One epoch's reading. */
    private static final class Session {
        final GroupState state;
        final GroupPositionStore store;
        PlainConsumer reader;
        volatile boolean stopped;

        Session(GroupState state, GroupPositionStore store) {
            this.state = state;
            this.store = store;
        }
    }

    private final Endpoints endpoints;
    private final GroupSettings settings;
    private final GroupLog log;
    private final StartPosition requestedStart;
    private final ChangeHandler handler;
    private final Readers readers;
    private final ReentrantReadWriteLock handlerLock = new ReentrantReadWriteLock();
    private final ThreadLocal<Boolean> inHandler = new ThreadLocal<>();
    private final AtomicLong duplicatesBefore = new AtomicLong();
    /** The largest write skew the closed sessions saw (ms). */
    private final AtomicLong skewBefore = new AtomicLong(-1);
    private final ScheduledExecutorService control;
    private volatile boolean started;
    private volatile Session current;
    private volatile GroupMembership membership;
    private volatile boolean crashed;

    // --- the control thread's (and start()'s, before the control thread runs)
    private String memberId;
    private long requestedStartMicros;
    private long leaseMillis;
    private long lastHeartbeatNanos;
    private final Map<StreamKey, GroupPositionStore.Progress> handled = new HashMap<>();

    GroupMember(Endpoints endpoints, GroupSettings settings, String table, String queue, StartPosition start,
            ChangeHandler handler, Readers readers) {
        this.endpoints = endpoints;
        this.settings = settings;
        this.log = table != null ? GroupLog.newBuilder().setTable(table).build() : GroupLog.newBuilder().setQueue(queue).build();
        this.requestedStart = start;
        this.handler = handler;
        this.readers = readers;
        this.control = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tributary-group-" + settings.name());
            t.setDaemon(true);
            return t;
        });
    }

    /** Joins and starts the first session; throws what the join or the first listing was refused with. */
    @Override
    synchronized void start() {
        if (started) {
            throw new IllegalStateException("the consumer was already started");
        }
        started = true;
        // resolved once: it is where the group starts if this join creates it
        requestedStartMicros = Math.max(0, requestedStart.startMicros(Instant.now()));
        memberId = UUID.randomUUID().toString();
        try {
            GroupState s = call(stub -> stub.join(joinRequest()), endpoints.requestTimeout());
            heard(s);
            running = true;
            openSession(s);
        } catch (RuntimeException e) {
            running = false;
            Session s = current;
            if (s != null) {
                s.reader.close();
            }
            leaveQuietly();
            control.shutdownNow();
            stopped.countDown();
            throw e;
        }
        control.schedule(this::heartbeatTick, heartbeatMillis(), TimeUnit.MILLISECONDS);
        control.scheduleWithFixedDelay(this::commitTick, settings.commitInterval().toMillis(),
                settings.commitInterval().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    long duplicatesDropped() {
        Session s = current;
        return duplicatesBefore.get() + (s == null ? 0 : s.reader.duplicatesDropped());
    }

    /** The current session's share; {@link Long#MIN_VALUE} between sessions (a new share starts over). */
    @Override
    long lowWatermarkMicros() {
        Session s = current;
        return s == null ? Long.MIN_VALUE : s.reader.lowWatermarkMicros();
    }

    @Override
    void recheckGates() {
        Session s = current;
        if (s != null) {
            s.reader.recheckGates();
        }
    }

    @Override
    long maxWriteSkewMillis() {
        Session s = current;
        return Math.max(skewBefore.get(), s == null ? -1 : s.reader.maxWriteSkewMillis());
    }

    @Override
    Optional<GroupMembership> membership() {
        return Optional.ofNullable(membership);
    }

    /** Commits what was handled, leaves, and waits for that (unless called from the handler, which the stop waits for). */
    @Override
    public void close() {
        if (!started) {
            stopped.countDown();
            return;
        }
        Future<?> f;
        try {
            f = control.submit(() -> stopAll(null));
        } catch (RejectedExecutionException e) {
            return; // already stopped
        }
        if (Boolean.TRUE.equals(inHandler.get())) {
            return;
        }
        try {
            f.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            failure.compareAndSet(null, e.getCause() != null ? e.getCause() : e);
        }
    }

    /** The current session's reading state, for diagnostics (see ChangeConsumer#describe). */
    @Override
    String describe(Duration timeout) {
        Session s = current;
        return s == null ? "no session" : "epoch " + s.state.getEpoch() + ": " + s.reader.describe(timeout);
    }

    /**
     * Tests: behave as a process that died — no more heartbeats, commits, Leave or deliveries; the
     * reader is abandoned. The group notices when the lease runs out.
     */
    @Override
    void crashForTest() {
        crashed = true;
        running = false;
        Session s = current;
        if (s != null) {
            s.stopped = true;
        }
        control.shutdownNow();
        if (s != null) {
            s.reader.close();
        }
        stopped.countDown();
    }

    // ------------------------------------------------------------------ control thread

    private void heartbeatTick() {
        if (!running) {
            return;
        }
        try {
            GroupState s = call(stub -> stub.heartbeat(HeartbeatRequest.newBuilder().setGroup(settings.name())
                    .setMemberId(memberId).build()), rpcTimeout());
            heard(s);
            adopt(s);
        } catch (NotFoundException e) {
            // the lease ran out: the others may be reading our streams already
            closeSession(false);
            rejoin();
        } catch (TributaryException e) {
            if (current != null && System.nanoTime() - lastHeartbeatNanos > TimeUnit.MILLISECONDS.toNanos(leaseMillis)) {
                closeSession(false); // most likely expired: stop rather than deliver alongside the member taking over
            }
        } catch (RuntimeException | Error e) {
            stopAll(e);
        } finally {
            if (running) {
                control.schedule(this::heartbeatTick, heartbeatMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    private void commitTick() {
        Session s = current;
        if (!running || s == null) {
            return;
        }
        try {
            Optional<Throwable> f = s.reader.failure();
            if (f.isPresent() && !(f.get() instanceof SessionStopped)) {
                stopAll(f.get()); // the handler threw, or a read was refused: commit what was handled and leave
                return;
            }
            try {
                commit(s);
            } catch (FencedException e) {
                closeSession(false);
                resync();
                return;
            } catch (TributaryException e) {
                // not committed this time; positions stay pending
            }
            try {
                GroupPositions p = call(stub -> stub.fetchPositions(FetchPositionsRequest.newBuilder()
                        .setGroup(settings.name()).build()), rpcTimeout());
                s.store.refresh(p.getPositionsList());
                s.reader.recheckGates(); // a parent another member reads may have got far enough
                if (p.getEpoch() != 0 && p.getEpoch() != s.state.getEpoch()) {
                    resync();
                }
            } catch (TributaryException e) {
                // the gates wait for the next fetch
            }
        } catch (RuntimeException | Error e) {
            stopAll(e);
        }
    }

    /** Takes in a group state: the first session, or a new one for a new epoch. */
    private void adopt(GroupState s) {
        Session c = current;
        if (c != null && c.state.getEpoch() == s.getEpoch()) {
            return;
        }
        if (c != null) {
            closeSession(true);
        }
        try {
            openSession(s);
        } catch (UnavailableException | RequestTimeoutException e) {
            // no session until a later heartbeat (each one tries again)
        }
    }

    private void openSession(GroupState s) {
        Session sess = new Session(s, new GroupPositionStore(fetchPositions(), handled));
        // Streams without a committed position start where the group started (or at its
        // watermark, below which the group handled everything), not at this member's own start:
        // a member joining with "latest" must not skip what the one before it had not committed.
        long from = Math.max(s.getStartMicros(), s.getLowWatermarkMicros());
        StartPosition start = from <= 0 ? StartPosition.earliest() : StartPosition.at(Instant.EPOCH.plus(from, ChronoUnit.MICROS));
        sess.reader = readers.open(RingShare.of(memberId, s.getMembersList()), sess.store, start, wrap(sess));
        try {
            sess.reader.start();
        } catch (RuntimeException e) {
            sess.reader.close();
            throw e;
        }
        current = sess;
        membership = new GroupMembership(settings.name(), memberId, s.getEpoch(), s.getMembersList());
    }

    private List<StreamPosition> fetchPositions() {
        return call(stub -> stub.fetchPositions(FetchPositionsRequest.newBuilder().setGroup(settings.name()).build()),
                rpcTimeout()).getPositionsList();
    }

    /** Stops the session: no handler call of it runs once this returns; commits unless told not to. */
    private void closeSession(boolean commit) {
        Session s = current;
        if (s == null) {
            return;
        }
        current = null;
        s.stopped = true;
        // the handler calls in progress return before the next session can hand anything over
        handlerLock.writeLock().lock();
        handlerLock.writeLock().unlock();
        s.reader.close();
        duplicatesBefore.addAndGet(s.reader.duplicatesDropped());
        skewBefore.accumulateAndGet(s.reader.maxWriteSkewMillis(), Math::max);
        if (commit) {
            try {
                commit(s);
            } catch (FencedException e) {
                // the epoch moved on: what this session handled after its last commit is read again by the new owner
            } catch (TributaryException e) {
                // the same: at-least-once
            }
        }
        s.store.handled().forEach((k, p) -> handled.merge(k, p, GroupPositionStore.Progress::further));
    }

    private void commit(Session s) {
        List<StreamPosition> positions = s.store.takeDirty();
        long watermark = Math.max(0, s.reader.lowWatermarkMicros());
        try {
            call(stub -> stub.commit(CommitRequest.newBuilder().setGroup(settings.name()).setMemberId(memberId)
                    .setEpoch(s.state.getEpoch()).addAllPositions(positions).setLowWatermarkMicros(watermark).build()),
                    rpcTimeout());
        } catch (FencedException e) {
            throw e;
        } catch (TributaryException e) {
            s.store.unsent(positions);
            throw e;
        }
    }

    /** After a fenced commit: learn the new epoch, or join again when the lease is gone. */
    private void resync() {
        try {
            GroupState s = call(stub -> stub.heartbeat(HeartbeatRequest.newBuilder().setGroup(settings.name())
                    .setMemberId(memberId).build()), rpcTimeout());
            heard(s);
            if (current != null && current.state.getEpoch() != s.getEpoch()) {
                closeSession(true);
            }
            adopt(s);
        } catch (NotFoundException e) {
            closeSession(false);
            rejoin();
        } catch (UnavailableException | RequestTimeoutException e) {
            // the next heartbeat tries again
        }
    }

    /** Joins as a new member: the old one is gone (its lease ran out) or fenced. */
    private void rejoin() {
        memberId = UUID.randomUUID().toString();
        membership = null;
        try {
            GroupState s = call(stub -> stub.join(joinRequest()), rpcTimeout());
            heard(s);
            adopt(s);
        } catch (UnavailableException | RequestTimeoutException e) {
            // the next heartbeat gets NOT_FOUND for this id and joins again
        }
    }

    private void stopAll(Throwable cause) {
        if (!running) {
            return;
        }
        running = false;
        if (cause != null) {
            failure.compareAndSet(null, cause);
        }
        try {
            closeSession(true);
            leaveQuietly();
        } finally {
            control.shutdown();
            stopped.countDown();
        }
    }

    private void leaveQuietly() {
        if (crashed) {
            return;
        }
        try {
            call(stub -> stub.leave(LeaveRequest.newBuilder().setGroup(settings.name()).setMemberId(memberId).build()),
                    rpcTimeout());
        } catch (TributaryException e) {
            // the lease runs out instead
        }
    }

    private ChangeHandler wrap(Session s) {
        return r -> {
            ReentrantReadWriteLock.ReadLock l = handlerLock.readLock();
            l.lock();
            try {
                if (s.stopped) {
                    throw new SessionStopped();
                }
                inHandler.set(Boolean.TRUE);
                try {
                    handler.handle(r);
                } finally {
                    inHandler.remove();
                }
                delivered.incrementAndGet();
            } finally {
                l.unlock();
            }
        };
    }

    private JoinRequest joinRequest() {
        return JoinRequest.newBuilder().setGroup(settings.name()).setLog(log).setMemberId(memberId)
                .setLeaseMillis(settings.lease().toMillis()).setStartMicros(requestedStartMicros).build();
    }

    private void heard(GroupState s) {
        lastHeartbeatNanos = System.nanoTime();
        leaseMillis = s.getLeaseMillis() > 0 ? s.getLeaseMillis() : 10_000;
    }

    private long heartbeatMillis() {
        return Math.max(50, leaseMillis / 3);
    }

    /** Short enough that a slow node cannot hold the control thread past the lease. */
    private Duration rpcTimeout() {
        Duration half = Duration.ofMillis(Math.max(500, leaseMillis / 2));
        return half.compareTo(endpoints.requestTimeout()) < 0 ? half : endpoints.requestTimeout();
    }

    private <T> T call(Function<ConsumerGroupServiceGrpc.ConsumerGroupServiceBlockingStub, T> rpc, Duration timeout) {
        if (crashed) {
            throw new UnavailableException("crashed (test)", List.of(), null);
        }
        return endpoints.call(ep -> rpc.apply(ConsumerGroupServiceGrpc.newBlockingStub(ep.channel())
                .withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS)), null);
    }
}
