package dev.tributary.node.capture;

import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.write.TxContext;
import java.util.ArrayList;
import java.util.List;
import dev.tributary.node.storage.StoreIterator;

/**
 * The node's redo thread cut into log files (Oracle's online and archived redo logs): a segment
 * covers the SCNs [first_change#, next_change#); the current (online) one is open-ended. A log
 * switch seals the current segment (it becomes archived) and opens the next one — when the
 * segment outgrows its size, on {@code dbms_capture_adm.build} (so a build begins a segment and
 * its SCN is that segment's first_change#), or on request. Archived segments below every
 * capture's required checkpoint are purged: listed in {@code logmnr_purged_log} and their redo
 * deleted, never earlier. Capture reads the redo across segments without noticing a switch.
 *
 * <p>Segments live in {@code meta} under {@code redoseg/}. Thread-safe (synchronized).
 */
public final class RedoSegments {
    private static final String PREFIX = "redoseg/";

    /** One redo log file, as V$ARCHIVED_LOG describes it. */
    public record Segment(int thread, long sequence, long firstScn, long nextScn, boolean dictionaryBegin,
            boolean dictionaryEnd, long archivedMillis, boolean purged) {
        public boolean archived() {
            return nextScn > 0;
        }

        public String name() {
            return String.format("redo_%d_%06d.log", thread, sequence);
        }

        byte[] encode() {
            return new BinaryWriter(48).u8(1).i32(thread).i64(sequence).i64(firstScn).i64(nextScn).u8(dictionaryBegin ? 1 : 0)
                    .u8(dictionaryEnd ? 1 : 0).i64(archivedMillis).u8(purged ? 1 : 0).toByteArray();
        }

        static Segment decode(byte[] b) {
            BinaryReader r = new BinaryReader(b);
            if (r.u8() != 1) {
                throw new dev.tributary.dictionary.io.CorruptRecordException("unknown redo segment format");
            }
            Segment s = new Segment(r.i32(), r.i64(), r.i64(), r.i64(), r.u8() == 1, r.u8() == 1, r.i64(), r.u8() == 1);
            r.expectEnd();
            return s;
        }

        Segment sealed(long next, long millis) {
            return new Segment(thread, sequence, firstScn, next, dictionaryBegin, dictionaryEnd, millis, purged);
        }

        Segment withDictionary(boolean begin, boolean end) {
            return new Segment(thread, sequence, firstScn, nextScn, dictionaryBegin || begin, dictionaryEnd || end,
                    archivedMillis, purged);
        }

        Segment purgedNow() {
            return new Segment(thread, sequence, firstScn, nextScn, dictionaryBegin, dictionaryEnd, archivedMillis, true);
        }
    }

    private final NodeStore store;
    private final RocksDbRedoLog redo;
    private final int thread;
    private final long segmentBytes;
    private final List<Segment> segments = new ArrayList<>();
    /** The online segment's bytes counted so far, up to and including {@link #countedThrough}. */
    private long onlineBytes;
    private long countedThrough;
    private volatile java.util.function.LongSupplier requiredScn = () -> Long.MIN_VALUE;
    private volatile java.util.function.LongSupplier keptBuildScn = () -> -1;

    /** @param segmentBytes the size at which the online segment is switched */
    public RedoSegments(NodeStore store, RocksDbRedoLog redo, int thread, long segmentBytes) {
        this.store = store;
        this.redo = redo;
        this.thread = thread;
        this.segmentBytes = segmentBytes;
        byte[] p = Keys.meta(PREFIX);
        try (StoreIterator it = store.iterator(NodeStore.Family.META)) {
            for (it.seek(p); it.isValid() && Keys.hasPrefix(it.key(), p); it.next()) {
                segments.add(Segment.decode(it.value()));
            }
        }
        if (segments.isEmpty()) {
            save(new Segment(thread, 1, 1, 0, false, false, 0, false), null);
        }
    }

    private void save(Segment s, TxContext ctx) {
        byte[] key = Keys.meta(PREFIX, s.sequence());
        if (ctx != null) {
            ctx.put(NodeStore.Family.META, key, s.encode());
        } else {
            store.put(NodeStore.Family.META, key, s.encode(), true);
        }
        if (segments.isEmpty() || s.sequence() > current().sequence()) {
            segments.add(s);
        } else {
            segments.set(indexOf(s.sequence()), s);
        }
    }

    private int indexOf(long sequence) {
        for (int i = 0; i < segments.size(); i++) {
            if (segments.get(i).sequence() == sequence) {
                return i;
            }
        }
        throw new IllegalStateException("no redo segment " + sequence);
    }

    private Segment current() {
        return segments.get(segments.size() - 1);
    }

    public synchronized List<Segment> segments() {
        return List.copyOf(segments);
    }

    /**
     * Switches the log inside a transaction so the new segment begins at the transaction's own
     * SCN: what a dictionary build does with its dictionary-begin record.
     */
    public synchronized void switchAt(TxContext ctx, boolean dictionaryBegin) {
        Segment cur = current();
        if (cur.firstScn() < ctx.scn()) {
            save(cur.sealed(ctx.scn(), System.currentTimeMillis()), ctx);
            save(new Segment(thread, cur.sequence() + 1, ctx.scn(), 0, dictionaryBegin, false, 0, false), ctx);
        } else if (dictionaryBegin) {
            save(cur.withDictionary(true, false), ctx);
        }
    }

