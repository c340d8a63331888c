package dev.tributary.generations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.generations.errors.PublishConflictException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class GenerationRulesTest {
    private static final long DELAY = 1_000;

    /** The port in memory: a list of published generations, a ring, and a real lock. */
    private static final class InMemory implements GenerationPublisher {
        final List<Generation> published = new ArrayList<>();
        volatile TokenRing ring = TokenRing.of(Map.of(-100L, "a", 100L, "a"));
        volatile RuntimeException failNextPublish;

        @Override
        public synchronized GenerationHistory published() {
            return GenerationHistory.of(List.copyOf(published));
        }

        @Override
        public TokenRing ring() {
            return ring;
        }

        /** Runs once just before the next publish checks its condition: another coordinator getting in first. */
        volatile Runnable beforeNextPublish;

        @Override
        public synchronized void publish(Generation g, Optional<Generation> after) {
            Runnable before = beforeNextPublish;
            beforeNextPublish = null;
            if (before != null) {
                before.run();
            }
            RuntimeException f = failNextPublish;
            if (f != null) {
                failNextPublish = null;
                throw f;
            }
            Optional<Generation> newest = published.isEmpty() ? Optional.empty() : Optional.of(published.get(published.size() - 1));
            if (!newest.map(Generation::timestampMillis).equals(after.map(Generation::timestampMillis))) {
                throw new PublishConflictException("newest is " + newest.map(Generation::timestampMillis) + ", not "
                        + after.map(Generation::timestampMillis));
            }
            published.add(g);
        }

        @Override
        public synchronized <T> T underTopologyLock(String what, Supplier<T> body) {
            return body.get();
        }
    }

    private final InMemory port = new InMemory();
    private final AtomicLong now = new AtomicLong(50_000);
    private final GenerationRules rules = new GenerationRules(port, now::get, new Random(7), DELAY);

    @Test
    void aFreshClusterGetsOneFirstGenerationARingDelayAhead() {
        Generation g = rules.ensureFirst().orElseThrow();
        assertEquals(51_000, g.timestampMillis());
        assertEquals(Optional.empty(), rules.ensureFirst(), "a second node finds it");
        assertEquals(1, port.published().size());
    }

    @Test
    void aJoinMakesAGenerationOnlyForTokensTheNewestDoesNotEndAVnodeAt() {
        rules.ensureFirst();
        assertEquals(Optional.empty(), rules.ensureCovers(List.of(-100L, 100L)), "a restart with its old tokens");
        port.ring = port.ring.with("b", List.of(0L, 200L));
        Generation g = rules.ensureCovers(List.of(0L, 200L)).orElseThrow();
        assertEquals(51_000 + 1, g.timestampMillis(), "after the newest, even though the clock has not moved");
        assertEquals(4, g.vnodes().size(), "over the whole ring");
        now.addAndGet(10_000);
        port.ring = port.ring.with("c", List.of(50L));
        assertEquals(61_000, rules.ensureCovers(List.of(50L)).orElseThrow().timestampMillis(), "now + ring delay");
    }

    @Test
    void twoNodesDecidingAtOnceMakeOneGeneration() throws Exception {
        rules.ensureFirst();
        port.ring = port.ring.with("b", List.of(0L));
        CountDownLatch go = new CountDownLatch(1);
        List<Optional<Generation>> made = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            GenerationRules r = new GenerationRules(port, now::get, new Random(i), DELAY);
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                made.add(r.ensureCovers(List.of(0L)));
            });
            t.start();
            threads.add(t);
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(1, made.stream().filter(Optional::isPresent).count());
        assertEquals(2, port.published().size());
    }

    @Test
    void aDecisionThatFailedBeforePublishingIsMadeAgain() {
        rules.ensureFirst();
        port.ring = port.ring.with("b", List.of(0L));
        port.failNextPublish = new IllegalStateException("session expired");
        assertThrows(IllegalStateException.class, () -> rules.ensureCovers(List.of(0L)));
        assertEquals(1, port.published().size(), "nothing half-published");
        assertTrue(rules.ensureCovers(List.of(0L)).isPresent());
        assertEquals(2, port.published().size());
    }

    @Test
    void aDeposedCoordinatorsJoinDecisionLosesItsPublishAndIsMadeAgain() {
        rules.ensureFirst();
        port.ring = port.ring.with("b", List.of(0L, 200L));
        // the deciding node's session expires before it publishes; the node that takes the lock over publishes first
        GenerationRules other = new GenerationRules(port, now::get, new Random(11), DELAY);
        port.beforeNextPublish = () -> other.ensureCovers(List.of(0L, 200L)).orElseThrow();
        assertEquals(Optional.empty(), rules.ensureCovers(List.of(0L, 200L)), "made again: the join is covered already");
        assertEquals(2, port.published().size(), "one generation for the join, not one per coordinator");
    }

    @Test
    void aDeposedRenewalFollowsTheGenerationThatBeatIt() {
        rules.ensureFirst();
        GenerationRules other = new GenerationRules(port, now::get, new Random(11), DELAY);
        port.beforeNextPublish = () -> other.renew("repair elsewhere");
        Generation mine = rules.renew("repair");
        List<Generation> all = port.published().newestFirst();
        assertEquals(3, all.size());
        assertEquals(mine, all.get(0), "published after the one that beat it");
        assertTrue(all.get(0).timestampMillis() > all.get(1).timestampMillis() && all.get(1).timestampMillis() > all.get(2).timestampMillis(),
                "timestamps strictly increase");
    }

    @Test
    void aDecisionThatKeepsLosingGivesUp() {
        rules.ensureFirst();
        GenerationRules other = new GenerationRules(port, now::get, new Random(11), DELAY);
        Runnable[] beat = new Runnable[1];
        beat[0] = () -> {
            other.renew("repair elsewhere");
            port.beforeNextPublish = beat[0];
        };
        port.beforeNextPublish = beat[0];
        assertThrows(PublishConflictException.class, () -> rules.renew("repair"));
        port.beforeNextPublish = null;
        assertEquals(4, port.published().size(), "the first and the three that beat each attempt; none of the loser's");
    }

    @Test
    void aRenewalFollowsTheNewest() {
        assertThrows(IllegalStateException.class, () -> rules.renew("repair"));
        rules.ensureFirst();
        assertEquals(51_001, rules.renew("repair").timestampMillis());
        assertEquals(51_002, rules.renew("repair").timestampMillis());
    }
}
