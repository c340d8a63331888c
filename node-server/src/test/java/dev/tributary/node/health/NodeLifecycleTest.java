package dev.tributary.node.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class NodeLifecycleTest {
    private static final Map<NodeLifecycle, Set<NodeLifecycle>> ALLOWED = Map.of(
            NodeLifecycle.STARTING, EnumSet.of(NodeLifecycle.SERVING, NodeLifecycle.DRAINING),
            NodeLifecycle.SERVING, EnumSet.of(NodeLifecycle.DRAINING),
            NodeLifecycle.DRAINING, EnumSet.of(NodeLifecycle.STOPPED),
            NodeLifecycle.STOPPED, EnumSet.noneOf(NodeLifecycle.class));

    @Test
    void everyTransitionIsAllowedOrRefusedByTheTable() {
        for (NodeLifecycle from : NodeLifecycle.values()) {
            for (NodeLifecycle to : NodeLifecycle.values()) {
                boolean allowed = ALLOWED.get(from).contains(to);
                assertEquals(allowed, from.canBecome(to), from + " -> " + to);
                if (allowed) {
                    assertEquals(to, from.become(to));
                } else {
                    assertThrows(IllegalStateException.class, () -> from.become(to), from + " -> " + to);
                }
            }
        }
    }
}
