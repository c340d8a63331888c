package dev.tributary.generations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

        @Override
        public synchronized void publish(Generation g) {
            RuntimeException f = failNextPublish;
            if (f != null) {
                failNextPublish = null;
                throw f;
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
    void aRenewalFollowsTheNewest() {
        assertThrows(IllegalStateException.class, () -> rules.renew("repair"));
        rules.ensureFirst();
        assertEquals(51_001, rules.renew("repair").timestampMillis());
        assertEquals(51_002, rules.renew("repair").timestampMillis());
    }
}
