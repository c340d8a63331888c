package dev.tributary.node.write;

import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.time.HybridLogicalClock;
import java.util.ArrayList;
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
    /** The SCN of the newest redo batch written to the store (synced or not). */
    private volatile long lastWritten = Long.MIN_VALUE;
    /** Every batch at or below this SCN is durable: fsynced, or held by a majority of the replica group. */
    private volatile long durableThrough = Long.MIN_VALUE;
    /** Whether a batch was written that is not yet known durable; changed under {@link #scnLock}. */
    private volatile boolean undurable;

    private record Pending<T>(Transaction<T> tx, CompletableFuture<Committed<T>> done) {
    }

    /** A committed transaction: its SCN, its id and what its body returned. */
    public record Committed<T>(long scn, String transactionId, T result) {
    }

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
        CompletableFuture<Committed<T>> f = new CompletableFuture<>();
        // under the lock close() takes to shut, so nothing is queued after the committer drained the queue
        synchronized (queue) {
            if (!open) {
                f.completeExceptionally(shuttingDown());
                return f;
            }
            if (!queue.offer(new Pending<>(tx, f))) {
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
        try {
            return submit(tx).join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw e;
        }
    }

    private void loop() {
        List<Pending<?>> group = new ArrayList<>();
        List<Runnable> acks = new ArrayList<>();
        while (open || !queue.isEmpty()) {
            try {
                Pending<?> first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                group.add(first);
                queue.drainTo(group, MAX_GROUP - 1);
                for (Pending<?> p : group) {
                    run(p, acks);
                }
                if (mode == SyncMode.BATCH && undurable) {
                    syncThroughLastWritten();
                }
                for (Runnable ack : acks) {
                    ack.run();
                }
                runListeners();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException | Error e) {
                // the WAL sync failed: none of the group may be acknowledged as durable
                for (Pending<?> p : group) {
                    p.done().completeExceptionally(e);
                }
            } finally {
                group.clear();
                acks.clear();
            }
        }
        // interrupted: whatever is still queued will never run
        for (Pending<?> p; (p = queue.poll()) != null; ) {
            p.done().completeExceptionally(shuttingDown());
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
     * Makes every batch written so far durable, then says so. A replicated store's write returned
     * only once a majority held it, so its sync is a no-op and this only moves the mark.
     */
    private void syncThroughLastWritten() {
        long through = lastWritten;
        store.syncWal();
        synchronized (scnLock) {
            durableThrough = Math.max(durableThrough, through);
            if (lastWritten == through) {
                undurable = false;
            }
        }
    }

    private <T> void run(Pending<T> p, List<Runnable> acks) {
        synchronized (scnLock) {
            runLocked(p, acks);
        }
    }

    private <T> void runLocked(Pending<T> p, List<Runnable> acks) {
        long scn = clock.next();
        String txId = threadNumber + "." + Long.toHexString(scn);
        TxContext ctx = new TxContext(store, scn, txId);
        try (WriteBatch batch = ctx.batch()) {
            T result = p.tx().apply(ctx);
            if (batch.count() > 0) {
                undurable = true; // before the write: a capture must never read a batch it thinks durable
                store.write(batch, false);
                lastWritten = scn;
            }
            ctx.runAfterWrite();
            Committed<T> c = new Committed<>(scn, txId, result);
            acks.add(() -> p.done().complete(c));
        } catch (RuntimeException | Error e) {
            // an Error too: it must fail this transaction, not kill the committer and hang every later one
            p.done().completeExceptionally(e);
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
