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

    /** Publishes a generation newer than every published one; every node then routes by it at its timestamp. */
    void publish(Generation generation);

    /** Runs {@code body} holding the cluster's topology lock, so two nodes never make a generation for one change. */
    <T> T underTopologyLock(String what, java.util.function.Supplier<T> body);
}
