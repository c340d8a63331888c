package dev.tributary.capture;

import dev.tributary.capture.log.LogRecord;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.RowChange;
import dev.tributary.dictionary.DictionaryChange;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.schema.TableDef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A capture process's mining loop: reads the node's redo thread after its checkpoint, hands each
 * entry to its {@link RedoCapturer}, and enqueues the records together with the new checkpoint in
 * one atomic append, so a restart neither loses nor repeats one. An entry that cannot be captured
 * stops the capture (ABORTED) with the checkpoint right before it.
 *
 * <p>Runs on one thread ({@link #run()}); {@link #stop()} and the getters are thread-safe.
 */
public final class CaptureWorker implements Runnable {
    private static final Logger LOG = Logger.getLogger(CaptureWorker.class.getName());
    private static final int READ_BATCH = 512;

    private final String name;
    private final RedoSource redo;
    private final LogSink sink;
    private final RedoCapturer capturer;
    private volatile boolean running = true;
    private volatile CaptureState state = CaptureState.INITIALIZING;
    private volatile long capturedScn;
    private volatile long enqueued;
    private volatile String error;
    private volatile RuntimeException failure;
    private volatile boolean limitReached;
    private final Limits limits;
    private final int parallelism;
    private java.util.concurrent.ExecutorService preparers;
    private final java.util.function.LongSupplier nowMillis;

    /**
     * When a capture stops by itself (the capture seed's time_limit and message_limit); a
     * negative value is no limit.
     */
    public record Limits(long messages, long millis) {
        public static final Limits NONE = new Limits(-1, -1);
    }

    /**
     * @param name     the capture's name: the key of its checkpoint
     * @param capturer what the capture makes of each redo entry
     */
    public CaptureWorker(String name, RedoSource redo, LogSink sink, RedoCapturer capturer) {
        this(name, redo, sink, capturer, Limits.NONE, System::currentTimeMillis);
    }

    public CaptureWorker(String name, RedoSource redo, LogSink sink, RedoCapturer capturer, Limits limits,
            java.util.function.LongSupplier nowMillis) {
        this(name, redo, sink, capturer, limits, nowMillis, 1);
    }

    /**
     * @param parallelism the number of preparer threads: with more than one, the entries of each
     *                    read are captured in parallel and merged back in SCN order, so the queue is
     *                    the same whatever the parallelism
     */
    public CaptureWorker(String name, RedoSource redo, LogSink sink, RedoCapturer capturer, Limits limits,
            java.util.function.LongSupplier nowMillis, int parallelism) {
        this.parallelism = parallelism;
        this.limits = limits;
        this.nowMillis = nowMillis;
        this.name = name;
        this.redo = redo;
        this.sink = sink;
        this.capturer = capturer;
    }

    @Override
    public void run() {
        try {
            mine();
        } finally {
            if (preparers != null) {
                preparers.shutdownNow();
            }
        }
    }

    private void mine() {
        long checkpoint = sink.checkpoint(name);
        capturedScn = checkpoint;
        long startedAt = nowMillis.getAsLong();
        try {
            while (running) {
                if ((limits.messages() >= 0 && enqueued >= limits.messages())
                        || (limits.millis() >= 0 && nowMillis.getAsLong() - startedAt >= limits.millis())) {
                    limitReached = true; // stops where it left off: the checkpoint covers everything enqueued
                    break;
                }
                List<RedoEntry> entries = redo.readAfter(checkpoint, READ_BATCH);
                if (entries.isEmpty()) {
                    state = CaptureState.WAITING_FOR_REDO;
                    redo.awaitNewer(checkpoint, 200);
                    continue;
                }
                state = CaptureState.CAPTURING_CHANGES;
                List<LogRecord> records = new ArrayList<>();
                long last = checkpoint;
                RuntimeException failure = null;
                RedoEntry failed = null;
                List<java.util.concurrent.Future<List<LogRecord>>> prepared = prepare(entries);
                for (int i = 0; i < entries.size(); i++) {
                    RedoEntry e = entries.get(i);
                    try {
                        records.addAll(result(prepared, i, e));
                    } catch (RuntimeException ex) {
                        failure = ex;
                        failed = e;
                        break;
                    }
                    last = e.scn();
                    if (limits.messages() >= 0 && enqueued + records.size() >= limits.messages()) {
                        break; // the message limit falls inside this read: stop right after the entry that reached it
                    }
                }
                if (last != checkpoint) {
                    // the entries before a bad one are enqueued, so the checkpoint stops right before it
                    state = CaptureState.ENQUEUING_MESSAGE;
                    sink.append(name, records, last);
                    checkpoint = last;
                    capturedScn = last;
                    enqueued += records.size();
                }
                if (failure != null) {
                    abort(failed, failure);
                    return;
                }
            }
            state = CaptureState.SHUTTING_DOWN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            state = CaptureState.SHUTTING_DOWN;
        } catch (RuntimeException e) {
            // the redo source or the sink failed: stop where the checkpoint is, nothing is lost
            abort(null, e);
        }
    }

    /**
     * A record capture cannot turn into an LCR stops the capture where it is, so nothing after it
     * is enqueued out of order; the checkpoint stays right before the bad record.
     */
    private void abort(RedoEntry at, RuntimeException e) {
        failure = e;
        error = at == null ? "capture stopped after SCN " + capturedScn + ": " + e.getMessage()
                : "cannot capture the redo entry at SCN " + at.scn() + ": " + e.getMessage();
        state = CaptureState.ABORTED;
        LOG.log(Level.SEVERE, "capture " + name + " aborted after SCN " + capturedScn, e);
    }

    public String name() {
        return name;
    }

    public void stop() {
        running = false;
    }

    /** Whether {@link #stop()} was called (as opposed to stopping by itself). */
    public boolean stopRequested() {
        return !running;
    }

    public CaptureState state() {
        return state;
    }

    public long capturedScn() {
        return capturedScn;
    }

    public long totalEnqueued() {
        return enqueued;
    }

    /** Starts the preparers' work on a read: nothing when the capture runs with one preparer. */
    private List<java.util.concurrent.Future<List<LogRecord>>> prepare(List<RedoEntry> entries) {
        if (parallelism <= 1 || entries.size() < 2) {
            return null;
        }
        if (preparers == null) {
            java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
            preparers = java.util.concurrent.Executors.newFixedThreadPool(parallelism, r -> {
                Thread t = new Thread(r, name + "-preparer-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        List<java.util.concurrent.Future<List<LogRecord>>> out = new ArrayList<>(entries.size());
        for (RedoEntry e : entries) {
            out.add(preparers.submit(() -> capturer.capture(e)));
        }
        return out;
    }

    /** The builder: the records of entry i, in SCN order, rethrowing what its preparer raised. */
    private List<LogRecord> result(List<java.util.concurrent.Future<List<LogRecord>>> prepared, int i, RedoEntry e) {
        if (prepared == null) {
            return capturer.capture(e);
        }
        try {
            return prepared.get(i).get();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while merging prepared redo", ex);
        } catch (java.util.concurrent.ExecutionException ex) {
            throw ex.getCause() instanceof RuntimeException re ? re : new IllegalStateException(ex.getCause());
        }
    }

    /** Whether the capture stopped because it reached its time or message limit. */
    public boolean limitReached() {
        return limitReached;
    }

    /** The exception that aborted the capture, or null. */
    public RuntimeException failure() {
        return failure;
    }

    /** The error that aborted the capture, or null. */
    public String error() {
        return error;
    }
}
