package dev.tributary.dictionary.logminer;

import dev.tributary.dictionary.DictionaryChange;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.MultiversionDictionary;
import java.util.List;
import java.util.Objects;

/**
 * A capture's LogMiner data dictionary (the capture seed's "LogMiner Data Dictionary for a Capture
 * Process"): separate from the node's primary dictionary, populated from a dictionary build found
 * in the redo the first time a capture using it starts, then kept current by the DDL redo the
 * capture mines after the build. Each change is decoded with the version in force at its SCN, so
 * a row inserted into (a, b) is still (a, b) after b was dropped and c added (Table 2-1).
 *
 * <p>Several captures may share one dictionary: the DDL they mine is applied once, in SCN order,
 * and a DDL record at or below the newest version is one another capture has applied already,
 * so mining it again does nothing. Every change is written to the {@link Journal} before it is
 * visible, so a restarted node restores the dictionary as it was.
 *
 * <p>Thread-safe: readers use {@link #versions()} lock-free; changes are serialized.
 */
public final class LogMinerDictionary {
    /** Where a dictionary's changes are made durable. Called under the dictionary's lock. */
    public interface Journal {
        void versionAdded(long dictionaryId, DictionaryVersion version);

        void purged(long dictionaryId, long belowScn);
    }

    private final long id;
    private final long buildScn;
    private final MultiversionDictionary versions = new MultiversionDictionary();
    private final Journal journal;
    private volatile boolean loaded;

    private LogMinerDictionary(long id, long buildScn, Journal journal) {
        this.id = id;
        this.buildScn = buildScn;
        this.journal = Objects.requireNonNull(journal, "journal");
    }

    /** A dictionary to be populated from the build that begins at {@code buildScn}. */
    public static LogMinerDictionary create(long id, long buildScn, Journal journal) {
        return new LogMinerDictionary(id, buildScn, journal);
    }

    /**
     * A dictionary as its journal kept it: its versions (oldest first; none if it was never
     * loaded) and the SCN it was purged below ({@code Long.MIN_VALUE} for never).
     */
    public static LogMinerDictionary restore(long id, long buildScn, List<DictionaryVersion> versions, long purgedBelow,
            Journal journal) {
        LogMinerDictionary d = new LogMinerDictionary(id, buildScn, journal);
        for (DictionaryVersion v : versions) {
            d.versions.install(v);
        }
        if (purgedBelow != Long.MIN_VALUE) {
            d.versions.purgeBelow(purgedBelow);
        }
        d.loaded = !versions.isEmpty();
        return d;
    }

    public long id() {
        return id;
    }

    /** The SCN of the dictionary build this dictionary is populated from. */
    public long buildScn() {
        return buildScn;
    }

    /** Whether the build has been loaded: before that, no change can be decoded with it. */
    public boolean loaded() {
        return loaded;
    }

    /** The versions, for decoding: {@code versions().asOf(scn)}. */
    public MultiversionDictionary versions() {
        return versions;
    }

    /**
     * Loads the dictionary of the build; it takes effect at the build's SCN. Loading a dictionary
     * already loaded (a capture sharing it, or a restart) does nothing.
     *
     * @return whether this call loaded it
     */
    public synchronized boolean load(DictionaryVersion build) {
        if (loaded) {
            return false;
        }
        DictionaryVersion v = build.atScn(buildScn);
        journal.versionAdded(id, v);
        versions.install(v);
        loaded = true;
        return true;
    }

    /**
     * Applies the DDL found in the redo at {@code scn}. Does nothing before the dictionary is
     * loaded, for DDL the build already contains ({@code scn <= buildScn}), and for DDL at or
     * below the newest version (applied already by a capture sharing this dictionary).
     *
     * @return whether a new version was made
     * @throws dev.tributary.dictionary.errors.DictionaryException if the change does not fit the
     *         dictionary: the redo and the dictionary disagree, and capture must stop
     */
    public synchronized boolean applyDdl(long scn, DictionaryChange change) {
        if (!loaded || scn <= buildScn || scn <= versions.latest().scn() || versions.latest().reflects(change)) {
            return false; // mined before, or the same change met earlier on another redo thread
        }
        DictionaryVersion next = versions.latest().apply(scn, change);
        journal.versionAdded(id, next);
        versions.install(next);
        return true;
    }

    /**
     * Purges the information below {@code scn} (a capture's first SCN was raised to it): the
     * version in force at {@code scn} is kept, older ones go.
     *
     * @return how many versions were dropped
     */
    public synchronized int purgeBelow(long scn) {
        if (scn <= versions.firstAvailableScn()) {
            return 0;
        }
        journal.purged(id, scn);
        return versions.purgeBelow(scn);
    }
}