    /** The last SCN {@link #switchIfFull} has counted: it waits for redo after it. */
    public synchronized long countedThrough() {
        return countedThrough;
    }

    /** Marks the segment holding {@code scn} as holding a dictionary-end record. */
    public synchronized void markDictionaryEnd(TxContext ctx) {
        save(current().withDictionary(false, true), ctx);
    }

    /** ALTER SYSTEM SWITCH LOGFILE: seals the online segment after the last SCN written. */
    public synchronized void switchLogfile() {
        Segment cur = current();
        long next = redo.lastScn() + 1;
        if (next > cur.firstScn()) {
            save(cur.sealed(next, System.currentTimeMillis()), null);
            save(new Segment(thread, cur.sequence() + 1, next, 0, false, false, 0, false), null);
        }
    }

    /**
     * ALTER SYSTEM ARCHIVE LOG CURRENT, and a switch for archive_lag_target: seals the online
     * segment at an SCN a transaction of its own takes, so the archived log reaches to now even
     * when the thread wrote nothing since the last switch (unlike {@link #switchLogfile}, which
     * has nothing to seal then). A downstream capture merging the threads can then go past now.
     *
     * @return the segment archived
     */
    public Segment archiveCurrent(dev.tributary.node.write.CommitPipeline pipeline) {
        return pipeline.commit(ctx -> {
            synchronized (this) {
                long sequence = current().sequence();
                switchAt(ctx, false);
                return segments.get(indexOf(sequence));
            }
        }).result();
    }

    /**
     * Whether archive_lag_target makes the online segment due at {@code nowMillis}: once its
     * oldest change is that old, or, holding no change, once it has been open that long (a quiet
     * thread's empty log is what lets a downstream merge go past it).
     */
    public synchronized boolean lagSwitchDue(dev.tributary.capture.ArchiveLagTarget target, long nowMillis) {
        if (target.off()) {
            return false;
        }
        long since = current().firstScn();
        try (StoreIterator it = store.iterator(NodeStore.Family.REDO)) {
            it.seek(Keys.scn(since));
            if (it.isValid()) {
                since = Keys.scnOf(it.key()); // the oldest change in the online log
            }
        }
        return target.switchDue(since, nowMillis);
    }

    /**
     * Switches when the online segment has grown past its size. Counts only the redo written since
     * the last call, so it costs what was written, not the segment.
     */
    public synchronized void switchIfFull() {
        Segment cur = current();
        if (countedThrough < cur.firstScn()) {
            countedThrough = cur.firstScn() - 1;
            onlineBytes = 0;
        }
        try (StoreIterator it = store.iterator(NodeStore.Family.REDO)) {
            for (it.seek(Keys.scn(countedThrough + 1)); it.isValid(); it.next()) {
                onlineBytes += it.key().length + it.value().length;
                countedThrough = Keys.scnOf(it.key());
            }
        }
        if (onlineBytes >= segmentBytes) {
            switchLogfile();
        }
    }

    /**
     * Sets what the redo must keep: {@code requiredScn} is the lowest SCN any reader still needs,
     * minus one; {@code keptBuildScn} the newest dictionary build's SCN (or -1).
     */
    public void retain(java.util.function.LongSupplier requiredScn, java.util.function.LongSupplier keptBuildScn) {
        this.requiredScn = requiredScn;
        this.keptBuildScn = keptBuildScn;
    }

    /** Purges what {@link #retain} no longer keeps. */
    public List<Segment> purge() {
        return purgeThrough(requiredScn.getAsLong(), keptBuildScn.getAsLong());
    }

    /** Whether {@link #purge} would purge an archived segment now, or has. */
    public boolean purgeable(Segment s) {
        return s.purged() || purgeable(s, requiredScn.getAsLong(), keptBuildScn.getAsLong());
    }

    private static boolean purgeable(Segment s, long requiredScn, long keepBuildScn) {
        return s.archived() && s.nextScn() - 1 <= requiredScn && s.firstScn() != keepBuildScn;
    }

    /**
     * Purges every archived segment whose redo is all at or below {@code requiredScn} (the lowest
     * SCN any capture still needs, minus one): its redo is deleted and it is listed as purged.
     * The segment that begins at {@code keepBuildScn} (the newest dictionary build) is kept, for
     * the captures still to be created from it.
     *
     * @return the segments purged by this call
     */
    public synchronized List<Segment> purgeThrough(long requiredScn, long keepBuildScn) {
        List<Segment> out = new ArrayList<>();
        for (Segment s : List.copyOf(segments)) {
            if (!s.purged() && purgeable(s, requiredScn, keepBuildScn)) {
                store.deleteRange(NodeStore.Family.REDO, Keys.scn(s.firstScn()), Keys.scn(s.nextScn()), true);
                Segment p = s.purgedNow();
                save(p, null);
                out.add(p);
            }
        }
        return out;
    }

    /** Whether no segment holding redo after {@code scn} has been purged. */
    public synchronized boolean intactAfter(long scn) {
        return segments.stream().noneMatch(s -> s.purged() && s.nextScn() > scn + 1);
    }

    /** Whether the redo at {@code scn} is still kept (not in a purged segment). */
    public synchronized boolean available(long scn) {
        for (Segment s : segments) {
            if (s.purged() && scn >= s.firstScn() && scn < s.nextScn()) {
                return false;
            }
        }
        return true;
    }
}
