package dev.tributary.generations;

/**
 * Where generations are published and read back, under a cluster-wide lock: the port between
 * {@link GenerationRules} and the coordination service (ZooKeeper in a node).
 */
public interface GenerationPublisher {
    /** The published generations as they are now (read again, not from a cache). */
    GenerationHistory published();

    /** The ring new generations are made from: every member's tokens but those of a node leaving. */
    TokenRing ring();

    /**
     * Publishes a generation newer than every published one, only if the newest published one is
     * still {@code after} (empty: none was published): a compare-and-set, since the topology lock
     * alone cannot stop a holder whose session expired mid-decision from publishing beside the
     * node that took the lock over. Every node then routes by it at its timestamp.
     *
     * @throws dev.tributary.generations.errors.PublishConflictException when another generation
     *         was published since, having written nothing
     */
    void publish(Generation generation, java.util.Optional<Generation> after);

    /**
     * Runs {@code body} holding the cluster's topology lock, so two nodes never make a generation
     * for one change while their sessions hold.
     */
    <T> T underTopologyLock(String what, java.util.function.Supplier<T> body);
}
