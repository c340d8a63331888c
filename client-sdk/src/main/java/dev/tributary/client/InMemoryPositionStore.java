package dev.tributary.client;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link PositionStore#inMemory()}. */
final class InMemoryPositionStore implements PositionStore {
    private record Progress(LcrPosition last, long through) {
    }

    private final ConcurrentHashMap<ByteBuffer, Progress> progress = new ConcurrentHashMap<>();

    private static ByteBuffer key(ByteBuffer streamId) {
        ByteBuffer d = streamId.duplicate();
        ByteBuffer copy = ByteBuffer.allocate(d.remaining());
        copy.put(d).flip();
        return copy;
    }

    @Override
    public Optional<LcrPosition> load(ByteBuffer streamId) {
        Progress p = progress.get(key(streamId));
        return p == null ? Optional.empty() : Optional.ofNullable(p.last());
    }

    @Override
    public void delivered(ByteBuffer streamId, LcrPosition last, long throughMicros) {
        progress.merge(key(streamId), new Progress(last, throughMicros),
                (a, b) -> new Progress(b.last() != null ? b.last() : a.last(), Math.max(a.through(), b.through())));
    }

    @Override
    public long deliveredThrough(ByteBuffer streamId) {
        Progress p = progress.get(key(streamId));
        return p == null ? Long.MIN_VALUE : p.through();
    }
}
