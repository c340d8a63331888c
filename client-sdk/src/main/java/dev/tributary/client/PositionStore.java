package dev.tributary.client;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Where a {@link ChangeConsumer} keeps how far each stream is delivered, and where it resumes
 * from: the seam for consumer groups, which keep this in the cluster and share it between
 * members. Called from the consumer's threads; implementations are thread-safe.
 */
public interface PositionStore {
    /** The last LCR delivered in a stream, to resume after; empty to use the start position. */
    Optional<LcrPosition> load(ByteBuffer streamId);

    /**
     * Every LCR of the stream with a time below {@code throughMicros} has been handled;
     * {@code last} is the last one handled, or null when none yet.
     */
    void delivered(ByteBuffer streamId, LcrPosition last, long throughMicros);

    /** How far the stream is delivered (see {@link #delivered}), {@link Long#MIN_VALUE} when unknown. */
    long deliveredThrough(ByteBuffer streamId);

    /** A store in memory: positions live as long as the consumer. */
    static PositionStore inMemory() {
        return new InMemoryPositionStore();
    }
}
