package dev.tributary.client;

import java.nio.ByteBuffer;

/** A 16-byte stream id as a map key. */
record StreamKey(long high, long low) {
    static StreamKey of(ByteBuffer id) {
        ByteBuffer d = id.duplicate();
        if (d.remaining() != 16) {
            throw new IllegalArgumentException("a stream id has 16 bytes, got " + d.remaining());
        }
        return new StreamKey(d.getLong(), d.getLong());
    }

    ByteBuffer bytes() {
        return ByteBuffer.allocate(16).putLong(high).putLong(low).flip().asReadOnlyBuffer();
    }

    @Override
    public String toString() {
        return String.format("0x%016x%016x", high, low);
    }
}
