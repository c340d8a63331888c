package dev.tributary.capture.apply;

import java.util.List;
import java.util.function.Supplier;

/**
 * An apply process: reads whole transactions from its queue in commit order and applies each as
 * one destination transaction, which also moves the apply's progress there. One thread; it owns
 * its destination connection.
 *
 * <p>The progress in the destination is the truth: the worker starts from it, and after a failed
 * connection — when it cannot know whether the last commit happened — it reads it again. A
 * transaction the destination refuses goes whole to the error queue, in a destination
 * transaction that moves the progress past it; with {@code disable_on_error} the apply then
 * stops (ABORTED), as Oracle's does.
 */
public final class ApplyWorker implements Runnable {
    /** Waits between tries of an unavailable destination; injected so simulations need no clock. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    /**
     * @param disableOnError stop (ABORTED) after sending a transaction to the error queue
     * @param retryMillis    the wait before trying an unavailable destination again
     * @param batch          transactions read from the queue at once
     */
    public record Options(boolean disableOnError, long retryMillis, int batch, Sleeper sleeper) {
        public static final Options DEFAULT = new Options(true, 500, 100, Thread::sleep);
    }

    private final String name;
    private final ApplySource source;
    private final Supplier<ApplyDestination> connect;
    private final Supplier<ApplyPolicy> policy;
    private final Options options;
    private volatile boolean running = true;
    private volatile ApplyState state = ApplyState.INITIALIZING;
    /** The last transaction the destination holds (applied or in its error queue). */
    private volatile ApplyPosition committed;
    /** The last transaction read and dealt with: past {@link #committed} by those instantiation left nothing of. */
    private volatile ApplyPosition position;
    private volatile long appliedTransactions;
    private volatile long errorTransactions;
    private volatile String lastDestinationError;
    private volatile RuntimeException failure;

    /**
     * @param connect opens a connection to the destination; throws
     *                {@link DestinationUnavailableException} when it cannot
     */
    public ApplyWorker(String name, ApplySource source, Supplier<ApplyDestination> connect, Supplier<ApplyPolicy> policy,
            Options options) {
        this.name = name;
        this.source = source;
        this.connect = connect;
        this.policy = policy;
        this.options = options;
    }

    @Override
    public void run() {
        ApplyDestination dest = null;
        try {
            while (running) {
                if (dest == null) {
                    dest = open();
                    if (dest == null) {
                        continue;
                    }
                }
                List<ApplyTransaction> txs = source.readAfter(position, options.batch());
                if (txs.isEmpty()) {
                    state = ApplyState.IDLE;
                    source.awaitNewer(position, 200);
                    continue;
                }
                state = ApplyState.APPLYING;
                for (ApplyTransaction tx : txs) {
                    if (!running) {
                        break;
                    }
                    try {
                        applyOne(dest, tx);
                    } catch (DestinationUnavailableException e) {
                        // the commit may have happened: reconnect and ask the destination how far it got
                        lastDestinationError = e.getMessage();
                        dest = closeQuietly(dest);
                        state = ApplyState.WAITING_FOR_DESTINATION;
                        options.sleeper().sleep(options.retryMillis());
                        break;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            state = ApplyState.SHUTTING_DOWN;
            closeQuietly(dest);
        }
    }

    private ApplyDestination open() throws InterruptedException {
        ApplyDestination d = null;
        try {
            d = connect.get();
            ApplyPosition p = d.progress(name);
            committed = p;
            position = p;
            lastDestinationError = null;
            return d;
        } catch (DestinationUnavailableException e) {
            lastDestinationError = e.getMessage();
            closeQuietly(d);
            state = ApplyState.WAITING_FOR_DESTINATION;
            options.sleeper().sleep(options.retryMillis());
            return null;
        }
    }

    private void applyOne(ApplyDestination dest, ApplyTransaction tx) {
        ApplyPolicy p = policy.get();
        List<dev.tributary.capture.log.LogRecord> kept;
        try {
            kept = p.instantiations().toApply(tx);
        } catch (ApplyErrorException e) {
            error(dest, tx, e);
            return;
        }
        if (kept.isEmpty()) {
            // all of it is older than the copy the destination was instantiated with: nothing to write
            position = tx.position();
            return;
        }
        try {
            dest.apply(name, committed, tx.with(kept), p);
        } catch (ApplyErrorException e) {
            error(dest, tx, e);
            return;
        }
        committed = tx.position();
        position = tx.position();
        appliedTransactions++;
    }

    private void error(ApplyDestination dest, ApplyTransaction tx, ApplyErrorException e) {
        dest.recordError(name, committed, tx, e);
        committed = tx.position();
        position = tx.position();
        errorTransactions++;
        if (options.disableOnError()) {
            failure = e;
            running = false;
        }
    }

    private static ApplyDestination closeQuietly(ApplyDestination d) {
        if (d != null) {
            try {
                d.close();
            } catch (RuntimeException ignored) {
                // the connection is being dropped because it failed; its close failing says nothing more
            }
        }
        return null;
    }

    public void stop() {
        running = false;
    }

    public String name() {
        return name;
    }

    public ApplyState state() {
        return state;
    }

    /** The last transaction the destination holds, or null before the worker has connected. */
    public ApplyPosition committed() {
        return committed;
    }

    public long appliedTransactions() {
        return appliedTransactions;
    }

    public long errorTransactions() {
        return errorTransactions;
    }

    /** Why the destination could not be used lately, or null. */
    public String lastDestinationError() {
        return lastDestinationError;
    }

    /** What stopped the worker: the error that aborted it (disable_on_error), or a failure; null after a stop. */
    public RuntimeException failure() {
        return failure;
    }
}
