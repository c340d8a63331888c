package dev.tributary.capture;

import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.log.LogRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The buffered queues of a node (the capture seed's buffered queue): for each log, the records
 * captured into it that its live subscribers have not yet taken, in memory and bounded in bytes.
 * Captures {@link #awaitCapacity wait} while a queue they enqueue into is full — the seed's
 * PAUSED FOR FLOW CONTROL — so a slow consumer slows capture down instead of growing the heap;
 * they resume by themselves when the consumer catches up. Every record is also in the durable
 * log, so a queue without subscribers keeps nothing in memory and never pauses a capture, and a
 * consumer that falls out reads on from the log.
 *
 * <p>Thread-safe (one monitor).
 */
public final class BufferedQueues {
    private final long capacityBytes;
    private final Map<Long, Buffer> buffers = new HashMap<>();
    /** What all buffers may hold together: grows with the parallelism of the captures running (CAP-MULTI-1). */
    private StreamsPool pool;

    /**
     * @param capacityBytes the bound of each queue's buffer (estimated heap bytes), and the
     *                      Streams pool's base: with no capture running, all buffers together
     *                      hold no more than one
     */
    public BufferedQueues(long capacityBytes) {
        if (capacityBytes <= 0) {
            throw new IllegalArgumentException("buffered queue capacity must be positive, got " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
        this.pool = new StreamsPool(capacityBytes, 0);
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    /** The Streams pool now. */
    public synchronized StreamsPool pool() {
        return pool;
    }

    /**
     * Sizes the Streams pool for the captures running: called as they start, stop or change
     * parallelism. A larger pool wakes the captures paused on it.
     */
    public synchronized void setTotalParallelism(int total) {
        pool = pool.withTotalParallelism(total);
        notifyAll();
    }

    /** The bytes all buffers hold together now. */
    public synchronized long totalBufferedBytes() {
        long n = 0;
        for (Buffer b : buffers.values()) {
            n += b.bytes;
        }
        return n;
    }

    private static final class Buffer {
        final ArrayDeque<Entry> entries = new ArrayDeque<>();
        final Set<Subscription> subscribers = new LinkedHashSet<>();
        long nextSeq;
        long bytes;
    }

    private record Entry(long seq, LogRecord record, long bytes) {
    }

    /**
     * Blocks while any log the records go to holds {@code capacity} bytes or more, or all the
     * buffers together fill the Streams pool ({@link #setTotalParallelism}), or until
     * {@code keepWaiting} turns false (the capture was stopped); {@code onPause} runs once when
     * it starts waiting.
     *
     * @return whether it had to wait (the capture was paused for flow control)
     */
    public synchronized boolean awaitCapacity(Collection<LogRecord> records, BooleanSupplier keepWaiting, Runnable onPause)
            throws InterruptedException {
        boolean waited = false;
        while (keepWaiting.getAsBoolean() && full(records)) {
            if (!waited) {
                onPause.run();
            }
            waited = true;
            wait(100); // woken by a subscriber taking records; the timeout notices a stop
        }
        return waited;
    }

    private boolean full(Collection<LogRecord> records) {
        // the region is published whole, so it is weighed whole: a buffer takes it only if it stays
        // within its bound afterwards (an empty one takes any region, or one larger than the bound
        // would wait forever; CaptureWorker keeps regions to a quarter of the bound)
        Map<Long, Long> incoming = new HashMap<>();
        for (LogRecord r : records) {
            incoming.merge(r.logId(), estimatedBytes(r), Long::sum);
        }
        long total = -1;
        for (Map.Entry<Long, Long> in : incoming.entrySet()) {
            Buffer b = buffers.get(in.getKey());
            if (b == null || b.subscribers.isEmpty()) {
                continue; // nothing of it is kept in memory
            }
            if (b.bytes >= capacityBytes || (b.bytes > 0 && b.bytes + in.getValue() > capacityBytes)) {
                return true;
            }
            if (total < 0) {
                total = totalBufferedBytes();
            }
            if (total >= pool.budgetBytes()) {
                return true; // the queues together fill the Streams pool
            }
        }
        return false;
    }

    /** Stages records (already durable in the log) for the live subscribers of their logs. */
    public synchronized void publish(Collection<LogRecord> records) {
        for (LogRecord r : records) {
            Buffer b = buffers.get(r.logId());
            if (b == null || b.subscribers.isEmpty()) {
                continue; // nobody follows the log live: it is read from disk
            }
            long size = estimatedBytes(r);
            b.entries.addLast(new Entry(b.nextSeq++, r, size));
            b.bytes += size;
        }
        notifyAll();
    }

    /** The bytes a log's buffer holds now. */
    public synchronized long bufferedBytes(long logId) {
        Buffer b = buffers.get(logId);
        return b == null ? 0 : b.bytes;
    }

    /** How many live subscribers a log has now. */
    public synchronized int subscribers(long logId) {
        Buffer b = buffers.get(logId);
        return b == null ? 0 : b.subscribers.size();
    }

    /** A live subscription to a log: the records published from now on, in order. */
    public synchronized Subscription subscribe(long logId) {
        Buffer b = buffers.computeIfAbsent(logId, k -> new Buffer());
        Subscription s = new Subscription(logId, b.nextSeq);
        b.subscribers.add(s);
        return s;
    }

    /** Drops the entries every subscriber has taken; wakes paused captures. */
    private void release(Buffer b) {
        long min = Long.MAX_VALUE;
        for (Subscription s : b.subscribers) {
            min = Math.min(min, s.next);
        }
        while (!b.entries.isEmpty() && b.entries.peekFirst().seq() < min) {
            b.bytes -= b.entries.removeFirst().bytes();
        }
        notifyAll();
    }

    /** One consumer's place in a log's buffer. Close it when the consumer goes. */
    public final class Subscription implements AutoCloseable {
        private final long logId;
        private long next;
        private boolean closed;

        private Subscription(long logId, long next) {
            this.logId = logId;
            this.next = next;
        }

        public long logId() {
            return logId;
        }

        /**
         * The next records, at most {@code max}, waiting up to {@code timeoutMillis} for the first;
         * taking them frees their room in the buffer.
         */
        public List<LogRecord> poll(int max, long timeoutMillis) throws InterruptedException {
            synchronized (BufferedQueues.this) {
                Buffer b = buffers.get(logId);
                long deadline = System.currentTimeMillis() + timeoutMillis;
                while (!closed && (b.entries.isEmpty() || b.entries.peekLast().seq() < next)) {
                    long left = deadline - System.currentTimeMillis();
                    if (left <= 0) {
                        return List.of();
                    }
                    BufferedQueues.this.wait(left);
                }
                List<LogRecord> out = new ArrayList<>();
                for (Entry e : b.entries) {
                    if (e.seq() >= next && out.size() < max) {
                        out.add(e.record());
                        next = e.seq() + 1;
                    }
                }
                release(b);
                return out;
            }
        }

        @Override
        public void close() {
            synchronized (BufferedQueues.this) {
                if (closed) {
                    return;
                }
                closed = true;
                Buffer b = buffers.get(logId);
                b.subscribers.remove(this);
                if (b.subscribers.isEmpty()) {
                    b.entries.clear();
                    b.bytes = 0;
                }
                release(b);
            }
        }
    }

    /** An estimate of a record's heap footprint: the bound is on memory, so it counts values. */
    static long estimatedBytes(LogRecord r) {
        long n = 160; // the record, its position and its LCR header
        n += columns(r.image());
        if (r.lcr() instanceof dev.tributary.capture.lcr.RowLcr row) {
            n += columns(row.oldValues()) + columns(row.newValues()) + columns(row.extra());
        } else if (r.lcr() instanceof dev.tributary.capture.lcr.DdlLcr ddl) {
            n += 2L * (ddl.ddlText() == null ? 0 : ddl.ddlText().length());
        }
        return n;
    }

    private static long columns(List<LcrColumn> cols) {
        if (cols == null) {
            return 0;
        }
        long n = 0;
        for (LcrColumn c : cols) {
            n += 48 + 2L * c.name().length() + value(c.value());
        }
        return n;
    }

    private static long value(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof CharSequence s) {
            return 40 + 2L * s.length();
        }
        if (v instanceof byte[] b) {
            return 16 + b.length;
        }
        if (v instanceof dev.tributary.dictionary.types.Blob b) {
            return 32 + b.length();
        }
        if (v instanceof Collection<?> c) {
            long n = 32;
            for (Object o : c) {
                n += 16 + value(o);
            }
            return n;
        }
        if (v instanceof Map<?, ?> m) {
            long n = 48;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                n += 32 + value(e.getKey()) + value(e.getValue());
            }
            return n;
        }
        return 24;
    }
}
