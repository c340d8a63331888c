package dev.tributary.bench;

import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.client.ChangeRecord;
import dev.tributary.client.LcrPosition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Follows a CDC log as it grows by re-reading it from the last position, one stream at a time.
 *
 * <p>Why per stream: a table's log is ordered by stream first, then time, so new LCRs land in
 * every stream, behind the position a single reader has already passed. Reading on from the last
 * position alone would skip every LCR written after the reader left a stream. So the follower
 * keeps one position per stream (starting at the epoch of each stream) and reads each stream after
 * its own position, stopping at the first LCR of the next stream. A pass over all streams costs one
 * ReadChanges call per stream; the read limit adapts to how many LCRs a stream had last pass, so a
 * read stopped early wastes little, and a stream with more than the limit is read again at once.
 *
 * <p>Each LCR is handed to the sink exactly once, in stream order. Not thread-safe: one thread
 * calls {@link #run()} or {@link #pollOnce()}; {@link #stop()} may come from any thread. A failure
 * of the source propagates out of {@code pollOnce} and ends {@code run} (see {@link #failure()}).
 */
public final class ChangeFollower implements LogFollower {
    static final int MIN_LIMIT = 16;
    static final int MAX_LIMIT = 2000;
    /** The earliest time in a stream: every LCR's time is after it, so reading after it reads the whole stream. */
    static final UUID EPOCH = TimeUuids.of(0, 0);
    private static final long MAX_IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final ChangeSource source;
    private final List<ByteBuffer> streams;
    private final LcrPosition[] positions;
    private final int[] lastPass;
    private final Consumer<ChangeRecord> sink;
    private volatile boolean stopped;
    private volatile RuntimeException failure;
    private volatile long reads;

    public ChangeFollower(ChangeSource source, List<ByteBuffer> streams, Consumer<ChangeRecord> sink) {
        if (streams.isEmpty()) {
            throw new IllegalArgumentException("a follower needs at least one stream");
        }
        this.source = source;
        this.streams = new ArrayList<>();
        for (ByteBuffer s : streams) {
            this.streams.add(s.asReadOnlyBuffer());
        }
        this.positions = new LcrPosition[streams.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = streamStart(this.streams.get(i));
        }
        this.lastPass = new int[streams.size()];
        this.sink = sink;
    }

    /** The position before every LCR of a stream. */
    public static LcrPosition streamStart(ByteBuffer stream) {
        return new LcrPosition(stream, EPOCH, 0);
    }

    /** Splits streams round-robin into {@code parts} shares, one per consumer thread. */
    public static List<List<ByteBuffer>> partition(List<ByteBuffer> streams, int parts) {
        List<List<ByteBuffer>> out = new ArrayList<>();
        for (int i = 0; i < parts; i++) {
            out.add(new ArrayList<>());
        }
        for (int i = 0; i < streams.size(); i++) {
            out.get(i % parts).add(streams.get(i));
        }
        out.removeIf(List::isEmpty);
        return out;
    }

    /** Passes over the streams until stopped, backing off (up to 20 ms) while nothing new arrives. */
    @Override
    public void run() {
        long idle = 0;
        try {
            while (!stopped) {
                if (pollOnce() > 0) {
                    idle = 0;
                } else {
                    idle = idle == 0 ? TimeUnit.MILLISECONDS.toNanos(1) : Math.min(MAX_IDLE_NANOS, idle * 2);
                    LockSupport.parkNanos(idle);
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    /** One pass: reads every stream after its position; returns how many LCRs went to the sink. */
    public int pollOnce() {
        int total = 0;
        for (int i = 0; i < streams.size() && !stopped; i++) {
            int limit = Math.min(MAX_LIMIT, Math.max(MIN_LIMIT, 2 * lastPass[i] + MIN_LIMIT));
            int inStream = 0;
            while (true) {
                int n = readStream(i, limit);
                inStream += n;
                if (n < limit || stopped) {
                    break;
                }
                limit = Math.min(MAX_LIMIT, limit * 2); // more than the limit arrived: read on at once
            }
            lastPass[i] = inStream;
            total += inStream;
        }
        return total;
    }

    private int readStream(int i, int limit) {
        ByteBuffer stream = streams.get(i);
        int n = 0;
        reads++;
        try (ChangeCursor c = source.open(positions[i], limit)) {
            while (c.hasNext()) {
                ChangeRecord r = c.next();
                LcrPosition p = r.position();
                if (p == null || !p.streamId().equals(stream)) {
                    break; // the next stream starts: this one has nothing more for now
                }
                positions[i] = p;
                n++;
                sink.accept(r);
            }
        }
        return n;
    }

    @Override
    public void stop() {
        stopped = true;
    }

    /** The failure that ended {@link #run()}, or null. */
    @Override
    public RuntimeException failure() {
        return failure;
    }

    /** ReadChanges calls made so far. */
    @Override
    public long reads() {
        return reads;
    }

    public int streamCount() {
        return streams.size();
    }
}
