package dev.tributary.generations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NodeStateTest {
    @Test
    void aNodeJoinsServesLeavesAndMayDieAtAnyStep() {
        NodeState s = NodeState.DOWN.become(NodeState.JOINING).become(NodeState.NORMAL).become(NodeState.LEAVING);
        assertEquals(NodeState.DOWN, s.become(NodeState.DOWN));
        assertTrue(NodeState.JOINING.canBecome(NodeState.DOWN));
        // a restart during a decommission goes on with it
        assertTrue(NodeState.DOWN.canBecome(NodeState.LEAVING));
    }

    @Test
    void transitionsTheTableDoesNotHaveAreRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> NodeState.LEAVING.become(NodeState.NORMAL));
        assertEquals("a node cannot go from LEAVING to NORMAL", e.getMessage());
        assertFalse(NodeState.JOINING.canBecome(NodeState.LEAVING));
        assertFalse(NodeState.NORMAL.canBecome(NodeState.JOINING));
    }

    @Test
    void whatEachStateMeans() {
        assertTrue(NodeState.JOINING.ownsRanges() && NodeState.NORMAL.ownsRanges());
        assertFalse(NodeState.LEAVING.ownsRanges() || NodeState.DOWN.ownsRanges());
        assertFalse(NodeState.LEAVING.inGenerations());
        assertTrue(NodeState.DOWN.inGenerations());
        assertEquals("UN", NodeState.NORMAL.status());
        assertEquals("DN", NodeState.DOWN.status());
        assertEquals(NodeState.NORMAL, NodeState.parse(null));
        assertEquals(NodeState.LEAVING, NodeState.parse("LEAVING"));
    }
}
