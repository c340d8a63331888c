package dev.tributary.generations;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenRingTest {

    private static final TokenRing RING = TokenRing.empty()
            .with("n1", List.of(-100L, 50L))
            .with("n2", List.of(0L, 1000L));

    @Test
    void ownerIsTheFirstRingTokenAtOrAboveWrapping() {
        assertEquals("n1", RING.owner(-100));
        assertEquals("n2", RING.owner(-99));
        assertEquals("n2", RING.owner(0));
        assertEquals("n1", RING.owner(1));
        assertEquals("n1", RING.owner(50));
        assertEquals("n2", RING.owner(51));
        assertEquals("n2", RING.owner(1000));
        assertEquals("n1", RING.owner(1001), "above the last token wraps to the first");
        assertEquals("n1", RING.owner(Long.MAX_VALUE));
        assertEquals("n1", RING.owner(Long.MIN_VALUE));
    }

    @Test
    void vnodesStartWithTheWrappingOne() {
        assertEquals(List.of(
                new Vnode(0, 1000, -100, "n1"),
                new Vnode(1, -100, 0, "n2"),
                new Vnode(2, 0, 50, "n1"),
                new Vnode(3, 50, 1000, "n2")), RING.vnodes());
        Vnode wrapping = RING.vnodes().get(0);
        assertTrue(wrapping.wraps());
        assertTrue(wrapping.contains(Long.MAX_VALUE));
        assertTrue(wrapping.contains(Long.MIN_VALUE));
        assertTrue(wrapping.contains(-100));
        assertFalse(wrapping.contains(-99));
        assertFalse(wrapping.contains(1000));
        assertTrue(wrapping.contains(1001));
        Vnode inner = RING.vnodes().get(1);
        assertFalse(inner.contains(-100));
        assertTrue(inner.contains(-99));
        assertTrue(inner.contains(0));
        assertFalse(inner.contains(1));
    }

    @Test
    void everyTokenIsInExactlyOneVnodeTheOneVnodeOfReturns() {
        SplittableRandom rnd = new SplittableRandom(TestSeeds.seed("everyTokenIsInExactlyOneVnode"));
        TokenRing ring = TokenRing.empty().with("a", VnodeTokens.pick(8, rnd, Set.of()));
        ring = ring.with("b", VnodeTokens.pick(8, rnd, Set.copyOf(ring.tokens())));
        for (int i = 0; i < 2000; i++) {
            long token = i < 16 ? ring.tokens().get(i) + (i % 2) : rnd.nextLong();
            int holding = 0;
            for (Vnode vnode : ring.vnodes()) {
                if (vnode.contains(token)) {
                    holding++;
                    assertEquals(vnode, ring.vnodeOf(token), "token " + token);
                    assertEquals(vnode.owner(), ring.owner(token));
                }
            }
            assertEquals(1, holding, "token " + token);
        }
    }

    @Test
    void singleTokenVnodeHoldsTheWholeRing() {
        TokenRing ring = TokenRing.empty().with("only", List.of(7L));
        Vnode all = ring.vnodes().get(0);
        assertEquals(new Vnode(0, 7, 7, "only"), all);
        for (long token : new long[] {Long.MIN_VALUE, -1, 6, 7, 8, Long.MAX_VALUE}) {
            assertTrue(all.contains(token));
            assertEquals("only", ring.owner(token));
        }
    }

    @Test
    void withoutRemovesEveryTokenOfTheNode() {
        TokenRing smaller = RING.without("n2");
        assertEquals(List.of(-100L, 50L), smaller.tokens());
        assertEquals(Set.of("n1"), smaller.nodes());
        assertEquals("n1", smaller.owner(0));
        assertEquals(List.of(0L, 1000L), RING.tokensOf("n2"), "the original ring is unchanged");
        assertThrows(IllegalArgumentException.class, () -> RING.without("n3"));
    }

    @Test
    void invalidChangesAreRejected() {
        IllegalArgumentException taken = assertThrows(IllegalArgumentException.class,
                () -> RING.with("n3", List.of(5L, 50L)));
        assertTrue(taken.getMessage().contains("50") && taken.getMessage().contains("n1"), taken.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RING.with("n3", List.of(Long.MIN_VALUE)));
        assertThrows(IllegalArgumentException.class, () -> RING.with("n3", List.of()));
        assertThrows(IllegalArgumentException.class, () -> TokenRing.of(Map.of(Long.MIN_VALUE, "x")));
        assertThrows(IllegalStateException.class, () -> TokenRing.empty().owner(0));
        assertTrue(TokenRing.empty().vnodes().isEmpty());
    }

    @Test
    void ofBuildsTheSameRingAsWith() {
        assertEquals(RING, TokenRing.of(Map.of(-100L, "n1", 50L, "n1", 0L, "n2", 1000L, "n2")));
        assertEquals(4, RING.size());
    }

    @Test
    void pickedTokensAreDistinctSortedFreeAndNeverTheMinimum() {
        Set<Long> taken = Set.of(11L, 12L);
        ScriptedRandom rnd = new ScriptedRandom(Long.MIN_VALUE, 11L, 5L, 5L, 12L, -3L, Long.MIN_VALUE, 9L);
        List<Long> picked = VnodeTokens.pick(3, rnd, taken);
        assertEquals(List.of(-3L, 5L, 9L), picked);
        assertEquals(8, rnd.draws());

        SplittableRandom random = new SplittableRandom(TestSeeds.seed("pickedTokensAreDistinct"));
        List<Long> many = VnodeTokens.pick(256, random, Set.of());
        assertEquals(256, new HashSet<>(many).size());
        for (int i = 1; i < many.size(); i++) {
            assertTrue(many.get(i - 1) < many.get(i));
        }
        assertThrows(IllegalArgumentException.class, () -> VnodeTokens.pick(0, random, Set.of()));
    }
}
