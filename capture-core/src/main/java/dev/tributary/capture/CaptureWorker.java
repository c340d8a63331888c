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

    /**
     * @param name     the capture's name: the key of its checkpoint
     * @param capturer what the capture makes of each redo entry
     */
    public CaptureWorker(String name, RedoSource redo, LogSink sink, RedoCapturer capturer) {
        this.name = name;
        this.redo = redo;
        this.sink = sink;
        this.capturer = capturer;
    }

    @Override
    public void run() {
        long checkpoint = sink.checkpoint(name);
        capturedScn = checkpoint;
        try {
            while (running) {
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
                for (RedoEntry e : entries) {
                    try {
                        records.addAll(capturer.capture(e));
                    } catch (RuntimeException ex) {
                        failure = ex;
                        failed = e;
                        break;
                    }
                    last = e.scn();
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
        error = at == null ? "capture stopped after SCN " + capturedScn + ": " + e
                : "cannot capture the redo entry at SCN " + at.scn() + ": " + e;
        state = CaptureState.ABORTED;
        LOG.log(Level.SEVERE, "capture " + name + " aborted after SCN " + capturedScn, e);
    }

    public String name() {
        return name;
    }

    public void stop() {
        running = false;
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

    /** The error that aborted the capture, or null. */
    public String error() {
        return error;
    }
}
