package dev.tributary.generations;

import dev.tributary.generations.errors.NoCdcStreamException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The CDC generations of a vnode cluster, ordered by timestamp.
 *
 * <p>A generation operates from its timestamp until the next generation's timestamp: a write with
 * timestamp {@code t} uses the latest generation whose timestamp is {@code <= t}. Before the first
 * generation's timestamp there is no stream to write to. Immutable and thread-safe;
 * {@link #with} returns a new history.
 */
public final class GenerationHistory {

    private static final GenerationHistory EMPTY = new GenerationHistory(List.of());

    private final List<Generation> generations;

    private GenerationHistory(List<Generation> ascending) {
        this.generations = ascending;
    }

    /** The history of a cluster that has no generation yet. */
    public static GenerationHistory empty() {
        return EMPTY;
    }

    /**
     * A history holding {@code generations}, in any order.
     *
     * @throws IllegalArgumentException if two generations have the same timestamp
     */
    public static GenerationHistory of(List<Generation> generations) {
        Objects.requireNonNull(generations, "generations");
        List<Generation> sorted = new ArrayList<>(generations);
        sorted.sort((a, b) -> Long.compare(a.timestampMillis(), b.timestampMillis()));
        GenerationHistory history = EMPTY;
        for (Generation generation : sorted) {
            history = history.with(generation);
        }
        return history;
    }

    /**
     * The timestamp of a fresh cluster's first generation: the node's clock shifted a ring delay
     * into the future, so that every node learns of the generation before it operates.
     *
     * @throws IllegalArgumentException if the ring delay is negative
     * @throws ArithmeticException if the sum overflows
     */
    public static long firstGenerationTimestamp(long nowMillis, long ringDelayMillis) {
        if (ringDelayMillis < 0) {
            throw new IllegalArgumentException("ring delay " + ringDelayMillis + " ms is negative");
        }
        return Math.addExact(nowMillis, ringDelayMillis);
    }

    /**
     * This history plus {@code generation}, which must be newer than every generation in it.
     *
     * @throws IllegalArgumentException if its timestamp is not greater than the latest one
     */
    public GenerationHistory with(Generation generation) {
        Objects.requireNonNull(generation, "generation");
        Optional<Generation> latest = latest();
        if (latest.isPresent() && generation.timestampMillis() <= latest.get().timestampMillis()) {
            throw new IllegalArgumentException("generation " + generation.timestampMillis()
                    + " is not newer than the latest generation " + latest.get().timestampMillis());
        }
        List<Generation> next = new ArrayList<>(generations.size() + 1);
        next.addAll(generations);
        next.add(generation);
        return new GenerationHistory(List.copyOf(next));
    }

    /** The generation operating at {@code timeMillis}: the latest with timestamp {@code <=} it. */
    public Optional<Generation> inForceAt(long timeMillis) {
        int lo = 0;
        int hi = generations.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (generations.get(mid).timestampMillis() <= timeMillis) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == 0 ? Optional.empty() : Optional.of(generations.get(lo - 1));
    }

    /**
     * The stream a write of a key with {@code token} at {@code timeMillis} goes to.
     *
     * @throws NoCdcStreamException if no generation operates at that time
     */
    public StreamId streamFor(long token, long timeMillis) {
        return inForceAt(timeMillis).orElseThrow(() -> new NoCdcStreamException(timeMillis,
                generations.isEmpty() ? OptionalLong.empty() : OptionalLong.of(generations.get(0).timestampMillis())))
                .streamFor(token);
    }

    /** The generations, oldest first. */
    public List<Generation> generations() {
        return generations;
    }

    /** The generations, newest first, the order of {@code cdc_generation_timestamps}. */
    public List<Generation> newestFirst() {
        List<Generation> reversed = new ArrayList<>(generations);
        Collections.reverse(reversed);
        return List.copyOf(reversed);
    }

    /** The newest generation, if any. */
    public Optional<Generation> latest() {
        return generations.isEmpty() ? Optional.empty() : Optional.of(generations.get(generations.size() - 1));
    }

    /** The generation with exactly this timestamp, if any. */
    public Optional<Generation> at(long timestampMillis) {
        return inForceAt(timestampMillis).filter(g -> g.timestampMillis() == timestampMillis);
    }

    public int size() {
        return generations.size();
    }

    public boolean isEmpty() {
        return generations.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GenerationHistory other && generations.equals(other.generations);
    }

    @Override
    public int hashCode() {
        return generations.hashCode();
    }

    @Override
    public String toString() {
        List<Long> timestamps = new ArrayList<>();
        generations.forEach(g -> timestamps.add(g.timestampMillis()));
        return "GenerationHistory" + timestamps;
    }
}
