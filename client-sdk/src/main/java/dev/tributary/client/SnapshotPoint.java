package dev.tributary.client;

import java.util.Objects;

/**
 * The point a node's table snapshot is as of: every transaction of the node's redo thread at or
 * below {@code scn} is in its rows, none above. A row LCR captured by that thread follows the
 * snapshot when its commit SCN is above {@code scn} ({@link SnapshotHandover}).
 *
 * @param hostId     the node (instance) that took the snapshot
 * @param redoThread its redo thread, the one in each of its LCRs' positions
 * @param scn        the snapshot's SCN on that thread
 */
public record SnapshotPoint(String hostId, int redoThread, long scn) {
    public SnapshotPoint {
        Objects.requireNonNull(hostId, "hostId");
    }

    /** The SCN's physical part: milliseconds since the epoch (an SCN is {@code millis << 16 | logical}). */
    public long millis() {
        return scn >>> 16;
    }
}
