package dev.tributary.node.changes;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Runs one call's pump on {@link StreamReads}' shared pool in turns: at most one run at a time, a
 * wake during a run makes it run again, and a pump that used its turn with more to send goes back
 * behind the other calls' pumps rather than holding a pool thread. ReadStream and ReadStreams
 * calls both pump this way, so a busy call cannot starve the others. Thread-safe.
 */
final class PumpTurns {
    /** One turn of a call's pump; only ever run by one thread at a time. */
    interface Pump {
        /** Sends what it can; false when it stopped only because its turn was used up. */
        boolean pump();
    }

    private final Predicate<Runnable> execute;
    private final Pump pump;
    private final BooleanSupplier ended;
    private final Consumer<RuntimeException> failed;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile boolean pending;

    /**
     * @param execute runs a drain on the pool; false when the node is shutting down
     * @param ended   read between turns, on the pump's thread: the call has ended, nothing more to run
     * @param failed  told, on the pump's thread, of what a turn threw
     */
    PumpTurns(Predicate<Runnable> execute, Pump pump, BooleanSupplier ended, Consumer<RuntimeException> failed) {
        this.execute = execute;
        this.pump = pump;
        this.ended = ended;
        this.failed = failed;
    }

    /** Something may let the call send: runs the pump now, or again after the run under way. */
    void wake() {
        pending = true;
        if (running.compareAndSet(false, true) && !execute.test(this::drain)) {
            running.set(false); // the node is shutting down
        }
    }

    private void drain() {
        try {
            while (pending && !ended.getAsBoolean()) {
                pending = false;
                if (!pump.pump()) {
                    pending = true; // used its turn with more to send: requeue behind the others
                    break;
                }
            }
        } catch (RuntimeException e) {
            failed.accept(e);
        } finally {
            running.set(false);
        }
        if (pending && !ended.getAsBoolean()) {
            wake();
        }
    }
}
