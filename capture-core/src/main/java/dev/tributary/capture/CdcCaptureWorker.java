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
 * The implicit capture of every table with {@code cdc = {'enabled': true}}: mines the node's
 * redo thread from its checkpoint, resolves each record through the dictionary version at the
 * record's SCN, and enqueues row and DDL LCRs into each table's {@code _scylla_cdc_log} — the
 * records and the new checkpoint in one atomic append.
 *
 * <p>A redo entry that cannot be captured (it does not decode against the dictionary of its SCN,
 * or names no CDC stream) makes the capture {@link CaptureState#ABORTED} with {@link #error()} set:
 * the entries before it are enqueued, it and every later entry are not, and the checkpoint stays
 * right before it, so a new worker retries it.
 *
 * <p>Runs on one thread ({@link #run()}); {@link #stop()} and the getters are thread-safe.
 */
public final class CdcCaptureWorker implements Runnable {
    /** The capture's name: its checkpoint key, and its row in the capture views. */
    public static final String NAME = "CDC$IMPLICIT";
    private static final Logger LOG = Logger.getLogger(CdcCaptureWorker.class.getName());
    private static final int READ_BATCH = 512;

    private final RedoSource redo;
    private final LogSink sink;
    private final MultiversionDictionary dictionary;
    private final CdcLogFormatter formatter;
    private volatile boolean running = true;
    private volatile CaptureState state = CaptureState.INITIALIZING;
    private volatile long capturedScn;
    private volatile long enqueued;
    private volatile String error;

    public CdcCaptureWorker(RedoSource redo, LogSink sink, MultiversionDictionary dictionary,
            CdcLogFormatter formatter) {
        this.redo = redo;
        this.sink = sink;
        this.dictionary = dictionary;
        this.formatter = formatter;
    }

    @Override
    public void run() {
        long checkpoint = sink.checkpoint(NAME);
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
                        records.addAll(capture(e));
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
                    sink.append(NAME, records, last);
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
        LOG.log(Level.SEVERE, "capture " + NAME + " aborted after SCN " + capturedScn, e);
    }

    /** The log records of one redo entry, over every CDC-enabled table it touches. */
    public List<LogRecord> capture(RedoEntry e) {
        if (e.isDdl()) {
            return captureDdl(e);
        }
        DictionaryVersion version = dictionary.asOf(e.scn());
        Map<Long, List<RowChange>> byTable = new LinkedHashMap<>();
        for (RowChange r : e.rows()) {
            byTable.computeIfAbsent(r.objectNumber(), k -> new ArrayList<>()).add(r);
        }
        List<LogRecord> out = new ArrayList<>();
        for (Map.Entry<Long, List<RowChange>> t : byTable.entrySet()) {
            Optional<TableDef> table = version.table(t.getKey());
            if (table.isPresent() && table.get().options().cdc().enabled()) {
                out.addAll(formatter.rowRecords(e, table.get(), t.getValue()));
            }
        }
        return out;
    }

    /**
     * The DDL LCR of a CREATE or ALTER comes from the table definition in the redo entry itself, not
     * from the dictionary: the redo is visible to capture as soon as it is written, possibly before
     * the node's dictionary has applied the change.
     */
    private List<LogRecord> captureDdl(RedoEntry e) {
        DictionaryChange change = e.ddl().change();
        Optional<TableDef> table;
        if (change instanceof DictionaryChange.DropTable d) {
            table = dictionary.asOf(e.scn() - 1).table(d.keyspace(), d.name());
        } else if (change instanceof DictionaryChange.CreateTable c) {
            table = Optional.of(c.table());
        } else if (change instanceof DictionaryChange.AlterTable a) {
            table = Optional.of(a.newDef());
        } else {
            table = Optional.empty();
        }
        if (table.isPresent() && table.get().options().cdc().enabled()) {
            return List.of(formatter.ddlRecord(e, table.get()));
        }
        return List.of();
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
