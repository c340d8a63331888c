package dev.tributary.node.nativeproto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.datastax.oss.protocol.internal.response.Event;
import com.datastax.oss.protocol.internal.response.event.StatusChangeEvent;
import com.datastax.oss.protocol.internal.response.event.TopologyChangeEvent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The TOPOLOGY_CHANGE and STATUS_CHANGE events between two looks at the members. */
class TopologyEventsTest {
    private static List<String> events(Set<String> oldMembers, Map<String, String> oldLive, Set<String> members,
            Map<String, String> live) {
        return NativeServer.TopologyEvents.between(oldMembers, oldLive, members, live).stream().map((Event e) -> {
            if (e instanceof TopologyChangeEvent t) {
                return t.changeType + " " + t.address.getPort();
            }
            StatusChangeEvent st = (StatusChangeEvent) e;
            return st.changeType + " " + st.address.getPort();
        }).toList();
    }

    @Test
    @DisplayName("a new member is NEW_NODE, a member going and coming back is DOWN then UP, a member gone for good REMOVED_NODE")
    void events() {
        Map<String, String> one = Map.of("a", "127.0.0.1:9042");
        Map<String, String> two = Map.of("a", "127.0.0.1:9042", "b", "127.0.0.1:9043");
        assertEquals(List.of("NEW_NODE 9043"), events(Set.of("a"), one, Set.of("a", "b"), two));
        assertEquals(List.of("DOWN 9043"), events(Set.of("a", "b"), two, Set.of("a", "b"), one));
        assertEquals(List.of("UP 9043"), events(Set.of("a", "b"), one, Set.of("a", "b"), two));
        assertEquals(List.of("REMOVED_NODE 9043"), events(Set.of("a", "b"), two, Set.of("a"), one));
        assertEquals(List.of(), events(Set.of("a"), one, Set.of("a"), one));
    }
}
