package dev.tributary.capture;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * A capture process's persistent status (DBA_CAPTURE.STATUS), moved only as {@link #to} allows.
 * The worker's activity is {@link CaptureState}; this is what survives a restart and what decides
 * whether the capture runs again when its queue moves to another node (CAP-RAC-2). Stored by
 * ordinal: new statuses go at the end.
 */
public enum CaptureStatus {
    /** Started: it runs, and starts again after a restart or on its queue's new owner. */
    ENABLED,
    /** New, or stopped: it does not run until started. */
    DISABLED,
    /** Stopped by an error (kept with the status); it does not run until started again. */
    ABORTED;

    private static final Map<CaptureStatus, Set<CaptureStatus>> NEXT = Map.of(
            // start_capture; stop_capture of a stopped capture changes nothing
            DISABLED, EnumSet.of(ENABLED, DISABLED),
            // start again (after a limit); stop_capture or disable_on_limit; an error
            ENABLED, EnumSet.of(ENABLED, DISABLED, ABORTED),
            // start_capture after fixing the cause; stop_capture
            ABORTED, EnumSet.of(ENABLED, DISABLED));

    /** The next status, if this one may move to it. */
    public CaptureStatus to(CaptureStatus next) {
        if (!NEXT.get(this).contains(next)) {
            throw new IllegalStateException("a capture process cannot go from " + this + " to " + next);
        }
        return next;
    }

    /** Whether the capture runs wherever its queue is owned: after a restart, or on a new owner node. */
    public boolean runs() {
        return this == ENABLED;
    }
}
