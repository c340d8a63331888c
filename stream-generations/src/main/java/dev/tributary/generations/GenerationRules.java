package dev.tributary.generations;

import dev.tributary.generations.errors.PublishConflictException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * When the cluster gets a new CDC generation, and with which timestamp (the Scylla seed's
 * "topology coordinator" for one change at a time; docs/ARCHITECTURE.md "Generations").
 *
 * <ul>
 * <li>A fresh cluster: the first generation, timestamped a ring delay ahead.
 * <li>A node joins with tokens the newest generation has no vnode ending at: a generation over the
 * whole ring, timestamped {@code max(now + ring delay, newest + 1)}. A node restarting with its old
 * tokens finds them there and makes nothing.
 * <li>On request (check_and_repair_cdc_streams), or when a node leaves: a generation over the ring.
 * </ul>
 *
 * <p>Every decision reads the published generations again under the topology lock, so two nodes
 * deciding at once make one generation, and a decision interrupted before it published is simply
 * made again. A publish is conditional on the newest generation the decision read, so a node
 * whose session expired while it held the lock cannot publish beside the one that took it over
 * (its decision is made again instead). No I/O of its own: the {@link GenerationPublisher} port does it.
 */
public final class GenerationRules {
    /** A decision that keeps losing its publish to other coordinators gives up: its caller retries later. */
    private static final int MAX_DECISIONS = 3;
    private final GenerationPublisher publisher;
    private final LongSupplier clock;
    private final RandomGenerator random;
    private final long ringDelayMillis;

    public GenerationRules(GenerationPublisher publisher, LongSupplier clock, RandomGenerator random, long ringDelayMillis) {
        if (ringDelayMillis < 0) {
            throw new IllegalArgumentException("ring delay " + ringDelayMillis + " ms is negative");
        }
        this.publisher = publisher;
        this.clock = clock;
        this.random = random;
        this.ringDelayMillis = ringDelayMillis;
    }

    /** Publishes the first generation if the cluster has none; returns it, or empty if one existed. */
    public Optional<Generation> ensureFirst() {
        return decide("create the first CDC generation", () -> {
            if (!publisher.published().isEmpty()) {
                return Optional.<Generation>empty();
            }
            Generation g = Generation.create(GenerationHistory.firstGenerationTimestamp(clock.getAsLong(), ringDelayMillis),
                    publisher.ring(), random);
            publisher.publish(g, Optional.empty());
            return Optional.of(g);
        });
    }

    /**
     * For a node joining with {@code tokens}: publishes a generation over the whole ring unless the
     * newest one already has a vnode ending at each of them. Returns the new generation, if any.
     */
    public Optional<Generation> ensureCovers(Collection<Long> tokens) {
        return decide("create the CDC generation of a join", () -> {
            Generation latest = publisher.published().latest()
                    .orElseThrow(() -> new IllegalStateException("no CDC generation to join: create the first one"));
            Set<Long> ends = new HashSet<>();
            for (VnodeStreams v : latest.vnodes()) {
                ends.add(v.rangeEnd());
            }
            return ends.containsAll(tokens) ? Optional.<Generation>empty() : Optional.of(next(latest));
        });
    }

    /** Publishes a generation over the current ring now (a repair, or a node that left). */
    public Generation renew(String why) {
        return decide(why, () -> next(publisher.published().latest()
                .orElseThrow(() -> new IllegalStateException("no CDC generation to follow: create the first one"))));
    }

    /** The timestamp of the generation after {@code latest}: a ring delay ahead, and after it. */
    public static long nextTimestamp(long nowMillis, long ringDelayMillis, Generation latest) {
        return Math.max(Math.addExact(nowMillis, ringDelayMillis), latest.timestampMillis() + 1);
    }

    private Generation next(Generation latest) {
        Generation g = Generation.create(nextTimestamp(clock.getAsLong(), ringDelayMillis, latest), publisher.ring(), random);
        publisher.publish(g, Optional.of(latest));
        return g;
    }

    /**
     * Makes a decision under the topology lock; when its publish loses to another coordinator's
     * (this one's session expired and the lock passed on), makes it again from what is published
     * now — where a join's tokens are usually covered already and nothing more is made.
     */
    private <T> T decide(String what, java.util.function.Supplier<T> decision) {
        return againOnConflict(() -> publisher.underTopologyLock(what, decision));
    }

    /**
     * Runs {@code locked} — a decision made under the topology lock, ending in a conditional
     * publish — again while another node's publish beat it, up to {@value #MAX_DECISIONS} times;
     * then the conflict is the caller's. For generations and for tablet stream sets alike.
     */
    public static <T> T againOnConflict(java.util.function.Supplier<T> locked) {
        for (int attempt = 1; ; attempt++) {
            try {
                return locked.get();
            } catch (PublishConflictException e) {
                if (attempt == MAX_DECISIONS) {
                    throw e;
                }
            }
        }
    }
}
