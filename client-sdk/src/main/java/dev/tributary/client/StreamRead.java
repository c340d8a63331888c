package dev.tributary.client;

import com.google.protobuf.ByteString;
import dev.tributary.protocol.v1.LcrPosition;
import dev.tributary.protocol.v1.StreamOpen;
import java.util.ArrayDeque;

/**
 * One stream read from one node: what the node sent and not yet released, and how far the node
 * vouches for the stream. Touched only on the consumer's loop thread.
 */
final class StreamRead {
    final StreamKey key;
    final ByteString wireId;
    final NodeReader node;
    /** Where the stream's reading starts when nothing was received from this node yet. */
    private final StreamOpen origin;
    final ArrayDeque<HeldLcr> buffer = new ArrayDeque<>();
    long safe = Long.MIN_VALUE;
    boolean reported;
    LcrPosition lastReceived;
    /** Its node's call failed: nothing comes until the retry reopens it (with every stream of that node). */
    boolean failed;
    /** The seq of its open on the node's current call. */
    long openSeq;

    StreamRead(StreamKey key, StreamOpen origin, NodeReader node) {
        this.key = key;
        this.wireId = origin.getStreamId();
        this.origin = origin;
        this.node = node;
    }

    /** Where a (re)opened read starts: after what it received, else where the stream starts. */
    StreamOpen.Builder open() {
        return lastReceived != null ? StreamOpen.newBuilder().setStreamId(wireId).setAfter(lastReceived)
                : origin.toBuilder();
    }

    /** Forgets what it holds, so that it is read again from just after {@code lastReleased} (null: from the origin). */
    void rewind(LcrPosition lastReleased) {
        buffer.clear();
        lastReceived = lastReleased;
        safe = Long.MIN_VALUE;
        reported = false;
    }
}
