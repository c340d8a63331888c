package dev.tributary.client;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A CDC stream generation (vnode keyspaces): from {@code timestamp} on, writes whose token falls
 * in a vnode go to that vnode's streams. Immutable.
 */
public record GenerationInfo(Instant timestamp, List<VnodeStreams> vnodes) {
    public GenerationInfo {
        Objects.requireNonNull(timestamp, "timestamp");
        vnodes = List.copyOf(vnodes);
    }

    /** One vnode of a generation: its end token and its stream ids (read-only buffers). */
    public record VnodeStreams(long rangeEnd, List<ByteBuffer> streams) {
        public VnodeStreams {
            streams = streams.stream().map(ByteBuffer::asReadOnlyBuffer).toList();
        }

        @Override
        public String toString() {
            return "VnodeStreams[" + rangeEnd + ", " + streams.stream().map(Json::hex).toList() + "]";
        }
    }
}
