package dev.tributary.generations;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TabletMapTest {

    @Test
    void lastTokensMatchTheSeedsStreamTokens() {
        // seed: CDC-TAB-1 — the stream tokens of 2 and 4 tablets in the "Tablet Split" example.
        TabletMap two = TabletMap.create(2, List.of("n1"));
        assertEquals(-1L, two.lastToken(0));
        assertEquals(Long.MAX_VALUE, two.lastToken(1));

        TabletMap four = two.split();
        assertEquals(0xbfffffffffffffffL, four.lastToken(0));
        assertEquals(-1L, four.lastToken(1));
        assertEquals(0x3fffffffffffffffL, four.lastToken(2));
        assertEquals(Long.MAX_VALUE, four.lastToken(3));

        TabletMap one = TabletMap.create(1, List.of("n1"));
        assertEquals(Long.MAX_VALUE, one.lastToken(0));
        assertEquals(Long.MIN_VALUE, one.firstToken(0));
    }

    @Test
    void tabletOfFollowsTheBoundaries() {
        TabletMap four = TabletMap.create(4, List.of("n1"));
        assertEquals(0, four.tabletOf(Long.MIN_VALUE));
        assertEquals(0, four.tabletOf(0xbfffffffffffffffL));
        assertEquals(1, four.tabletOf(0xc000000000000000L));
        assertEquals(1, four.tabletOf(-1));
        assertEquals(2, four.tabletOf(0));
        assertEquals(2, four.tabletOf(0x3fffffffffffffffL));
        assertEquals(3, four.tabletOf(0x4000000000000000L));
        assertEquals(3, four.tabletOf(Long.MAX_VALUE));
        assertEquals(0, TabletMap.create(1, List.of("n1")).tabletOf(12345));
    }

    @Test
    void everyTokenFallsInTheTabletWhoseRangeHoldsIt() {
        long seed = TestSeeds.seed("tablet ranges");
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int log2 = 0; log2 <= 20; log2++) {
            TabletMap map = TabletMap.create(1 << log2, List.of("n1", "n2", "n3"));
            for (int i = 0; i < 200; i++) {
                long token = rnd.nextLong();
                int tablet = map.tabletOf(token);
                String where = "seed " + seed + ", " + map.tabletCount() + " tablets, token " + token;
                assertEquals(true, map.firstToken(tablet) <= token && token <= map.lastToken(tablet), where);
                assertEquals(tablet, map.tabletOf(map.lastToken(tablet)), where);
                assertEquals(tablet, map.tabletOf(map.firstToken(tablet)), where);
            }
            for (int t = 1; t < map.tabletCount(); t++) {
                assertEquals(map.lastToken(t - 1) + 1, map.firstToken(t));
            }
        }
    }

    @Test
    void splitKeepsReplicasAndMergeKeepsTheLeftOne() {
        TabletMap map = new TabletMap(List.of("a", "b"));
        TabletMap split = map.split();
        assertEquals(List.of("a", "a", "b", "b"), split.replicas());
        assertEquals(map, split.merge());
        assertEquals(List.of("a", "c"), new TabletMap(List.of("a", "b", "c", "d")).merge().replicas());
        assertEquals(8, map.withCount(8).tabletCount());
        assertEquals(List.of("a"), map.withCount(1).replicas());
        assertEquals(map, map.withCount(2));
        assertEquals(List.of("x", "y", "x", "y"), TabletMap.create(4, List.of("x", "y")).replicas());
        assertEquals(2, split.log2Count());
    }

    @Test
    void invalidMapsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new TabletMap(List.of("a", "b", "c")));
        assertThrows(IllegalArgumentException.class, () -> new TabletMap(List.of()));
        assertThrows(IllegalArgumentException.class, () -> TabletMap.create(0, List.of("a")));
        assertThrows(IllegalArgumentException.class, () -> TabletMap.create(4, List.of()));
        assertThrows(IllegalArgumentException.class, () -> TabletMap.create(4, List.of("a")).withCount(6));
        assertThrows(IllegalStateException.class, () -> TabletMap.create(1, List.of("a")).merge());
        assertThrows(IllegalStateException.class,
                () -> TabletMap.create(TabletMap.MAX_TABLET_COUNT, List.of("a")).split());
        assertThrows(IndexOutOfBoundsException.class, () -> TabletMap.create(2, List.of("a")).lastToken(2));
    }

    @Test
    void balancingMovesFewTabletsAndSpreadsThemEvenly() {
        TabletMap one = TabletMap.create(8, List.of("a"));
        TabletMap two = one.balancedOver(List.of("a", "b"));
        assertEquals(List.of("a", "a", "a", "a", "b", "b", "b", "b"), two.replicas(), "4 of 8 move, the highest ones");
        assertEquals(two, two.balancedOver(List.of("a", "b")), "an even map stays as it is");
        TabletMap three = two.balancedOver(List.of("a", "b", "c"));
        assertEquals(2, three.replicas().stream().filter("c"::equals).count(), "the new node takes its share: 3, 3, 2");
        long moved = java.util.stream.IntStream.range(0, 8).filter(i -> !two.replica(i).equals(three.replica(i))).count();
        assertEquals(2, moved, "only the tablets the new node takes move");
        TabletMap gone = three.balancedOver(List.of("a", "c"));
        assertTrue(gone.replicas().stream().noneMatch("b"::equals), "a node that leaves keeps no tablet");
        assertEquals(4, gone.replicas().stream().filter("a"::equals).count());
        assertThrows(IllegalArgumentException.class, () -> one.balancedOver(List.of()));
    }
}
