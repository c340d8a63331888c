package dev.tributary.capture;

import dev.tributary.capture.log.LogRecord;
import dev.tributary.capture.redo.RedoEntry;
import java.util.List;

/**
 * What a capture makes of one redo entry: the log records to enqueue (none when its rules keep
 * nothing). Implementations are deterministic, so recapturing an entry after a crash yields the
 * same records; an exception means the entry cannot be captured and aborts the capture.
 */
@FunctionalInterface
public interface RedoCapturer {
    List<LogRecord> capture(RedoEntry entry);
}
