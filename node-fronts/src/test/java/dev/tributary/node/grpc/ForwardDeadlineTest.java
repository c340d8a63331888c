package dev.tributary.node.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.errors.ForwardTimeoutException;
import dev.tributary.node.net.ErrorMapping;
import dev.tributary.node.net.Tls;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Issue 32: how long a node's forward to a peer waits, and what its timeout tells the client. */
@Timeout(30)
class ForwardDeadlineTest {
    /** A clock that stands still, so a deadline's time remaining is exact. */
    private static final Deadline.Ticker STILL = new Deadline.Ticker() {
        @Override
        public long nanoTime() {
            return 1_000_000_000L;
        }
    };

    private static Peers peers(Duration forwardTimeout) {
        return new Peers(() -> null, n -> Optional.empty(), "self", Tls.plaintext(1 << 20), new byte[0], forwardTimeout);
    }

    private static Deadline in(long millis) {
        return Deadline.after(millis, TimeUnit.MILLISECONDS, STILL);
    }

    @Test
    @DisplayName("a forward waits --forward-timeout, or what is left of the client's deadline less a fifth (at most 1 s), "
            + "so the forwarding node answers first; never less than 1 ms")
    void theClientsDeadlineBoundsTheForward() {
        Peers p = peers(Duration.ofSeconds(10));
        assertEquals(Duration.ofSeconds(10), p.forwardDeadline(null), "the native protocol sends no deadline");
        assertEquals(Duration.ofSeconds(10), p.forwardDeadline(in(60_000)), "the SDK's default 60 s");
        assertEquals(Duration.ofSeconds(9), p.forwardDeadline(in(10_000)), "1 s left for the answer");
        assertEquals(Duration.ofMillis(3200), p.forwardDeadline(in(4_000)), "a fifth left for the answer");
        assertEquals(Duration.ofMillis(1), p.forwardDeadline(in(0)));
        assertEquals(Duration.ofMillis(1), p.forwardDeadline(in(-5_000)), "already past");
        assertEquals(Duration.ofMillis(500), peers(Duration.ofMillis(500)).forwardDeadline(in(4_000)));
    }

    @Test
    @DisplayName("--forward-timeout must be positive")
    void aForwardTimeoutMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> peers(Duration.ZERO));
        assertTrue(e.getMessage().startsWith("--forward-timeout must be positive"), e.getMessage());
    }

    @Test
    @DisplayName("a write's forward timeout reaches the client as DEADLINE_EXCEEDED, reason TIMEOUT, naming the peer, "
            + "marked outcome unknown and never not applied; a read's is not marked")
    void aForwardTimeoutIsAnUnknownOutcome() {
        StatusRuntimeException w = ErrorMapping.toStatus(new ForwardTimeoutException("host-b", "10.0.0.2:9160",
                Duration.ofMillis(3200), true));
        assertEquals(Status.Code.DEADLINE_EXCEEDED, w.getStatus().getCode());
        assertEquals("TIMEOUT", w.getTrailers().get(ErrorMapping.ERROR_CODE));
        assertEquals("true", w.getTrailers().get(ErrorMapping.OUTCOME_UNKNOWN));
        assertNull(w.getTrailers().get(ErrorMapping.NOT_APPLIED));
        String m = w.getStatus().getDescription();
        assertTrue(m.contains("node host-b (10.0.0.2:9160)") && m.contains("3200 ms") && m.contains("outcome is unknown")
                && m.contains("same idempotency key"), m);
        StatusRuntimeException r = ErrorMapping.toStatus(new ForwardTimeoutException("host-b", "10.0.0.2:9160",
                Duration.ofMillis(3200), false));
        assertEquals("TIMEOUT", r.getTrailers().get(ErrorMapping.ERROR_CODE));
        assertFalse(r.getTrailers().containsKey(ErrorMapping.OUTCOME_UNKNOWN));
        assertTrue(r.getStatus().getDescription().startsWith("the forward of the read to node host-b"),
                r.getStatus().getDescription());
    }
}
