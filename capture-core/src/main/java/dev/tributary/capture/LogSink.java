package dev.tributary.capture;

import dev.tributary.capture.log.LogRecord;
import java.util.List;

/**
 * Where a capture enqueues: the CDC logs (queues) and the capture's checkpoint, kept together so
 * that a restart neither loses nor repeats a record. Implementations are thread-safe.
 */
public interface LogSink {
    /**
     * Appends the records and moves the capture's checkpoint to {@code checkpointScn} in one
     * atomic write. Appending a record whose position already holds that record is a no-op
     * (enqueue is idempotent on the position).
     */
    void append(String captureName, List<LogRecord> records, long checkpointScn);

    /**
     * The sink cannot take records now for want of space, and will once space returns: the
     * capture waits and appends again rather than stop.
     */
    final class SinkFullException extends RuntimeException {
        public SinkFullException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The capture has everything durable through {@code scn} in the sink (its caught-up SCN
     * rose): readers waiting on a safe time may go on. Called on the capture's thread; quick.
     */
    default void caughtUp(String captureName, long scn) {
    }

    /** The capture's last checkpoint SCN; 0 if it never took one. */
    long checkpoint(String captureName);
}
