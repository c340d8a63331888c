package dev.tributary.capture.apply;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * An apply process: its coordinator reads whole transactions from the queue in commit order and
 * hands each to an apply server (a lane with its own destination connection), which applies it
 * as one destination transaction that also records it there. With {@code parallelism} above 1,
 * transactions that touch no common row run at once ({@link ApplySchedule}); DDL waits for all
 * before it and holds all after it; {@code FULL} commit serialization runs them one at a time.
 *
 * <p>The progress in the destination is the truth: the coordinator starts from it, and after a
 * failed connection — when it cannot know whether a commit happened — it lets the running
 * transactions end, then takes the apply over again (a new epoch) and reads it again. A
 * transaction the destination refuses goes whole to the error queue, in a destination
 * transaction that records it; with {@code disable_on_error} the apply then stops (ABORTED).
 * A transaction refused while it ran beside earlier ones runs again alone first: the refusal may
 * come from the order (a destination constraint the keys do not know).
 */
public final class ApplyWorker implements Runnable {
    /** Waits between tries of an unavailable destination; injected so simulations need no clock. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    /**
     * @param disableOnError    stop (ABORTED) after sending a transaction to the error queue
     * @param retryMillis       the wait before trying an unavailable destination again
     * @param batch             transactions read from the queue at once
     * @param parallelism       apply servers: transactions applied at once
     * @param fullSerialization commit in source commit order (commit_serialization FULL): one at a time
     */
    public record Options(boolean disableOnError, long retryMillis, int batch, Sleeper sleeper, int parallelism,
            boolean fullSerialization) {
        public Options {
            if (parallelism < 1 || batch < 1) {
                throw new IllegalArgumentException("parallelism and batch are at least 1");
            }
        }
    }

    private enum Outcome {
        APPLIED, ERROR_RECORDED, RETRY_ALONE, UNAVAILABLE, FAILED
    }

    private record Done(ApplyTransaction tx, ApplyDestination lane, Outcome outcome, boolean lowWatermark, RuntimeException error) {
    }

    private final String name;
    private final ApplySource source;
    private final Supplier<ApplyDestination> connect;
    private final Supplier<ApplyPolicy> policy;
    private final Function<ApplyTransaction, ApplySchedule.Keys> keys;
    private final Executor servers;
    private final Options options;
    private final BlockingQueue<Done> done = new LinkedBlockingQueue<>();
    private final Deque<ApplyDestination> freeLanes = new ArrayDeque<>();
    private final List<ApplyDestination> lanes = new ArrayList<>();
    /** Transactions whose instantiation check failed: they go to the error queue as they are. */
    private final Map<ApplyPosition, ApplyErrorException> refused = new HashMap<>();
    private ApplyDestination coordinator;
    private ApplySchedule schedule;
    /** Transactions handed to apply servers whose results are not collected yet. */
    private int inFlight;
    /** Transactions recorded above the destination's low watermark since it last moved. */
    private int recordedAbove;
    private static final int FOLD_EVERY = 100;
    private long epoch;
    /** The low watermark the destination holds. */
    private ApplyPosition stored;
    private volatile boolean running = true;
    private volatile ApplyState state = ApplyState.INITIALIZING;
    /** The low watermark: every transaction at or below it is in the destination (applied or in its error queue). */
    private volatile ApplyPosition committed;
    private volatile long appliedTransactions;
    private volatile long errorTransactions;
    private volatile String lastDestinationError;
    private volatile RuntimeException failure;

    /**
     * @param connect opens a connection to the destination; throws
     *                {@link DestinationUnavailableException} when it cannot
     * @param keys    the rows a transaction touches ({@link TransactionKeys})
     * @param servers runs the apply servers' work (a thread each for real parallelism)
     */
    public ApplyWorker(String name, ApplySource source, Supplier<ApplyDestination> connect, Supplier<ApplyPolicy> policy,
            Function<ApplyTransaction, ApplySchedule.Keys> keys, Executor servers, Options options) {
        this.name = name;
        this.source = source;
        this.connect = connect;
        this.policy = policy;
        this.keys = keys;
        this.servers = servers;
        this.options = options;
    }

