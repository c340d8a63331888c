package dev.tributary.capture.apply;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * An apply process's persistent status (DBA_APPLY.STATUS), moved only as {@link #to} allows. What
 * survives a restart and decides whether the apply runs again where its queue is owned. Stored by
 * ordinal: new statuses go at the end.
 */
public enum ApplyStatus {
    /** Started: it runs, and starts again after a restart or on its queue's new owner. */
    ENABLED,
    /** New, or stopped: it does not run until started. */
    DISABLED,
    /** Stopped by an error (kept with the status, e.g. with disable_on_error); runs again once started. */
    ABORTED;

    private static final Map<ApplyStatus, Set<ApplyStatus>> NEXT = Map.of(
            DISABLED, EnumSet.of(ENABLED, DISABLED),
            ENABLED, EnumSet.of(ENABLED, DISABLED, ABORTED),
            ABORTED, EnumSet.of(ENABLED, DISABLED));

    /** The next status, if this one may move to it. */
    public ApplyStatus to(ApplyStatus next) {
        if (!NEXT.get(this).contains(next)) {
            throw new IllegalStateException("an apply process cannot go from " + this + " to " + next);
        }
        return next;
    }

    public boolean runs() {
        return this == ENABLED;
    }
}
