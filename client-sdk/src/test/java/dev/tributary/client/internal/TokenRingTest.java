package dev.tributary.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TokenRingTest {
    private static final TokenRing<String> RING = TokenRing.of(Map.of(-100L, "a", 0L, "b", 100L, "c"));

    @Test
    @DisplayName("a node owns (previous token, its token]")
    void ownsUpToItsToken() {
        assertEquals("a", RING.owner(-100));
        assertEquals("b", RING.owner(-99));
        assertEquals("b", RING.owner(0));
        assertEquals("c", RING.owner(1));
        assertEquals("c", RING.owner(100));
    }

    @Test
    @DisplayName("tokens above the largest and below the smallest wrap to the smallest token's owner")
    void wrapsAround() {
        assertEquals("a", RING.owner(101));
        assertEquals("a", RING.owner(Long.MAX_VALUE));
        assertEquals("a", RING.owner(Long.MIN_VALUE));
        assertEquals("a", RING.owner(-101));
    }

    @Test
    @DisplayName("an empty ring and a range with no reachable owner route nowhere")
    void nothingToRouteBy() {
        assertNull(TokenRing.<String>empty().owner(5));
        Map<Long, String> gaps = new HashMap<>(Map.of(10L, "a"));
        gaps.put(20L, null);
        TokenRing<String> ring = TokenRing.of(gaps);
        assertEquals("a", ring.owner(10));
        assertNull(ring.owner(15));
        assertEquals("a", ring.owner(25));
    }
}
