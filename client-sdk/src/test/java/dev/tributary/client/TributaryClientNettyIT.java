package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.errors.UnavailableException;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.SessionState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client's own Netty channels on loopback: a refused port and a served one. */
@Timeout(30)
class TributaryClientNettyIT {

    @Test
    void aRefusedConnectionIsUnavailableNamingEveryEndpoint() {
        try (TributaryClient c = TributaryClient.builder().endpoints("127.0.0.1:1", "[::1]:1")
                .requestTimeout(Duration.ofSeconds(5)).build()) {
            UnavailableException e = assertThrows(UnavailableException.class, () -> c.execute("SELECT 1"));
            assertEquals(List.of("127.0.0.1:1", "[::1]:1"), e.endpointsTried());
            assertTrue(e.getMessage().contains("refused"), e.getMessage());
            // a second request reconnects rather than failing from a cached backoff state
            UnavailableException again = assertThrows(UnavailableException.class, () -> c.execute("SELECT 1"));
            assertEquals(2, again.endpointsTried().size());
        }
    }

    @Test
    void aDownEndpointIsSkippedForALiveOne() {
        TestNode node = TestNode.startNetty();
        node.onExecute = r -> ExecuteResponse.newBuilder().setSession(SessionState.newBuilder().setKeyspace("ks")).build();
        try (TributaryClient c = TributaryClient.builder().endpoints("127.0.0.1:1", "127.0.0.1:" + node.port())
                .requestTimeout(Duration.ofSeconds(5)).tokenAware(false).build()) {
            c.execute("USE ks");
            assertEquals("ks", c.session().keyspace());
            assertEquals("USE ks", node.requestsOf(ExecuteRequest.class).get(0).getStatement());
        } finally {
            node.close();
        }
    }
}
