package dev.tributary.node.health;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Where one node instance is between start and close. Only {@link #SERVING} may take writes; a
 * node whose start fails goes from {@link #STARTING} straight to {@link #DRAINING}.
 */
public enum NodeLifecycle {
    /** Opening its store, joining the cluster, pulling its ranges' rows: its ports may already answer. */
    STARTING,
    /** Registered NORMAL and taking writes (unless its ZooKeeper session is lost, which health reports apart). */
    SERVING,
    /** Closing: its servers refuse new calls and finish those in flight. */
    DRAINING,
    /** Everything it opened is closed. */
    STOPPED;

    private static final Map<NodeLifecycle, Set<NodeLifecycle>> NEXT = Map.of(
            STARTING, EnumSet.of(SERVING, DRAINING),
            SERVING, EnumSet.of(DRAINING),
            DRAINING, EnumSet.of(STOPPED),
            STOPPED, EnumSet.noneOf(NodeLifecycle.class));

    /** Whether an instance may go from this state to {@code next}. */
    public boolean canBecome(NodeLifecycle next) {
        return NEXT.get(this).contains(next);
    }

    /**
     * @return {@code next}
     * @throws IllegalStateException when the transition table does not allow it
     */
    public NodeLifecycle become(NodeLifecycle next) {
        if (!canBecome(next)) {
            throw new IllegalStateException("a node cannot go from " + this + " to " + next);
        }
        return next;
    }
}
