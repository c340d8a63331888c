package dev.tributary.generations;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * A cluster member's state, as every node sees it through ZooKeeper, and what each state means
 * for routing and for CDC generations.
 *
 * <p>A node registers JOINING once it serves (it is then given its ranges while it takes their
 * rows over), becomes NORMAL, and LEAVING while it is decommissioned; a member whose ZooKeeper
 * session is gone (stopped, crashed, or cut off) is DOWN until it registers again.
 */
public enum NodeState {
    JOINING("UJ"), NORMAL("UN"), LEAVING("UL"), DOWN("DN");

    private static final Map<NodeState, Set<NodeState>> NEXT = Map.of(
            JOINING, EnumSet.of(NORMAL, DOWN),
            NORMAL, EnumSet.of(LEAVING, DOWN),
            // a leaving node that dies, or restarts to go on with its decommission
            LEAVING, EnumSet.of(DOWN, LEAVING),
            DOWN, EnumSet.of(JOINING, LEAVING));

    private final String status;

    NodeState(String status) {
        this.status = status;
    }

    /** Whether a member may go from this state to {@code next}. */
    public boolean canBecome(NodeState next) {
        return NEXT.get(this).contains(next);
    }

    /**
     * @return {@code next}
     * @throws IllegalStateException when the transition table does not allow it
     */
    public NodeState become(NodeState next) {
        if (!canBecome(next)) {
            throw new IllegalStateException("a node cannot go from " + this + " to " + next);
        }
        return next;
    }

    /** Whether writes are routed to the member's ranges (it must also be live, which DOWN is not). */
    public boolean ownsRanges() {
        return this == JOINING || this == NORMAL;
    }

    /** Whether the member's tokens are in the ring new CDC generations are made from: a leaving node's are not. */
    public boolean inGenerations() {
        return this != LEAVING;
    }

    /** nodetool's two letters: Up or Down, then Normal, Joining or Leaving. */
    public String status() {
        return status;
    }

    /** The state a member znode names; a missing or unknown one is NORMAL, as nodes before states wrote none. */
    public static NodeState parse(String s) {
        if (s == null) {
            return NORMAL;
        }
        try {
            return valueOf(s);
        } catch (IllegalArgumentException e) {
            return NORMAL;
        }
    }
}
