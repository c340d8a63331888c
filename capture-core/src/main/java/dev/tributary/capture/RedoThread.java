package dev.tributary.capture;

import dev.tributary.capture.redo.RedoEntry;
import java.util.List;

/** One redo thread, as a capture that merges several reads it (a RAC capture reads every instance's thread). */
public interface RedoThread {
    /**
     * What one read returned.
     *
     * @param completeThrough the thread's {@link RedoSource#completeThrough()}, asked before the entries were read
     */
    record Batch(List<RedoEntry> entries, long completeThrough) {
        public Batch {
            entries = List.copyOf(entries);
        }
    }

    /**
     * Committed entries with SCN greater than {@code afterScn}, in SCN order, at most {@code max}.
     *
     * @throws ThreadUnavailableException when the thread cannot be read now (its node is down or
     *         unreachable): the merge waits for it rather than pass it by
     */
    Batch read(long afterScn, int max);

    /** A thread read in this process. */
    static RedoThread of(RedoSource source) {
        return (afterScn, max) -> {
            long complete = source.completeThrough();
            return new Batch(source.readAfter(afterScn, max), complete);
        };
    }

    /** A thread that cannot be read now; the capture waits for it. */
    final class ThreadUnavailableException extends RuntimeException {
        public ThreadUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
