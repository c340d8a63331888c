package dev.tributary.client;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * One stream's hand-over to the handler: the batches a consumer releases for the stream, in
 * release order, each handled LCR by LCR, and what may be recorded as handled afterwards. No I/O
 * and no threads of its own; the consumer calls it on the stream's worker, one batch at a time.
 *
 * <p>The invariant it keeps (docs/CONSUMERS.md, "Group positions"): a recorded progress never
 * passes an LCR the handler did not take. A whole batch handled records "everything below the
 * release bound"; a batch stopped part-way (the handler threw, the consumer stopped) records
 * only up to its last handled LCR, and from then on <em>nothing</em> of the stream is recorded —
 * not even a later batch with no LCRs, whose bound lies past the LCRs the stopped batch left
 * unhandled. (That later empty batch once recorded its bound, so a resumed group member started
 * the stream past LCRs nobody had delivered.)
 */
final class StreamHandoff<T> {
    /** How far the stream is handled: the last LCR taken (null: none yet) and the time everything below is handled by. */
    record Handled(LcrPosition last, long throughMicros) {
    }

    /** What one batch came to: the progress to record (null: none), and the handler's failure (null: none). */
    record Outcome(Handled handled, Throwable failure, boolean complete) {
    }

    /** How the consumer's LCR type is handed over and positioned. */
    interface Lcrs<T> {
        /** Hands the LCR to the handler; returns its position. */
        LcrPosition handle(T lcr) throws Exception;

        long micros(T lcr);
    }

    private final Lcrs<T> lcrs;
    private boolean stopped;

    StreamHandoff(Lcrs<T> lcrs) {
        this.lcrs = lcrs;
    }

    /**
     * Hands a released batch to the handler while {@code running}; {@code through} is the release
     * bound (every LCR of the stream below it is in this batch or an earlier one).
     */
    Outcome deliver(List<T> batch, long through, BooleanSupplier running) {
        if (stopped) {
            return new Outcome(null, null, false); // an earlier batch left LCRs unhandled: nothing later counts
        }
        LcrPosition last = null;
        long lastMicros = Long.MIN_VALUE;
        for (T lcr : batch) {
            if (!running.getAsBoolean()) {
                return stop(last, lastMicros, null);
            }
            try {
                last = lcrs.handle(lcr);
            } catch (Exception | Error e) {
                return stop(last, lastMicros, e);
            }
            lastMicros = lcrs.micros(lcr);
        }
        return new Outcome(new Handled(last, through), null, true);
    }

    /** Whether a batch of this stream stopped part-way: the consumer delivers nothing more of it. */
    boolean stopped() {
        return stopped;
    }

    /**
     * Everything before the last handled LCR's time is handled (the batch is in position order);
     * LCRs at that same time after it are not, which "below its time" leaves out.
     */
    private Outcome stop(LcrPosition last, long lastMicros, Throwable failure) {
        stopped = true;
        return new Outcome(last == null ? null : new Handled(last, lastMicros), failure, false);
    }
}
