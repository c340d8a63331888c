package dev.tributary.capture.apply;

import java.util.List;

/** Where an apply process reads: the whole transactions of its queue, in commit order. */
public interface ApplySource {
    /**
     * Up to {@code limit} transactions after {@code after}, in commit order, only those that are
     * complete and below the sources' safe point: no transaction that commits before them can
     * still arrive.
     */
    List<ApplyTransaction> readAfter(ApplyPosition after, int limit);

    /** Waits at most {@code millis} for a transaction after {@code after}; may return early. */
    void awaitNewer(ApplyPosition after, long millis) throws InterruptedException;
}
