package dev.tributary.capture;

import dev.tributary.capture.log.LogRecord;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.dictionary.logminer.LogMinerDictionary;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A capture process's mining loop, the seed's "Capture Process Components": the reader reads the
 * node's redo thread after the capture's position in regions of at most {@value #READ_BATCH}
 * entries (fewer when entries are big: {@link #REGION_ROWS}) and mines the LogMiner dictionary as
 * it goes; {@code parallelism} preparers prefilter the region's entries in parallel
 * ({@link RedoCapturer#prepare}); the builder takes their results back in SCN order and the
 * capture thread builds the LCRs ({@link RedoCapturer#build}) and enqueues them together with
 * the new checkpoint in one atomic append, so a restart neither loses nor repeats one. Before
 * enqueuing into a full buffered queue it waits: PAUSED FOR FLOW CONTROL. An entry that cannot
 * be captured stops the capture (ABORTED) with the checkpoint right before it.
 *
 * <p>The reader, the builder and the capture thread are the one thread that runs {@link #run()};
 * the preparers are a pool of {@code parallelism} threads when it is above 1. {@link #stop()} and
 * the getters are thread-safe.
 */
public final class CaptureWorker implements Runnable {
    private static final Logger LOG = Logger.getLogger(CaptureWorker.class.getName());
    private static final int READ_BATCH = 512;
    /**
     * Rows a region should hold: a capture paused for flow control holds its region, and 512
     * entries of 500-row transactions are 256,000 row changes (RELIABILITY P5). Reads are sized
     * from the rows per entry of the read before, so a run of big entries is read a few at a time.
     */
    static final int REGION_ROWS = 8192;
    /** How often a capture whose sink is full tries again (nothing tells it when space returns). */
    private static final long SINK_FULL_RETRY_MILLIS = 200;
    /** Records held before they are enqueued mid-region, so big batches do not pile up in the heap. */
    private static final int FLUSH_RECORDS = 8192;

    /**
     * When a capture stops by itself (the capture seed's time_limit and message_limit); a
     * negative value is no limit.
     */
    public record Limits(long messages, long millis) {
        public static final Limits NONE = new Limits(-1, -1);
    }

    /** Sees every state change (the state and its detail, or null); called on the capture's thread. */
    @FunctionalInterface
    public interface StateListener {
        StateListener NONE = (s, d) -> { };

        void changed(CaptureState state, String detail);
    }

    /**
     * How a capture runs.
     *
     * @param parallelism the number of preparer threads: with more than one, the entries of a
     *                    region are prefiltered in parallel and merged back in SCN order, so the
     *                    queue is the same whatever the parallelism
     * @param dictionary  the capture's LogMiner dictionary, or null to decode with the node's
     *                    primary dictionary (the implicit CDC capture, which sees every DDL)
     * @param queues      the buffered queues for flow control, or null for none
     */
    public record Options(Limits limits, int parallelism, LongSupplier nowMillis, LogMinerDictionary dictionary,
            BufferedQueues queues, StateListener listener) {
        public static final Options DEFAULT = new Options(Limits.NONE, 1, System::currentTimeMillis, null, null,
                StateListener.NONE);

        public Options {
            if (parallelism < 1) {
                throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
            }
        }
    }

    private final String name;
    private final RedoSource redo;
    private final LogSink sink;
    private final RedoCapturer capturer;
    private final Options options;
    private final LogMinerSession session;
    private volatile boolean running = true;
    private volatile CaptureState state = CaptureState.INITIALIZING;
    private volatile String stateDetail;
    private volatile long stateChangedMillis;
    private volatile long capturedScn;
    private volatile long caughtUpScn;
    private volatile long enqueued;
    private volatile long scanned;
    private volatile long flowControlPauses;
    private volatile String error;
    private volatile RuntimeException failure;
    private volatile boolean limitReached;
    private ExecutorService preparers;

    /** @param name the capture's name: the key of its checkpoint */
    public CaptureWorker(String name, RedoSource redo, LogSink sink, RedoCapturer capturer) {
        this(name, redo, sink, capturer, Options.DEFAULT);
    }

    public CaptureWorker(String name, RedoSource redo, LogSink sink, RedoCapturer capturer, Options options) {
        this.name = name;
        this.redo = redo;
        this.sink = sink;
        this.capturer = capturer;
        this.options = options;
        this.session = new LogMinerSession(options.dictionary());
        this.stateChangedMillis = options.nowMillis().getAsLong();
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

    private void state(CaptureState s, String detail) {
        if (s != state || !java.util.Objects.equals(detail, stateDetail)) {
            state = s;
            stateDetail = detail;
            stateChangedMillis = options.nowMillis().getAsLong();
            options.listener().changed(s, detail);
        }
    }

    private void state(CaptureState s) {
        state(s, null);
    }

    private void mine() {
        long checkpoint = sink.checkpoint(name);
        long position = checkpoint;
        capturedScn = checkpoint;
        caughtUpScn = Math.max(caughtUpScn, checkpoint);
        long startedAt = options.nowMillis().getAsLong();
        Limits limits = options.limits();
        int readBatch = READ_BATCH;
        try {
            while (running) {
                if ((limits.messages() >= 0 && enqueued >= limits.messages())
                        || (limits.millis() >= 0 && options.nowMillis().getAsLong() - startedAt >= limits.millis())) {
                    limitReached = true; // stops where it left off: the checkpoint covers everything enqueued
                    break;
                }
                long complete = redo.completeThrough(); // before the read: see caughtUpScn()
                List<RedoEntry> entries = redo.readAfter(position, readBatch);
                readBatch = nextReadBatch(entries, readBatch);
                if (entries.isEmpty()) {
                    if (session.loaded() && position == checkpoint && complete > caughtUpScn) {
                        caughtUpScn = complete;
                        sink.caughtUp(name, complete);
                    }
                    state(session.loaded() ? CaptureState.WAITING_FOR_REDO : CaptureState.WAITING_FOR_DICTIONARY_REDO);
                    redo.awaitNewer(position, 200);
                    continue;
                }
                Region region = read(entries);
                List<LogRecord> records = new ArrayList<>();
                long recordBytes = 0;
                long last = position;
                RuntimeException failure = region.failure;
                RedoEntry failed = region.failure == null ? null : entries.get(region.slots.size());
                for (int i = 0; i < region.slots.size(); i++) {
                    RedoEntry e = entries.get(i);
                    try {
                        PreparedEntry p = merged(region.slots.get(i));
                        if (p != null) {
                            state(CaptureState.CAPTURING_CHANGES);
                            List<LogRecord> built = capturer.build(p, this::state);
                            records.addAll(built);
                            for (LogRecord r : built) {
                                recordBytes += BufferedQueues.estimatedBytes(r);
                            }
                        }
                    } catch (RuntimeException ex) {
                        failure = ex;
                        failed = e;
                        break;
                    }
                    last = e.scn();
                    scanned++;
                    if ((records.size() >= FLUSH_RECORDS || recordBytes >= flushBytes()) && session.loaded()) {
                        enqueue(records, last);
                        checkpoint = last;
                        records = new ArrayList<>();
                        recordBytes = 0;
                    }
                    if (limits.messages() >= 0 && enqueued + records.size() >= limits.messages()) {
                        break; // the message limit falls inside this region: stop right after the entry that reached it
                    }
                }
                if (region.rewindTo >= 0) {
                    last = region.rewindTo;
                }
                position = last;
                if (session.loaded() && last != checkpoint) {
                    enqueue(records, last);
                    checkpoint = last;
                }
                if (failure != null) {
                    abort(failed, failure);
                    return;
                }
                if (session.loaded()) {
                    state(CaptureState.CAPTURING_CHANGES);
                }
            }
            state(CaptureState.SHUTTING_DOWN);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            state(CaptureState.SHUTTING_DOWN);
        } catch (RuntimeException e) {
            // the redo source or the sink failed: stop where the checkpoint is, nothing is lost
            abort(null, e);
        }
    }

    /** How many entries to read next, so that entries the size of {@code read}'s hold about {@value #REGION_ROWS} rows. */
    static int nextReadBatch(List<RedoEntry> read, int current) {
        if (read.isEmpty()) {
            return current;
        }
        long rows = 0;
        for (RedoEntry e : read) {
            rows += Math.max(1, e.rows().size()); // a DDL or build entry counts as one
        }
        return (int) Math.max(1, Math.min(READ_BATCH, (long) read.size() * REGION_ROWS / rows));
    }

    /**
     * The entries the reader mined, each as null (nothing to capture), a prepared entry or a
     * preparer's future; a failure while mining ends the region at the entry that failed.
     */
    private record Region(List<Object> slots, RuntimeException failure, long rewindTo) {
    }

    /** The reader: mines each entry in order, then hands the changes to the preparers. */
    private Region read(List<RedoEntry> entries) {
        boolean parallel = options.parallelism() > 1 && entries.size() > 1;
        List<Object> slots = new ArrayList<>(entries.size());
        for (RedoEntry e : entries) {
            boolean change;
            boolean wasLoaded = session.loaded();
            try {
                change = session.mine(e, this::state);
            } catch (RuntimeException ex) {
                return new Region(slots, ex, -1);
            }
            if (!wasLoaded && session.loaded()) {
                // the changes committed between the build's first and last record could not be
                // decoded when they were read: read again from the build's SCN
                slots.add(null);
                return new Region(slots, null, options.dictionary().buildScn());
            }
            if (!change) {
                slots.add(null);
            } else if (parallel) {
                slots.add(preparers().submit(() -> capturer.prepare(e)));
            } else {
                slots.add(e);
            }
        }
        return new Region(slots, null, -1);
    }

    private ExecutorService preparers() {
        if (preparers == null) {
            AtomicInteger n = new AtomicInteger();
            preparers = Executors.newFixedThreadPool(options.parallelism(), r -> {
                Thread t = new Thread(r, name + "-preparer-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        return preparers;
    }

    /** The builder: a slot's prepared entry, rethrowing what its preparer raised. */
    private PreparedEntry merged(Object slot) {
        if (slot == null) {
            return null;
        }
        if (slot instanceof RedoEntry e) {
            return capturer.prepare(e);
        }
        try {
            return ((Future<?>) slot).get() instanceof PreparedEntry p ? p : null;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while merging prepared redo", ex);
        } catch (ExecutionException ex) {
            throw ex.getCause() instanceof RuntimeException re ? re : new IllegalStateException(ex.getCause());
        }
    }

    /**
     * The estimated bytes at which a region is enqueued early: a quarter of the queues' bound, so
     * a region never holds a slow subscriber's buffer far past it (8,192 small records were 3 MB
     * over a 1 MiB bound; large values would be far more).
     */
    private long flushBytes() {
        BufferedQueues queues = options.queues();
        return queues == null ? Long.MAX_VALUE : Math.max(1, queues.capacityBytes() / 4);
    }

    private void enqueue(List<LogRecord> records, long checkpointScn) throws InterruptedException {
        BufferedQueues queues = options.queues();
        if (queues != null && !records.isEmpty()) {
            if (queues.awaitCapacity(records, () -> running, () -> state(CaptureState.PAUSED_FOR_FLOW_CONTROL))) {
                flowControlPauses++;
            }
        }
        state(CaptureState.ENQUEUING_MESSAGE);
        while (true) {
            try {
                sink.append(name, records, checkpointScn);
                break;
            } catch (LogSink.SinkFullException full) {
                // the disk is full: the redo keeps everything from the checkpoint, so waiting loses nothing
                if (!running) {
                    throw new InterruptedException("stopped while waiting for space: " + full.getMessage());
                }
                state(CaptureState.PAUSED_FOR_FLOW_CONTROL);
                Thread.sleep(SINK_FULL_RETRY_MILLIS);
            }
        }
        if (queues != null) {
            queues.publish(records);
        }
        capturedScn = checkpointScn;
        caughtUpScn = Math.max(caughtUpScn, checkpointScn);
        enqueued += records.size();
    }

    /**
     * A record capture cannot turn into an LCR stops the capture where it is, so nothing after it
     * is enqueued out of order; the checkpoint stays right before the bad record.
     */
    private void abort(RedoEntry at, RuntimeException e) {
        failure = e;
        error = at == null ? "capture stopped after SCN " + capturedScn + ": " + e.getMessage()
                : "cannot capture the redo entry at SCN " + at.scn() + ": " + e.getMessage();
        state(CaptureState.ABORTED);
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

    /** The state in the seed's words, with its detail: {@code MINING (PROCESSED SCN = 42)}. */
    public String stateDescription() {
        String d = stateDetail;
        return d == null ? state.wording() : state.wording() + " (" + d + ")";
    }

    /** When the state last changed (V$STREAMS_CAPTURE.STATE_CHANGED_TIME), in epoch millis. */
    public long stateChangedMillis() {
        return stateChangedMillis;
    }

    public long capturedScn() {
        return capturedScn;
    }

    /**
     * An SCN at or below which every committed redo entry has been captured and enqueued: the
     * captured SCN, or — when the capture found nothing after it — the redo source's
     * {@link RedoSource#completeThrough()} as asked before that read, so it advances while no
     * change is committed. An entry not yet captured has a larger SCN. Never decreases.
     */
    public long caughtUpScn() {
        return caughtUpScn;
    }

    public long totalEnqueued() {
        return enqueued;
    }

    /** Row changes and DDLs its rules rejected since the capture started ({@link RedoCapturer#filteredByRules}). */
    public long totalFiltered() {
        return capturer.filteredByRules();
    }

    /** The redo entries scanned since the capture started (V$STREAMS_CAPTURE.TOTAL_MESSAGES_CAPTURED). */
    public long totalScanned() {
        return scanned;
    }

    /** How many times the capture paused for flow control. */
    public long flowControlPauses() {
        return flowControlPauses;
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
