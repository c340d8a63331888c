package dev.tributary.node.capture;

import dev.tributary.capture.redo.DictionaryBuildPart;
import dev.tributary.capture.redo.RedoCodec;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.SessionInfo;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.logminer.DictionaryBuilds;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.write.CommitPipeline;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import dev.tributary.node.storage.StoreIterator;

/**
 * {@code dbms_capture_adm.build}: writes the primary dictionary into the redo as a dictionary
 * build — a log switch, then the dictionary-begin record (whose SCN is the build's, a valid first
 * SCN), the parts, and the dictionary-end record, one transaction each, as a large build is. A
 * completed build is recorded under {@code build/<scn>}. Thread-safe: builds run one at a time.
 */
public final class DictionaryBuilder {
    private static final String BUILD = "build/";

    private final CommitPipeline pipeline;
    private final MultiversionDictionary primary;
    private final RedoSegments segments;
    private final NodeStore store;
    private final int partBytes;
    private final int threadNumber;

    public DictionaryBuilder(CommitPipeline pipeline, MultiversionDictionary primary, RedoSegments segments, NodeStore store,
            int partBytes, int threadNumber) {
        this.threadNumber = threadNumber;
        this.pipeline = pipeline;
        this.primary = primary;
        this.segments = segments;
        this.store = store;
        this.partBytes = partBytes;
    }

    /** Runs a build and returns its SCN (the first SCN a capture created from it may use). */
    public synchronized long build(String username, long sessionId) {
        SessionInfo who = new SessionInfo(username, sessionId, 0, threadNumber);
        List<byte[]> parts = new ArrayList<>();
        long buildScn = pipeline.commit(ctx -> {
            // the snapshot is taken on the committer, so no DDL can slip between it and the build's SCN
            parts.addAll(DictionaryBuilds.split(primary.latest(), partBytes));
            segments.switchAt(ctx, true);
            write(ctx, who, new DictionaryBuildPart(ctx.scn(), 1, parts.size(), parts.get(0)));
            return null;
        }).scn();
        for (int i = 2; i <= parts.size(); i++) {
            int part = i;
            pipeline.commit(ctx -> {
                write(ctx, who, new DictionaryBuildPart(buildScn, part, parts.size(), parts.get(part - 1)));
                return null;
            });
        }
        segments.switchLogfile(); // the build's log is archived at once, so archived_log lists it
        return buildScn;
    }

    private void write(dev.tributary.node.write.TxContext ctx, SessionInfo who, DictionaryBuildPart p) {
        RedoEntry e = new RedoEntry(ctx.scn(), ctx.transactionId(), null, who, List.of(), null, p);
        ctx.put(NodeStore.Family.REDO, Keys.scn(ctx.scn()), RedoCodec.encode(e));
        if (p.end()) {
            segments.markDictionaryEnd(ctx);
            ctx.put(NodeStore.Family.META, Keys.meta(BUILD, p.buildScn()), ByteBuffer.allocate(4).putInt(p.parts()).array());
        }
    }

    /** The SCNs of the completed builds whose redo is still kept, oldest first. */
    public List<Long> builds() {
        List<Long> out = new ArrayList<>();
        byte[] p = Keys.meta(BUILD);
        try (StoreIterator it = store.iterator(NodeStore.Family.META)) {
            for (it.seek(p); it.isValid() && Keys.hasPrefix(it.key(), p); it.next()) {
                long scn = Keys.metaSuffix(it.key(), p.length);
                if (segments.available(scn)) {
                    out.add(scn);
                }
            }
        }
        return out;
    }

    /** Whether no redo after {@code scn} has been purged. */
    public boolean redoIntactAfter(long scn) {
        return segments.intactAfter(scn);
    }

    /** Whether a completed build begins at {@code scn} and its redo is still kept. */
    public boolean exists(long scn) {
        return store.get(NodeStore.Family.META, Keys.meta(BUILD, scn)) != null && segments.available(scn);
    }
}
