package dev.tributary.node.write;

import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.time.HybridLogicalClock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The node's single committer. Every transaction (a write, a batch, a DDL statement) runs on one
 * thread in submission order: it gets the next SCN from the hybrid logical clock, reads what it
 * needs, and becomes one atomic RocksDB WriteBatch holding its base-row changes and its redo
 * record. Serial commit makes the redo thread's SCN order the commit order, and lets a
 * transaction read the rows it changes (old values) without locks.
 *
 * <p>Durability follows {@link SyncMode}: in {@code BATCH} mode the committer drains every
 * queued transaction, writes each, and fsyncs the WAL once for the group before acknowledging
 * any of them (group commit); in {@code PERIODIC} mode writes are acknowledged when written and
 * the WAL is fsynced every period.
 *
 * <p>On a replicated store (a replica group's) every write is a Raft round, so transactions
 * submitted with {@link #commitInGroup} share one: each runs in turn and reads the writes of the
 * ones before it through an overlay, and the group is proposed as one entry once the queue is
 * drained — without the SCN lock, so a capture never waits on the round. Rounds are pipelined:
 * while group n's round is in flight the committer builds group n+1, whose transactions read n's
 * writes through n's overlay, and proposes it (up to {@value #MAX_IN_FLIGHT} rounds in flight).
 * Rounds are retired in proposal order: a group is acknowledged, and the durable mark passes its
 * SCNs, only once it and every group before it were applied; when one fails, every group proposed
 * or built after it fails with it, as they rest on its writes, and no transaction runs until an
 * entry proposed after them is applied (a failed round's entry may still commit: a retry must find
 * its idempotency key). Each group's entry names the group it was built on, and the replicas apply
 * it only on top of that one: a round that never entered the log (refused at once) cannot leave
 * the later entries, built on its writes, applied without it; they are skipped everywhere and their
 * members told they were not applied. A transaction submitted with {@link
 * #commit} or {@link #submit} first waits until every earlier group is in the store, and writes on
 * its own.
 *
 * <p>Thread-safe: {@link #submit} may be called from any thread.
 */
public final class CommitPipeline implements AutoCloseable {
    /** How writes are made durable (Cassandra's commitlog_sync). */
    public enum SyncMode { BATCH, PERIODIC }

    /** The body of a transaction; runs on the committer thread, so it must not block on other transactions. */
    @FunctionalInterface
    public interface Transaction<T> {
        T apply(TxContext ctx);
    }

    private static final int MAX_GROUP = 256;
    /**
     * A commit group's entry holds at most this much (unless one transaction alone is larger): a
     * transaction that would take it past this starts the next group. Ratis refuses an entry
     * larger than one appendEntries request (8 MB, RaftHost), and smaller entries keep the
     * rounds in flight, and what a failure takes with it, small.
     */
    static final int MAX_GROUP_BYTES = 3 << 20;
    /**
     * Rounds in flight at once on a replicated store. While they all are, the next group keeps
     * growing with what is queued, so a slow round makes the next entry larger rather than the
     * pipeline deeper (and a failure fails at most this many proposed groups besides the one built).
     */
    static final int MAX_IN_FLIGHT = 4;

    private final NodeStore store;
    private final HybridLogicalClock clock;
    /** Held from taking an SCN to writing its batch (see {@link #redoCompleteThrough()}). */
    private final Object scnLock = new Object();
    private final SyncMode mode;
    private final int threadNumber;
    private final BlockingQueue<Pending<?>> queue = new ArrayBlockingQueue<>(8192);
    private final Thread committer;
    private final ScheduledExecutorService periodicSync;
    private final List<Runnable> commitListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean open = true;
    /** The SCN of the newest redo batch written to the store (synced or not); a replicated store's: applied. */
    private volatile long lastWritten = Long.MIN_VALUE;
    /** Every batch at or below this SCN is durable: fsynced, or held by a majority of the replica group. */
    private volatile long durableThrough = Long.MIN_VALUE;
    /** Whether a batch was written (or proposed) that is not yet known durable; changed under {@link #scnLock}. */
    private volatile boolean undurable;

    private record Pending<T>(Transaction<T> tx, CompletableFuture<Committed<T>> done, boolean grouped) {
    }

    /** Queued when a round completes, so an idle committer wakes to retire it; runs nothing. */
    private static final Pending<Void> WAKE = new Pending<>(ctx -> null, null, false);

    /**
     * A commit group: its transactions' batches in SCN order, their writes for later transactions
     * to read until the store holds them, their acknowledgements, and — once proposed — its round.
     * Committer thread only.
     */
    private static final class Group {
        final WriteOverlay writes = new WriteOverlay();
        final List<byte[]> batches = new ArrayList<>();
        final List<Runnable> acks = new ArrayList<>();
        final List<CompletableFuture<?>> members = new ArrayList<>();
        long bytes;
        long lastScn = Long.MIN_VALUE;
        /** Once proposed with writes: its entry's commit group id, one more than the group it was built on. */
        long id;
        CompletableFuture<Void> round;

        boolean isEmpty() {
            return members.isEmpty();
        }

        void fail(Throwable e) {
            for (CompletableFuture<?> f : members) {
                f.completeExceptionally(e);
            }
        }
    }

    /** The group being built; committer thread only. */
    private Group group = new Group();
    /** Proposed groups not yet retired, oldest first; committer thread only. */
    private final ArrayDeque<Group> inFlight = new ArrayDeque<>();
    /** Rounds that failed (each failing the groups after it); committer thread only. */
    private long failedRounds;
    /**
     * A round of a replicated store failed, and what became of its entry is not known yet: a
     * proposal that timed out without a majority, or a leader's pending entry that the next leader
     * commits, is still in the group's log and may commit later, and so may the entries of the
     * groups proposed after it (failed with it, unapplied). Until an entry proposed after all of
     * them is applied, the store may lack writes that will still happen, and a retry of one of them
     * would find no idempotency key and apply a second time; so no transaction runs until then.
     * Committer thread only.
     */
    private boolean outcomeUnknown;
    /** The serialized form of an empty WriteBatch: the entry that settles {@link #outcomeUnknown}. */
    private static final byte[] EMPTY_BATCH = new byte[12];
    /** Acknowledgements due once the drained transactions are durable; committer thread only. */
    private final List<Runnable> acks = new ArrayList<>();

    /** A committed transaction: its SCN, its id and what its body returned. */
    public record Committed<T>(long scn, String transactionId, T result) {
    }

    private volatile java.util.function.LongConsumer latencyObserver;

    public CommitPipeline(NodeStore store, HybridLogicalClock clock, SyncMode mode, long periodMillis, int threadNumber) {
        this.store = store;
        this.clock = clock;
        this.mode = mode;
        this.threadNumber = threadNumber;
        this.committer = new Thread(this::loop, "tributary-committer");
        this.committer.setDaemon(true);
        this.committer.start();
        if (mode == SyncMode.PERIODIC) {
            periodicSync = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "tributary-wal-sync");
                t.setDaemon(true);
                return t;
            });
            periodicSync.scheduleWithFixedDelay(this::syncQuietly, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        } else {
            periodicSync = null;
        }
    }

    /** Called on the committer thread after each durable group (the capture's wake-up). */
    public void addCommitListener(Runnable r) {
        commitListeners.add(r);
    }

    /**
     * Queues a transaction. The future completes with its commit once it is durable (BATCH) or
     * written (PERIODIC), or exceptionally with whatever its body threw, or with an UNAVAILABLE
     * {@link TributaryException} when the queue is full or the pipeline is closed.
     */
    public <T> CompletableFuture<Committed<T>> submit(Transaction<T> tx) {
        return submit(tx, false);
    }

    /**
     * Hands each committed transaction's latency (submission to acknowledgement, in nanoseconds)
     * to {@code observer}, on the committer thread; for the node's metrics.
     */
    public void observeLatency(java.util.function.LongConsumer observer) {
        latencyObserver = observer;
    }

    /** Transactions queued for the committer now. */
    public int queued() {
        return queue.size();
    }

    /** With {@code grouped}, as {@link #commitInGroup}. */
    <T> CompletableFuture<Committed<T>> submit(Transaction<T> tx, boolean grouped) {
        CompletableFuture<Committed<T>> f = new CompletableFuture<>();
        java.util.function.LongConsumer observer = latencyObserver;
        if (observer != null) {
            long start = System.nanoTime();
            f.whenComplete((c, e) -> {
                if (e == null) {
                    observer.accept(System.nanoTime() - start);
                }
            });
        }
        // under the lock close() takes to shut, so nothing is queued after the committer drained the queue
        synchronized (queue) {
            if (!open) {
                f.completeExceptionally(shuttingDown());
                return f;
            }
            if (!queue.offer(new Pending<>(tx, f, grouped))) {
                f.completeExceptionally(new TributaryException(ErrorCode.UNAVAILABLE,
                        "write queue full (" + queue.size() + " pending); retry later"));
            }
        }
        return f;
    }

    private static TributaryException shuttingDown() {
        return new TributaryException(ErrorCode.UNAVAILABLE, "node is shutting down");
    }

    /** Runs a transaction and waits for it; its exception, if any, is rethrown as it was. */
    public <T> Committed<T> commit(Transaction<T> tx) {
        return join(submit(tx, false));
    }

    /**
     * As {@link #commit}, sharing one replicated write with the transactions queued beside it.
     * The body reads through {@link TxContext#get}, or calls {@link TxContext#settle()} before
     * reading the store any other way.
     */
    public <T> Committed<T> commitInGroup(Transaction<T> tx) {
        return join(submit(tx, true));
    }

    private static <T> Committed<T> join(CompletableFuture<Committed<T>> f) {
        try {
            return f.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw e;
        }
    }

    private void loop() {
        List<Pending<?>> drained = new ArrayList<>();
        while (open || !queue.isEmpty() || !inFlight.isEmpty() || !group.isEmpty()) {
            try {
                Pending<?> first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first != null) {
                    drained.add(first);
                    queue.drainTo(drained, MAX_GROUP - 1);
                    boolean unsettled = false; // one attempt per drain: a round without a majority takes its timeout
                    for (Pending<?> p : drained) {
                        if (p == WAKE) {
                            continue;
                        }
                        if (outcomeUnknown && (unsettled || !learnOutcomes())) {
                            unsettled = true;
                            p.done().completeExceptionally(outcomeNotKnown());
                            continue;
                        }
                        run(p);
                    }
                }
                // the rounds done so far, in order; then the group built meanwhile goes out, without the SCN lock
                boolean retired = retire();
                if (!group.isEmpty() && inFlight.size() < MAX_IN_FLIGHT) {
                    propose();
                }
                if (mode == SyncMode.BATCH && undurable && !store.replicated()) {
                    syncThroughLastWritten();
                }
                for (Runnable ack : acks) {
                    ack.run();
                }
                if (first != null || retired) {
                    runListeners();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException | Error e) {
                // the WAL sync failed: none of the drained transactions may be acknowledged as durable
                for (Pending<?> p : drained) {
                    if (p != WAKE) {
                        p.done().completeExceptionally(e);
                    }
                }
            } finally {
                drained.clear();
                acks.clear();
            }
        }
        // interrupted: whatever is still queued, built or in flight will never be acknowledged
        group.fail(shuttingDown());
        for (Group g : inFlight) {
            g.fail(shuttingDown());
        }
        for (Pending<?> p; (p = queue.poll()) != null; ) {
            if (p != WAKE) {
                p.done().completeExceptionally(shuttingDown());
            }
        }
    }

    private void runListeners() {
        for (Runnable l : commitListeners) {
            try {
                l.run();
            } catch (RuntimeException e) {
                // a listener's failure must not stop the others, nor fail the committed group
                System.getLogger(CommitPipeline.class.getName()).log(System.Logger.Level.ERROR,
                        "commit listener failed", e);
            }
        }
    }

    /**
     * An SCN at or below which every redo entry that will ever exist is already written and
     * durable: any transaction committed later gets a larger SCN. Captures read no redo above it,
     * so no consumer, queue or apply is handed a change a power loss could still erase; and they
     * use it to tell "caught up" from "an entry is being written", which is what lets a
     * consumer's safe time advance while no change is committed.
     */
    public long redoCompleteThrough() {
        if (undurable) {
            return durableThrough; // lock-free while writes flow: the capture never waits on the committer
        }
        // under the lock the committer holds from taking an SCN until its batch is written, no
        // SCN is handed out but unwritten; the next one handed out is above current() - 1
        synchronized (scnLock) {
            return undurable ? durableThrough : clock.current() - 1;
        }
    }

    /**
     * Makes every batch written so far durable, then says so. A replicated store's durable mark
     * moves as its rounds are retired instead ({@link #markReplicated}).
     */
    private void syncThroughLastWritten() {
        if (store.replicated()) {
            return;
        }
        long through = lastWritten;
        store.syncWal();
        synchronized (scnLock) {
            durableThrough = Math.max(durableThrough, through);
            if (lastWritten == through) {
                undurable = false;
            }
        }
    }

    /**
     * Every batch of a replicated store at or below {@code scn} is held by a majority and applied
     * here (the rounds are retired in order); the capture may read through it.
     */
    private void markReplicated(long scn) {
        synchronized (scnLock) {
            lastWritten = scn;
            durableThrough = Math.max(durableThrough, scn);
            if (group.batches.isEmpty() && !anyWriteInFlight()) {
                undurable = false;
            }
        }
    }

    private boolean anyWriteInFlight() {
        for (Group g : inFlight) {
            if (!g.batches.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private <T> void run(Pending<T> p) {
        boolean grouped = p.grouped() && store.replicated();
        synchronized (scnLock) {
            if (!grouped && !settle()) {
                // what it would read of the earlier groups is not in the store, and may never be
                p.done().completeExceptionally(groupFailed());
                return;
            }
            runLocked(p, grouped);
        }
    }

    private <T> void runLocked(Pending<T> p, boolean grouped) {
        long scn = clock.next();
        String txId = threadNumber + "." + Long.toHexString(scn);
        TxContext ctx = grouped ? new TxContext(store, scn, txId, this::earlierWrite, this::settleGroup)
                : new TxContext(store, scn, txId, TxContext.EarlierWrites.NONE, () -> { });
        try (WriteBatch batch = ctx.batch()) {
            T result = p.tx().apply(ctx);
            Committed<T> c = new Committed<>(scn, txId, result);
            Runnable ack = () -> p.done().complete(c);
            if (grouped) {
                // a member even when it wrote nothing: what it answers may rest on earlier writes not yet applied
                boolean afterWrite = ctx.hasAfterWrite();
                if (!group.isEmpty() && group.bytes + batchBytes(batch) > MAX_GROUP_BYTES) {
                    long failedBefore = failedRounds;
                    proposeWhenRoom(); // what this one read of the group stays in its overlay, in flight
                    if (failedRounds != failedBefore) {
                        p.done().completeExceptionally(groupFailed()); // it read writes that were lost
                        return;
                    }
                }
                addToGroup(ctx, batch, afterWrite ? null : ack, p.done());
                if (afterWrite) {
                    // what runs after the write (a DDL's dictionary change) needs it applied; the ack waits for both
                    if (!settle()) {
                        return; // failed with its group
                    }
                }
                ctx.runAfterWrite();
                if (afterWrite) {
                    ack.run();
                }
            } else if (store.replicated()) {
                if (batch.count() > 0) {
                    undurable = true; // before the write: a capture must never read a batch it thinks durable
                    try {
                        store.write(batch, false); // a round of its own, after every earlier group was applied
                    } catch (RuntimeException | Error e) {
                        outcomeUnknown = true; // its entry may still commit, as a failed group's may
                        throw e;
                    }
                    markReplicated(scn);
                }
                ctx.runAfterWrite();
                ack.run(); // every earlier group was acknowledged in settle(), every later one is not yet
            } else {
                if (batch.count() > 0) {
                    undurable = true; // before the write: a capture must never read a batch it thinks durable
                    store.write(batch, false);
                    lastWritten = scn;
                }
                acks.add(ack);
                ctx.runAfterWrite();
            }
        } catch (RuntimeException | Error e) {
            // an Error too: it must fail this transaction, not kill the committer and hang every later one
            p.done().completeExceptionally(e);
        }
    }

    private static long batchBytes(WriteBatch batch) {
        return batch.getDataSize();
    }

    /** What earlier grouped transactions wrote that the store may not hold yet: newest group first. */
    private byte[] earlierWrite(NodeStore.Family f, byte[] key) {
        byte[] v = group.writes.get(f, key);
        for (Iterator<Group> it = inFlight.descendingIterator(); v == null && it.hasNext(); ) {
            v = it.next().writes.get(f, key);
        }
        return v;
    }

    private void addToGroup(TxContext ctx, WriteBatch batch, Runnable ack, CompletableFuture<?> done) {
        if (batch.count() > 0) {
            undurable = true; // while the SCN lock is held: the capture must not read past this SCN until it is applied
            byte[] data;
            try {
                data = batch.data();
            } catch (RocksDBException e) {
                throw wrap(e);
            }
            group.batches.add(data);
            group.bytes += data.length;
            group.lastScn = ctx.scn();
            group.writes.putAll(ctx.writes());
        }
        if (ack != null) {
            group.acks.add(ack);
        }
        group.members.add(done);
    }

    /** {@link TxContext#settle()} of a grouped transaction. */
    private void settleGroup() {
        if (!settle()) {
            throw groupFailed();
        }
    }

    /** For a transaction that never joined a proposed group: it cannot have been applied. */
    private static TributaryException groupFailed() {
        return TributaryException.beforeApplying(ErrorCode.UNAVAILABLE,
                "an earlier transaction of the commit group was not replicated; retry");
    }

    /**
     * Proposes the group being built as one entry; it joins the rounds in flight (a group that
     * wrote nothing too: its members' answers may rest on the groups before it). The entry names
     * the group it was built on, the newest entry in flight or else the last group the store
     * applied, and every replica applies it only on top of that group ({@link NodeStore#propose(long,
     * List)}): when an earlier round never entered the log, this entry is applied nowhere.
     */
    private void propose() {
        Group g = group;
        group = new Group();
        if (g.batches.isEmpty()) {
            g.round = CompletableFuture.completedFuture(null);
        } else {
            CompletableFuture<Void> round;
            try {
                g.id = parentOfNextEntry() + 1;
                round = store.propose(g.id, g.batches);
            } catch (RuntimeException | Error e) {
                round = CompletableFuture.failedFuture(e);
            }
            g.round = round;
            // an idle committer waits on the queue: wake it to retire the round (a full queue wakes it anyway)
            round.whenComplete((v, e) -> queue.offer(WAKE));
        }
        inFlight.addLast(g);
    }

    /**
     * The group the next entry is built on: the newest one in flight, whose writes it read through
     * the overlays, or with none in flight the last one the store applied. With none in flight every
     * entry proposed before is decided: retired as applied, or failed, after which no group is built
     * until the barrier of {@link #learnOutcomes} is applied (and a new leader's instance starts once
     * every entry of earlier terms is applied).
     */
    private long parentOfNextEntry() {
        for (Iterator<Group> it = inFlight.descendingIterator(); it.hasNext(); ) {
            Group g = it.next();
            if (!g.batches.isEmpty()) {
                return g.id;
            }
        }
        return store.lastAppliedGroup();
    }

    /** Proposes the group being built once fewer than {@link #MAX_IN_FLIGHT} rounds are in flight. */
    private void proposeWhenRoom() {
        while (inFlight.size() >= MAX_IN_FLIGHT) {
            awaitOldest();
            retire();
        }
        if (!group.isEmpty()) {
            propose();
        }
    }

    private void awaitOldest() {
        inFlight.peekFirst().round.handle((v, e) -> null).join(); // a proposal fails by itself after its timeout
    }

    /**
     * Puts every earlier grouped transaction into the store: proposes the group being built and
     * retires every round in flight. Whether all of them were applied.
     */
    private boolean settle() {
        long failedBefore = failedRounds;
        if (!group.isEmpty()) {
            propose();
        }
        while (!inFlight.isEmpty()) {
            awaitOldest();
            retire();
        }
        return failedRounds == failedBefore;
    }

    /**
     * Retires the rounds done, oldest first, stopping at the first still in flight: an applied
     * group is acknowledged and the durable mark passes its SCNs; a failed one fails its members,
     * and every group proposed or built after it (they read its writes). Whether any was retired.
     */
    private boolean retire() {
        boolean any = false;
        while (!inFlight.isEmpty() && inFlight.peekFirst().round.isDone()) {
            Group g = inFlight.pollFirst();
            any = true;
            Throwable failure = failureOf(g.round);
            if (failure != null) {
                failFrom(g, failure);
                return true;
            }
            if (!g.batches.isEmpty()) {
                markReplicated(g.lastScn);
            }
            for (Runnable ack : g.acks) {
                ack.run();
            }
        }
        return any;
    }

    private void failFrom(Group failed, Throwable failure) {
        failedRounds++;
        outcomeUnknown = true;
        // the evidence when a write is found applied twice: which rounds failed, and that none ran on a stale view
        System.getLogger(CommitPipeline.class.getName()).log(System.Logger.Level.WARNING,
                "thread {0}: a commit round failed ({1} later group(s) fail with it); no transaction runs until the"
                        + " outcome of its entry is known: {2}", threadNumber, inFlight.size() + (group.isEmpty() ? 0 : 1),
                failure.getMessage());
        failed.fail(failure);
        String why = "an earlier commit group, whose writes this one read, was not replicated";
        TributaryException later = new TributaryException(ErrorCode.UNAVAILABLE, why + "; retry: " + failure.getMessage(), failure);
        TributaryException skipped = TributaryException.beforeApplying(ErrorCode.UNAVAILABLE,
                why + ", and this one was not applied; retry: " + failure.getMessage());
        for (Group g : inFlight) {
            // told when its own round ends: an entry skipped by the replicas (its parent is not in
            // the log) certainly was not applied; otherwise it may still commit, after the failed one
            g.round.whenComplete((v, e) -> g.fail(notApplied(e) ? skipped : later));
        }
        inFlight.clear();
        group.fail(TributaryException.beforeApplying(ErrorCode.UNAVAILABLE,
                why + "; this one was not proposed; retry: " + failure.getMessage()));
        group = new Group();
        // the durable mark stays where it is until a later round is applied: the failed entry may still commit
    }

    /**
     * Settles {@link #outcomeUnknown}: proposes an empty entry and waits for it. A group's log
     * commits in order and the proposal goes to this replica while it leads, so once that entry is
     * applied, every entry proposed before it is in the store or never will be (a new leader
     * truncated it); if this replica lost the lead meanwhile, the proposal fails and the instance
     * stops. Whether it was applied.
     */
    private boolean learnOutcomes() {
        CompletableFuture<Void> barrier;
        try {
            barrier = store.propose(List.of(EMPTY_BATCH));
        } catch (RuntimeException e) {
            return false;
        }
        if (failureOf(barrier) != null) {
            return false; // a proposal fails by itself after its timeout
        }
        outcomeUnknown = false;
        System.getLogger(CommitPipeline.class.getName()).log(System.Logger.Level.INFO,
                "thread {0}: every entry proposed before the failed round is applied or gone; transactions run again", threadNumber);
        return true;
    }

    private static TributaryException outcomeNotKnown() {
        return new TributaryException(ErrorCode.UNAVAILABLE,
                "an earlier commit group's outcome is not known yet (its entry may still commit); retry");
    }

    /** Whether a round's failure says its entry certainly was not applied (skipped by the replicas). */
    private static boolean notApplied(Throwable e) {
        Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
        return cause instanceof TributaryException te && te.notApplied();
    }

    private static Throwable failureOf(CompletableFuture<Void> round) {
        try {
            round.join();
            return null;
        } catch (java.util.concurrent.CompletionException e) {
            return e.getCause() != null ? e.getCause() : e;
        } catch (java.util.concurrent.CancellationException e) {
            return e;
        }
    }

    private void syncQuietly() {
        try {
            syncThroughLastWritten();
        } catch (RuntimeException e) {
            System.getLogger(CommitPipeline.class.getName()).log(System.Logger.Level.ERROR, "periodic WAL sync failed", e);
        }
    }

    public SyncMode mode() {
        return mode;
    }

    /** Stops taking transactions, commits every one already queued, and syncs the WAL. */
    @Override
    public void close() {
        synchronized (queue) {
            open = false;
        }
        try {
            committer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (periodicSync != null) {
            periodicSync.shutdownNow();
        }
        syncQuietly();
    }

    static RuntimeException wrap(RocksDBException e) {
        return dev.tributary.node.errors.StorageException.from("batch", e);
    }
}
