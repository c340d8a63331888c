package dev.tributary.capture;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The persistent status of a capture or an apply process (DBA_CAPTURE.STATUS, DBA_APPLY.STATUS),
 * moved only as {@link #to} allows. The worker's activity is its state ({@link CaptureState},
 * {@code ApplyState}); this is what survives a restart and what decides whether the process runs
 * again when its queue moves to another node (CAP-RAC-2). Stored by ordinal: new statuses go at
 * the end.
 */
public enum ProcessStatus {
    /** Started: it runs, and starts again after a restart or on its queue's new owner. */
    ENABLED,
    /** New, or stopped: it does not run until started. */
    DISABLED,
    /** Stopped by an error (kept with the status, e.g. with disable_on_error); it does not run until started again. */
    ABORTED;

    private static final Map<ProcessStatus, Set<ProcessStatus>> NEXT = Map.of(
            // start_capture; stop_capture of a stopped capture changes nothing
            DISABLED, EnumSet.of(ENABLED, DISABLED),
            // start again (after a limit); stop_capture or disable_on_limit; an error
            ENABLED, EnumSet.of(ENABLED, DISABLED, ABORTED),
            // start_capture after fixing the cause; stop_capture
            ABORTED, EnumSet.of(ENABLED, DISABLED));

    /** The next status, if this one may move to it. */
    public ProcessStatus to(ProcessStatus next) {
        if (!NEXT.get(this).contains(next)) {
            throw new IllegalStateException("a Streams process cannot go from " + this + " to " + next);
        }
        return next;
    }

    /** Whether the process runs wherever its queue is owned: after a restart, or on a new owner node. */
    public boolean runs() {
        return this == ENABLED;
    }
}
