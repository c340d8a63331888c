package dev.tributary.client;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.UUID;

/**
 * Where an LCR sits in its log: its CDC stream, its time (a timeuuid) and its place in the
 * batch. Reading changes "after" a position resumes just past that LCR. Immutable; the stream id
 * is copied in and handed out as fresh read-only views.
 */
public record LcrPosition(ByteBuffer streamId, UUID time, int batchSeqNo) {
    public LcrPosition {
        Objects.requireNonNull(streamId, "streamId");
        Objects.requireNonNull(time, "time");
        ByteBuffer d = streamId.duplicate();
        ByteBuffer copy = ByteBuffer.allocate(d.remaining());
        copy.put(d).flip();
        streamId = copy.asReadOnlyBuffer();
    }

    public static LcrPosition of(byte[] streamId, UUID time, int batchSeqNo) {
        return new LcrPosition(ByteBuffer.wrap(streamId), time, batchSeqNo);
    }

    /** A fresh read-only view of the stream id. */
    @Override
    public ByteBuffer streamId() {
        return streamId.asReadOnlyBuffer();
    }

    /** A copy of the stream id's bytes. */
    public byte[] streamIdBytes() {
        ByteBuffer d = streamId.duplicate();
        byte[] out = new byte[d.remaining()];
        d.get(out);
        return out;
    }

    @Override
    public String toString() {
        return "LcrPosition[" + Json.hex(streamId) + ", " + time + ", " + batchSeqNo + "]";
    }
}
