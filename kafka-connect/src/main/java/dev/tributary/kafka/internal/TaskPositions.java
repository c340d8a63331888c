package dev.tributary.kafka.internal;

import dev.tributary.client.LcrPosition;
import dev.tributary.client.PositionStore;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A {@link PositionStore} over Kafka Connect's committed offsets: a stream resumes just after the
 * last LCR whose record's offset was committed, so a restarted task sends again at most what was
 * sent after that commit (Connect's at-least-once) and skips nothing. Progress made in this run is
 * kept in memory; a stream another task reads (a parent of one of ours) is as far as its committed
 * offset says. Thread-safe.
 */
public final class TaskPositions implements PositionStore {
    private final String kind;
    private final String table;
    private final Function<Map<String, String>, Map<String, Object>> committed;
    private final Map<ByteBuffer, Long> through = new ConcurrentHashMap<>();

    /** @param committed the committed offset of a source partition, or null (the task's offset reader) */
    public TaskPositions(String table, Function<Map<String, String>, Map<String, Object>> committed) {
        this(Offsets.TABLE, table, committed);
    }

    /** @param kind {@link Offsets#TABLE} or {@link Offsets#QUEUE} */
    public TaskPositions(String kind, String log, Function<Map<String, String>, Map<String, Object>> committed) {
        this.kind = kind;
        this.table = log;
        this.committed = committed;
    }

    @Override
    public Optional<LcrPosition> load(ByteBuffer streamId) {
        return Offsets.position(streamId, committed.apply(Offsets.partition(kind, table, streamId)));
    }

    @Override
    public void delivered(ByteBuffer streamId, LcrPosition last, long throughMicros) {
        through.merge(copy(streamId), throughMicros, Math::max);
    }

    @Override
    public long deliveredThrough(ByteBuffer streamId) {
        long here = through.getOrDefault(copy(streamId), Long.MIN_VALUE);
        return Math.max(here, Offsets.throughMicros(committed.apply(Offsets.partition(kind, table, streamId))));
    }

    private static ByteBuffer copy(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        ByteBuffer c = ByteBuffer.allocate(d.remaining());
        c.put(d).flip();
        return c;
    }
}
