package dev.tributary.capture;

import dev.tributary.capture.redo.RedoEntry;
import java.util.List;

/** The redo thread a capture mines. Implementations are thread-safe. */
public interface RedoSource {
    /**
     * Committed entries with SCN greater than {@code afterScn}, in SCN order, at most {@code max}.
     * Never blocks. An entry that cannot be read ends the list: the entries before it are
     * returned, and a read that would start with it throws.
     *
     * @throws dev.tributary.dictionary.io.CorruptRecordException if the first entry after
     *         {@code afterScn} cannot be decoded
     */
    List<RedoEntry> readAfter(long afterScn, int max);

    /**
     * Blocks until an entry with SCN greater than {@code afterScn} may exist, or the timeout
     * passes. Spurious returns are allowed: callers read again.
     */
    void awaitNewer(long afterScn, long timeoutMillis) throws InterruptedException;

    /**
     * An SCN at or below which every entry that will ever be committed is already readable, or
     * {@link Long#MIN_VALUE} when the source cannot tell. A capture that reads nothing after its
     * position, having asked this before the read, has captured everything up to it.
     */
    default long completeThrough() {
        return Long.MIN_VALUE;
    }
}
