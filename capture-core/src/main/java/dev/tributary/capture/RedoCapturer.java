package dev.tributary.capture;

import dev.tributary.capture.log.LogRecord;
import dev.tributary.capture.redo.RedoEntry;
import java.util.List;

/**
 * What a capture makes of one redo entry, in the two stages of the capture seed's "Capture
 * Process Components": {@link #prepare} runs on a preparer thread (several at once, on different
 * entries) and prefilters with partial information; {@link #build} runs on the capture thread, in
 * SCN order, and turns what prefiltering kept into LCRs, evaluates them fully where prefiltering
 * said MAYBE, transforms them and returns the log records to enqueue (none when the rules keep
 * nothing).
 *
 * <p>Implementations are deterministic, so recapturing an entry after a crash yields the same
 * records; an exception means the entry cannot be captured and aborts the capture.
 */
public interface RedoCapturer {
    /** Prefiltering; thread-safe. Never called for dictionary build entries. */
    PreparedEntry prepare(RedoEntry entry);

    /** Formatting, full evaluation and transformation of a prepared entry; on the capture thread. */
    List<LogRecord> build(PreparedEntry prepared, CaptureProgress progress);

    /**
     * Row changes and DDLs of user tables its rules rejected since it was made, in prefiltering or
     * in full evaluation (Oracle's rule-set evaluation discards); a capture without rules rejects none.
     * An entry read again after a rewind counts again. Thread-safe.
     */
    default long filteredByRules() {
        return 0;
    }

    /** Both stages on the calling thread. */
    default List<LogRecord> capture(RedoEntry entry) {
        return build(prepare(entry), CaptureProgress.NONE);
    }

    /** Where the capture thread reports the step it is in (the seed's CREATING LCR, EVALUATING RULE). */
    @FunctionalInterface
    interface CaptureProgress {
        CaptureProgress NONE = s -> { };

        void at(CaptureState state);
    }
}
