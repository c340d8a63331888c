package dev.tributary.generations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.generations.TabletStreamRules.Decision;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TabletStreamRulesTest {
    private static final List<String> NODES = List.of("a", "b");
    private static final long CREATED = 1_000_000L;
    private static final long DELAY = 30_000L;

    private final SplittableRandom random = new SplittableRandom(TestSeeds.seed("TabletStreamRulesTest"));

    private static TabletStreamHistory apply(Optional<TabletStreamHistory> h, Decision d) {
        return h.map(x -> x.with(d.set().orElseThrow())).orElseGet(() -> TabletStreamHistory.of(List.of(d.set().orElseThrow())));
    }

    @Test
    @DisplayName("CDC-TAB-1: a new tablet table gets its map over the nodes and a first stream set at its creation, one stream per tablet")
    void firstSet() {
        Decision d = TabletStreamRules.decide(Optional.empty(), Optional.empty(), 2, NODES, CREATED, CREATED + 5, DELAY, random);
        assertEquals(TabletMap.create(2, NODES), d.map().orElseThrow());
        TabletStreamSet set = d.set().orElseThrow();
        assertEquals(CREATED, set.timestampMillis());
        assertEquals(2, set.streams().size());
        assertTrue(d.after().isEmpty(), "the first set follows none");
    }

    @Test
    @DisplayName("CDC-TAB-2: a split publishes a set with twice the streams a delay ahead, after the newest set, and keeps each half on its tablet's replica")
    void splitIsDelayed() {
        Decision first = TabletStreamRules.decide(Optional.empty(), Optional.empty(), 2, NODES, CREATED, CREATED, DELAY, random);
        Optional<TabletStreamHistory> h = Optional.of(apply(Optional.empty(), first));
        long now = CREATED + 60_000;
        Decision split = TabletStreamRules.decide(first.map(), h, 4, NODES, CREATED, now, DELAY, random);
        TabletStreamSet set = split.set().orElseThrow();
        assertEquals(4, set.streams().size());
        assertTrue(set.timestampMillis() >= now + DELAY, "switches a delay ahead: " + set.timestampMillis());
        assertEquals(CREATED, split.after().orElseThrow(), "conditional on the set it follows");
        assertEquals(first.map().orElseThrow().split(), split.map().orElseThrow());
    }

    @Test
    @DisplayName("a table whose current set already has one stream per tablet changes nothing")
    void unchanged() {
        Decision first = TabletStreamRules.decide(Optional.empty(), Optional.empty(), 2, NODES, CREATED, CREATED, DELAY, random);
        Decision again = TabletStreamRules.decide(first.map(), Optional.of(apply(Optional.empty(), first)), 2, NODES, CREATED,
                CREATED + 1, DELAY, random);
        assertFalse(again.changes());
    }
}