    @Override
    public void run() {
        try {
            while (running) {
                if (open()) {
                    coordinate();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            state = ApplyState.SHUTTING_DOWN;
            closeAll();
        }
    }

    /** Takes the apply over at the destination and opens the apply servers' connections; false after a failure. */
    private boolean open() throws InterruptedException {
        closeAll();
        try {
            coordinator = connect.get();
            ApplyProgress p = coordinator.open(name);
            epoch = p.epoch();
            stored = p.lowWatermark();
            schedule = new ApplySchedule(p.lowWatermark(), p.above());
            committed = schedule.lowWatermark();
            for (int i = 0; i < options.parallelism(); i++) {
                ApplyDestination lane = connect.get();
                lanes.add(lane);
                freeLanes.add(lane);
            }
            refused.clear();
            lastDestinationError = null;
            return true;
        } catch (DestinationUnavailableException e) {
            lastDestinationError = e.getMessage();
            closeAll();
            state = ApplyState.WAITING_FOR_DESTINATION;
            options.sleeper().sleep(options.retryMillis());
            return false;
        }
    }

    /** Reads, dispatches and collects until the apply stops or the destination must be taken over again. */
    private void coordinate() throws InterruptedException {
        boolean again = false;
        int window = Math.max(options.batch(), 4 * options.parallelism());
        while (true) {
            boolean dispatching = running && !again;
            boolean read = false;
            if (dispatching && schedule.unfinished() < window) {
                for (ApplyTransaction tx : source.readAfter(schedule.read(), options.batch())) {
                    admit(tx);
                    read = true;
                }
            }
            if (dispatching) {
                for (ApplyTransaction tx : schedule.startable(freeLanes.size())) {
                    dispatch(tx);
                }
            }
            committed = schedule.lowWatermark();
            if (inFlight == 0) {
                if (!dispatching) {
                    if (again) {
                        state = ApplyState.WAITING_FOR_DESTINATION;
                        options.sleeper().sleep(options.retryMillis());
                    }
                    return;
                }
                if (!read) {
                    state = ApplyState.IDLE;
                    source.awaitNewer(schedule.read(), 200);
                }
                continue;
            }
            state = ApplyState.APPLYING;
            Done d = done.poll(200, TimeUnit.MILLISECONDS);
            if (d != null) {
                again |= !collect(d);
            }
        }
    }

    private void admit(ApplyTransaction tx) {
        ApplyPosition p = tx.position();
        if (schedule.finished(p)) {
            schedule.skip(p);
            return;
        }
        List<dev.tributary.capture.log.LogRecord> kept;
        try {
            kept = policy.get().instantiations().toApply(tx);
        } catch (ApplyErrorException e) {
            refused.put(p, e);
            schedule.add(tx, ApplySchedule.Keys.of(Set.of()));
            return;
        }
        if (kept.isEmpty()) {
            // all of it is older than the copy the destination was instantiated with: nothing to write
            schedule.skip(p);
            return;
        }
        ApplyTransaction t = tx.with(kept);
        schedule.add(t, options.fullSerialization() ? ApplySchedule.Keys.BARRIER : keys.apply(t));
    }

    private void dispatch(ApplyTransaction tx) {
        ApplyDestination lane = freeLanes.pop();
        boolean alone = schedule.firstUnfinished(tx.position());
        ApplyErrorException refusal = refused.get(tx.position());
        long e = epoch;
        ApplyPolicy p = policy.get();
        inFlight++;
        servers.execute(() -> done.add(serve(lane, tx, alone, refusal, e, p)));
    }

    /** One transaction on an apply server's connection. */
    private Done serve(ApplyDestination lane, ApplyTransaction tx, boolean alone, ApplyErrorException refusal, long epoch,
            ApplyPolicy p) {
        try {
            if (refusal != null) {
                lane.recordError(name, epoch, tx, refusal, alone);
                return new Done(tx, lane, Outcome.ERROR_RECORDED, alone, refusal);
            }
            try {
                lane.apply(name, epoch, tx, p, alone);
                return new Done(tx, lane, Outcome.APPLIED, alone, null);
            } catch (ApplyErrorException e) {
                if (!alone) {
                    return new Done(tx, lane, Outcome.RETRY_ALONE, false, e);
                }
                lane.recordError(name, epoch, tx, e, true);
                return new Done(tx, lane, Outcome.ERROR_RECORDED, true, e);
            }
        } catch (DestinationUnavailableException e) {
            return new Done(tx, lane, Outcome.UNAVAILABLE, alone, e);
        } catch (RuntimeException e) {
            return new Done(tx, lane, Outcome.FAILED, alone, e);
        }
    }

    /** Takes in an apply server's result; false when the destination must be taken over again. */
    private boolean collect(Done d) {
        inFlight--;
        freeLanes.push(d.lane());
        ApplyPosition p = d.tx().position();
        switch (d.outcome()) {
            case APPLIED, ERROR_RECORDED -> {
                schedule.finish(p);
                refused.remove(p);
                if (!d.lowWatermark()) {
                    recordedAbove++;
                } else if (p.compareTo(stored) > 0) {
                    stored = p;
                }
                if (d.outcome() == Outcome.APPLIED) {
                    appliedTransactions++;
                } else {
                    errorTransactions++;
                    if (options.disableOnError()) {
                        failure = d.error();
                        running = false;
                    }
                }
                return fold();
            }
            case RETRY_ALONE -> {
                schedule.retryAlone(p);
                return true;
            }
            case UNAVAILABLE -> {
                // the commit may have happened: once the others end, ask the destination how far it got
                lastDestinationError = d.error().getMessage();
                return false;
            }
            default -> {
                failure = d.error();
                running = false;
                return true;
            }
        }
    }

    /**
     * Moves the destination's low watermark up to the coordinator's, folding in the transactions
     * recorded above the old one: when the apply servers are all idle, or after
     * {@value #FOLD_EVERY} such records — not after each, which would double the destination
     * transactions of a busy parallel apply. Nothing depends on it but the size of that record.
     */
    private boolean fold() {
        ApplyPosition lw = schedule.lowWatermark();
        committed = lw;
        if (lw.compareTo(stored) <= 0 || (inFlight > 0 && recordedAbove < FOLD_EVERY)) {
            return true;
        }
        try {
            coordinator.advance(name, epoch, lw);
            stored = lw;
            recordedAbove = 0;
            return true;
        } catch (DestinationUnavailableException e) {
            lastDestinationError = e.getMessage();
            return false;
        }
    }

    private void closeAll() {
        for (ApplyDestination d : lanes) {
            closeQuietly(d);
        }
        lanes.clear();
        freeLanes.clear();
        done.clear();
        inFlight = 0;
        recordedAbove = 0;
        closeQuietly(coordinator);
        coordinator = null;
    }

    private static void closeQuietly(ApplyDestination d) {
        if (d != null) {
            try {
                d.close();
            } catch (RuntimeException ignored) {
                // the connection is being dropped, most often because it failed; its close failing says nothing more
            }
        }
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

    /** The low watermark, or null before the worker has connected. */
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
