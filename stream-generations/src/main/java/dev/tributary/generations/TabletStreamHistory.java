package dev.tributary.generations;

import dev.tributary.generations.errors.NoCdcStreamException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.random.RandomGenerator;

/**
 * The CDC stream sets of one table of a tablets keyspace, ordered by timestamp.
 *
 * <p>The first set is created with the CDC log table; each tablet split or merge creates a new set,
 * one stream per new tablet, that replaces the previous set from its timestamp on. A write at time
 * {@code t} uses the latest set whose timestamp is {@code <= t}. {@link #rows()} lists the sets the
 * way {@code system.cdc_streams} shows them. Never empty. Immutable and thread-safe; {@link #next}
 * and {@link #with} return new histories.
 */
public final class TabletStreamHistory {

    private final List<TabletStreamSet> sets;

    private TabletStreamHistory(List<TabletStreamSet> ascending) {
        this.sets = ascending;
    }

    /** The history of a table whose CDC log was just created: one stream set for {@code map}. */
    public static TabletStreamHistory create(long timestampMillis, TabletMap map, RandomGenerator rnd) {
        return new TabletStreamHistory(List.of(TabletStreamSet.create(timestampMillis, map, rnd)));
    }

    /**
     * A history holding {@code sets}, in any order.
     *
     * @throws IllegalArgumentException if there are none or two have the same timestamp
     */
    public static TabletStreamHistory of(List<TabletStreamSet> sets) {
        Objects.requireNonNull(sets, "sets");
        if (sets.isEmpty()) {
            throw new IllegalArgumentException("a tablet stream history has at least one stream set");
        }
        List<TabletStreamSet> sorted = new ArrayList<>(sets);
        sorted.sort((a, b) -> Long.compare(a.timestampMillis(), b.timestampMillis()));
        TabletStreamHistory history = new TabletStreamHistory(List.of(sorted.get(0)));
        for (int i = 1; i < sorted.size(); i++) {
            history = history.with(sorted.get(i));
        }
        return history;
    }

    /**
     * This history after the table's tablets were split or merged into {@code newMap}: a new stream
     * set for the new tablets replaces the current one from {@code timestampMillis} on.
     *
     * @throws IllegalArgumentException if the timestamp is not greater than the latest set's
     */
    public TabletStreamHistory next(long timestampMillis, TabletMap newMap, RandomGenerator rnd) {
        checkNewer(timestampMillis);
        return with(TabletStreamSet.create(timestampMillis, newMap, rnd));
    }

    /**
     * This history plus {@code set}, which must be newer than every set in it.
     *
     * @throws IllegalArgumentException if its timestamp is not greater than the latest set's
     */
    public TabletStreamHistory with(TabletStreamSet set) {
        Objects.requireNonNull(set, "set");
        checkNewer(set.timestampMillis());
        List<TabletStreamSet> next = new ArrayList<>(sets.size() + 1);
        next.addAll(sets);
        next.add(set);
        return new TabletStreamHistory(List.copyOf(next));
    }

    /**
     * The timestamp for a stream set created at {@code nowMillis}: a delay into the future, and
     * at least a millisecond after the latest set, as ScyllaDB keeps a table's timestamps
     * increasing.
     *
     * @throws IllegalArgumentException if the delay is negative
     */
    public long nextTimestamp(long nowMillis, long delayMillis) {
        if (delayMillis < 0) {
            throw new IllegalArgumentException("stream set delay " + delayMillis + " ms is negative");
        }
        return Math.max(Math.addExact(nowMillis, delayMillis), Math.addExact(latest().timestampMillis(), 1));
    }

    /** The stream set operating at {@code timeMillis}: the latest with timestamp {@code <=} it. */
    public Optional<TabletStreamSet> inForceAt(long timeMillis) {
        TabletStreamSet found = null;
        for (TabletStreamSet set : sets) {
            if (set.timestampMillis() > timeMillis) {
                break;
            }
            found = set;
        }
        return Optional.ofNullable(found);
    }

    /**
     * The stream a write of a key with {@code token} at {@code timeMillis} goes to.
     *
     * @throws NoCdcStreamException if the first stream set does not operate yet at that time
     */
    public StreamId streamFor(long token, long timeMillis) {
        return inForceAt(timeMillis)
                .orElseThrow(() -> new NoCdcStreamException(timeMillis, OptionalLong.of(sets.get(0).timestampMillis())))
                .streamFor(token);
    }

    /** The stream sets, oldest first. */
    public List<TabletStreamSet> sets() {
        return sets;
    }

    /** The newest stream set. */
    public TabletStreamSet latest() {
        return sets.get(sets.size() - 1);
    }

    /** The sets' timestamps, newest first, the order of {@code system.cdc_timestamps}. */
    public List<Long> timestampsNewestFirst() {
        List<Long> timestamps = new ArrayList<>(sets.size());
        for (int i = sets.size() - 1; i >= 0; i--) {
            timestamps.add(sets.get(i).timestampMillis());
        }
        return List.copyOf(timestamps);
    }

    /**
     * The rows of {@code system.cdc_streams} for this table: for each stream set, oldest first,
     * {@link StreamState#CURRENT} for each of its streams, {@link StreamState#CLOSED} for each stream
     * of the previous set it does not have, and {@link StreamState#OPENED} for each of its streams
     * the previous set does not have (all of them for the first set). Within a state, streams are in
     * {@link StreamId} order.
     */
    public List<StreamStateRow> rows() {
        List<StreamStateRow> rows = new ArrayList<>();
        TabletStreamSet previous = null;
        for (TabletStreamSet set : sets) {
            long ts = set.timestampMillis();
            for (StreamId stream : set.streams()) {
                rows.add(new StreamStateRow(ts, StreamState.CURRENT, stream));
            }
            if (previous != null) {
                for (StreamId stream : previous.streams()) {
                    if (!set.contains(stream)) {
                        rows.add(new StreamStateRow(ts, StreamState.CLOSED, stream));
                    }
                }
            }
            for (StreamId stream : set.streams()) {
                if (previous == null || !previous.contains(stream)) {
                    rows.add(new StreamStateRow(ts, StreamState.OPENED, stream));
                }
            }
            previous = set;
        }
        return List.copyOf(rows);
    }

    private void checkNewer(long timestampMillis) {
        long latest = latest().timestampMillis();
        if (timestampMillis <= latest) {
            throw new IllegalArgumentException("tablet stream set " + timestampMillis
                    + " is not newer than the latest stream set " + latest);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TabletStreamHistory other && sets.equals(other.sets);
    }

    @Override
    public int hashCode() {
        return sets.hashCode();
    }

    @Override
    public String toString() {
        List<Long> timestamps = new ArrayList<>();
        sets.forEach(s -> timestamps.add(s.timestampMillis()));
        return "TabletStreamHistory" + timestamps;
    }
}
