package dev.tributary.node.exec;

import java.util.Collection;

/**
 * Where a write's partitions live: the write runs on the node that owns their tokens. Thread-safe.
 */
@FunctionalInterface
public interface Placement {
    /** Every write runs where it is received (one node, or a write forwarded here by its owner's peer). */
    Placement LOCAL = tokens -> null;

    /**
     * The endpoint of the one other node that owns every token, or null when this node owns them
     * or they belong to several nodes (such a batch runs here, as one transaction).
     */
    String remoteOwner(Collection<Long> tokens);

    /** The write belongs to another node; the request is sent there. */
    final class NotOwnerException extends RuntimeException {
        private final String endpoint;

        public NotOwnerException(String endpoint) {
            super("the partitions are owned by " + endpoint, null, false, false);
            this.endpoint = endpoint;
        }

        public String endpoint() {
            return endpoint;
        }
    }
}
