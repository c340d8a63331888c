package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tributary.client.errors.UnavailableException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client's own Netty channels, against loopback ports where nothing listens. */
@Timeout(30)
class TributaryClientNettyIT {

    @Test
    void aRefusedConnectionIsUnavailableNamingEveryEndpoint() {
        try (TributaryClient c = TributaryClient.builder().endpoints("127.0.0.1:1", "[::1]:1")
                .requestTimeout(Duration.ofSeconds(5)).build()) {
            UnavailableException e = assertThrows(UnavailableException.class, () -> c.execute("SELECT 1"));
            assertEquals(List.of("127.0.0.1:1", "[::1]:1"), e.endpointsTried());
            // a second request reconnects rather than failing from a cached backoff state
            UnavailableException again = assertThrows(UnavailableException.class, () -> c.execute("SELECT 1"));
            assertEquals(2, again.endpointsTried().size());
        }
    }
}
