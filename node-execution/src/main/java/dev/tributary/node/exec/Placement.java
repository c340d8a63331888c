package dev.tributary.node.exec;

import java.util.Collection;

/**
 * Where a write's partitions live: the write runs on the node that owns their tokens. Thread-safe.
 */
@FunctionalInterface
public interface Placement {
    /** Every write runs where it is received (one node, or a write forwarded here by its owner's peer). */
    Placement LOCAL = keys -> null;

    /** A partition a write changes: its table and the token of its key. */
    record RoutingKey(long objectNumber, long token) {
    }

    /**
     * The endpoint of the other node the write runs on, or null when it runs here: here when this
     * node holds one of the partitions (a batch over several nodes is one transaction here).
     */
    String remoteOwner(Collection<RoutingKey> keys);

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
