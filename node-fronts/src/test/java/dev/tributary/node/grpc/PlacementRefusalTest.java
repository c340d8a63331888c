package dev.tributary.node.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.generations.TokenRing;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.exec.Placement;
import dev.tributary.node.net.ErrorMapping;
import dev.tributary.node.net.Tls;
import io.grpc.Context;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A write the placement refuses was applied nowhere: every node it passed only forwarded it. The
 * client must learn that (the not-applied trailer), or a history checker, and a client deciding
 * whether to retry, must count it as in doubt (CI: ChurnIT saw three writes refused this way
 * during a tablet move and called them unknown).
 */
@Timeout(30)
class PlacementRefusalTest {
    /** Token 0 is node b's, token 200 node a's (this node). */
    private static final TokenRing RING = TokenRing.of(Map.of(100L, "b", 300L, "a"));

    private static Peers peers(Map<String, String> live) {
        ClusterCoordinator.Topology t = new ClusterCoordinator.Topology(RING, live, 2, Map.of(), new TreeSet<>());
        return new Peers(() -> t, n -> Optional.empty(), "a", Tls.plaintext(1 << 20), new byte[0], Duration.ofSeconds(10));
    }

    private static void assertNotApplied(TributaryException e, String starts) {
        assertEquals(ErrorCode.UNAVAILABLE, e.code());
        assertTrue(e.notApplied(), "refused before any node applied it");
        assertTrue(e.getMessage().startsWith(starts), e.getMessage());
        StatusRuntimeException wire = ErrorMapping.toStatus(e);
        assertEquals("true", wire.getTrailers().get(ErrorMapping.NOT_APPLIED), "the client is told so");
    }

    @Test
    @DisplayName("a write whose owner is down is refused as not applied")
    void ownerDown() {
        Placement p = peers(Map.of("a", "127.0.0.1:1")).placement();
        TributaryException e = assertThrows(TributaryException.class, () -> p.remoteOwner(List.of(new Placement.RoutingKey(7, 0))));
        assertNotApplied(e, "the node owning these partitions (b) is down");
    }

    @Test
    @DisplayName("a write forwarded back and forth while the nodes disagree on its owner is refused as not applied")
    void ownerChangedWhileForwarded() throws Exception {
        Placement p = peers(Map.of("a", "127.0.0.1:1", "b", "127.0.0.1:2")).placement();
        assertEquals("127.0.0.1:2", p.remoteOwner(List.of(new Placement.RoutingKey(7, 0))), "a first hop goes on");
        TributaryException e = Context.current().withValue(Peers.FORWARDED_BY, "a,b").call(() -> assertThrows(
                TributaryException.class, () -> p.remoteOwner(List.of(new Placement.RoutingKey(7, 0)))));
        assertNotApplied(e, "the owner of these partitions changed while the write was forwarded (a,b -> a)");
    }
}
