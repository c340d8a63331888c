package dev.tributary.dictionary;

import dev.tributary.dictionary.errors.DictionaryPurgedException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The multiversioned data dictionary, after Oracle's LogMiner data dictionary: redo names tables
 * by object number and columns by internal column number, and capture decodes each record with
 * {@link #asOf(long) the version in force at the record's SCN}, not with the current one. So a row
 * written to columns (a, b) is still read as (a, b) after b was dropped and c added.
 *
 * <p>Thread-safety: any number of threads may read ({@link #asOf}, {@link #latest},
 * {@link #versions}) while one applies changes. Reads are lock-free: they take one volatile
 * snapshot of an immutable array of versions and binary-search it. Writes
 * ({@link #apply}, {@link #install}, {@link #purgeBelow}) are serialized by a lock; they are DDL,
 * so rare, and each copies the version array.
 *
 * <p>SCNs of versions strictly increase. A dictionary starts empty: below its first version,
 * {@link #asOf} answers {@link DictionaryVersion#EMPTY}. After {@link #purgeBelow(long) purging}
 * below an SCN, asking for an older SCN throws {@link DictionaryPurgedException}.
 */
public final class MultiversionDictionary {
    /** Immutable once published. {@code scns[i] == versions[i].scn()}, strictly increasing. */
    private static final class State {
        final long[] scns;
        final DictionaryVersion[] versions;
        final long purgedBelow;

        State(long[] scns, DictionaryVersion[] versions, long purgedBelow) {
            this.scns = scns;
            this.versions = versions;
            this.purgedBelow = purgedBelow;
        }

        DictionaryVersion latest() {
            return versions.length == 0 ? DictionaryVersion.EMPTY : versions[versions.length - 1];
        }
    }

    private final Object writeLock = new Object();
    private volatile State state = new State(new long[0], new DictionaryVersion[0], Long.MIN_VALUE);

    /**
     * Applies a DDL change captured at {@code scn} and publishes the resulting version.
     *
     * @return the new version
     * @throws IllegalArgumentException if {@code scn} is not greater than the latest version's
     *         (any SCN >= 0 is accepted for the first version)
     * @throws dev.tributary.dictionary.errors.DictionaryException as {@link DictionaryVersion#apply}
     *         when the change does not fit the dictionary; nothing is published then
     */
    public DictionaryVersion apply(long scn, DictionaryChange change) {
        Objects.requireNonNull(change, "change");
        synchronized (writeLock) {
            State s = state;
            requireAfterLatest(s, scn);
            DictionaryVersion next = s.latest().apply(scn, change);
            publish(s, next);
            return next;
        }
    }

    /**
     * Adds a whole version, e.g. one decoded from a dictionary build found in the redo log; it
     * takes effect at its own {@link DictionaryVersion#scn()}.
     *
     * @throws IllegalArgumentException if its SCN is not greater than the latest version's
     */
    public DictionaryVersion install(DictionaryVersion version) {
        Objects.requireNonNull(version, "version");
        synchronized (writeLock) {
            State s = state;
            requireAfterLatest(s, version.scn());
            publish(s, version);
            return version;
        }
    }

    private static void requireAfterLatest(State s, long scn) {
        if (scn < 0) {
            throw new IllegalArgumentException("negative scn " + scn);
        }
        if (s.versions.length > 0 && scn <= s.scns[s.scns.length - 1]) {
            throw new IllegalArgumentException("scn " + scn + " is not after the latest dictionary version's scn "
                    + s.scns[s.scns.length - 1]);
        }
    }

    private void publish(State s, DictionaryVersion next) {
        int n = s.versions.length;
        long[] scns = Arrays.copyOf(s.scns, n + 1);
        DictionaryVersion[] versions = Arrays.copyOf(s.versions, n + 1);
        scns[n] = next.scn();
        versions[n] = next;
        state = new State(scns, versions, s.purgedBelow);
    }

    /** The newest version; {@link DictionaryVersion#EMPTY} before any change. */
    public DictionaryVersion latest() {
        return state.latest();
    }

    /**
     * The version in force at {@code scn}: the one with the greatest SCN at or below it, or
     * {@link DictionaryVersion#EMPTY} if {@code scn} is below every version.
     *
     * @throws DictionaryPurgedException if {@code scn} is below the SCN of an earlier
     *         {@link #purgeBelow}, so the answer is no longer kept
     */
    public DictionaryVersion asOf(long scn) {
        State s = state;
        if (scn < s.purgedBelow) {
            throw new DictionaryPurgedException(scn, s.purgedBelow);
        }
        int i = floorIndex(s.scns, scn);
        return i < 0 ? DictionaryVersion.EMPTY : s.versions[i];
    }

    /** Index of the greatest element <= key, or -1. */
    private static int floorIndex(long[] a, long key) {
        int i = Arrays.binarySearch(a, key);
        return i >= 0 ? i : -i - 2;
    }

    /** Every version kept, oldest first. */
    public List<DictionaryVersion> versions() {
        return List.of(state.versions);
    }

    /**
     * Drops the versions no longer needed to answer {@link #asOf(long) asOf(s)} for
     * {@code s >= scn}: every version older than the one in force at {@code scn} (that one is
     * kept). Capture calls it with its required checkpoint SCN. Purging below an SCN lower than an
     * earlier purge does nothing.
     *
     * @return how many versions were dropped
     */
    public int purgeBelow(long scn) {
        synchronized (writeLock) {
            State s = state;
            if (scn <= s.purgedBelow) {
                return 0;
            }
            int keepFrom = Math.max(floorIndex(s.scns, scn), 0);
            state = new State(Arrays.copyOfRange(s.scns, keepFrom, s.scns.length),
                    Arrays.copyOfRange(s.versions, keepFrom, s.versions.length), scn);
            return keepFrom;
        }
    }

    /** The lowest SCN {@link #asOf} still answers for; {@code Long.MIN_VALUE} before any purge. */
    public long firstAvailableScn() {
        return state.purgedBelow;
    }

    /**
     * A dictionary rebuilt from captured DDL, applied in list order.
     *
     * @throws IllegalArgumentException if the SCNs do not strictly increase
     * @throws dev.tributary.dictionary.errors.DictionaryException if a change does not apply
     */
    public static MultiversionDictionary replay(List<Map.Entry<Long, DictionaryChange>> changes) {
        MultiversionDictionary d = new MultiversionDictionary();
        for (Map.Entry<Long, DictionaryChange> e : changes) {
            d.apply(e.getKey(), e.getValue());
        }
        return d;
    }
}
