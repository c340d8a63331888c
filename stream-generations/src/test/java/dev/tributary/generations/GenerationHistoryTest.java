package dev.tributary.generations;

import dev.tributary.generations.errors.NoCdcStreamException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GenerationHistoryTest {

    private static long millis(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    @Test
    @DisplayName("CDC-GEN-1/7/8: after a bootstrap the same key maps to another stream from the new timestamp on")
    void nextGenerationWalkthrough() {
        // seed: CDC-GEN-1, CDC-GEN-7, CDC-GEN-8 — the "Next Generation" example.
        SplittableRandom rnd = new SplittableRandom(TestSeeds.seed("Next Generation"));
        long first = millis("2020-03-25T12:44:43.006Z");
        long second = millis("2020-03-25T16:05:29.484Z");
        TokenRing oneNode = TokenRing.empty().with("n1", VnodeTokens.pick(256, rnd, Set.of()));
        TokenRing twoNodes = oneNode.with("n2", VnodeTokens.pick(256, rnd, Set.copyOf(oneNode.tokens())));
        GenerationHistory history = GenerationHistory.empty()
                .with(Generation.create(first, oneNode, rnd))
                .with(Generation.create(second, twoNodes, rnd));

        // Two timestamps, newest first, as cdc_generation_timestamps lists them.
        assertEquals(List.of(second, first),
                history.newestFirst().stream().map(Generation::timestampMillis).toList());
        assertEquals(second, history.latest().orElseThrow().timestampMillis());

        long pk0 = Murmur3Partitioner.token(Murmur3PartitionerTest.intKey(0));
        StreamId before = history.streamFor(pk0, millis("2020-03-25T16:00:00Z"));
        StreamId after = history.streamFor(pk0, millis("2020-03-25T16:05:31.939Z"));
        assertNotEquals(before, after, "the same key is logged in two streams");
        assertTrue(oneNode.vnodeOf(pk0).contains(before.token()));
        assertTrue(twoNodes.vnodeOf(pk0).contains(after.token()));

        // Writes with timestamps >= the new generation's timestamp use the new streams.
        assertEquals(after, history.streamFor(pk0, second));
        assertEquals(before, history.streamFor(pk0, second - 1));
        assertEquals(before, history.streamFor(pk0, first));
        assertEquals(first, history.inForceAt(second - 1).orElseThrow().timestampMillis());
        assertEquals(second, history.inForceAt(Long.MAX_VALUE).orElseThrow().timestampMillis());
    }

    @Test
    @DisplayName("CDC-GEN-10: the first generation starts a ring delay ahead; an earlier write finds no stream")
    void firstGenerationIsARingDelayAhead() {
        // seed: CDC-GEN-10 — the "could not find any CDC stream" example: the node starts at
        // 16:59:35 UTC, its first generation is at 17:00:43.100, a write at 16:59:58 fails.
        long nodeStart = millis("2020-02-06T16:59:35.087Z");
        long generationTs = GenerationHistory.firstGenerationTimestamp(nodeStart, 68_013);
        assertEquals(millis("2020-02-06T17:00:43.100Z"), generationTs);

        TokenRing ring = TokenRing.empty().with("n1", VnodeTokens.pick(16, new SplittableRandom(1), Set.of()));
        GenerationHistory history = GenerationHistory.empty()
                .with(Generation.create(generationTs, ring, new SplittableRandom(2)));
        long pk0 = Murmur3Partitioner.token(Murmur3PartitionerTest.intKey(0));

        NoCdcStreamException e = assertThrows(NoCdcStreamException.class,
                () -> history.streamFor(pk0, millis("2020-02-06T16:59:58.400Z")));
        assertEquals("cdc::metadata::get_stream: could not find any CDC stream (current time: 2020/02/06 16:59:58)."
                + " Are we in the middle of a cluster upgrade?", e.getMessage());
        assertEquals(millis("2020-02-06T16:59:58.400Z"), e.timeMillis());
        assertEquals(OptionalLong.of(generationTs), e.firstStreamsMillis(), "the caller learns when to retry");
        assertEquals(Optional.empty(), history.inForceAt(generationTs - 1));

        // About a minute later the write goes through.
        assertEquals(history.generations().get(0).streamFor(pk0), history.streamFor(pk0, generationTs));
        NoCdcStreamException none = assertThrows(NoCdcStreamException.class,
                () -> GenerationHistory.empty().streamFor(pk0, 0));
        assertEquals(OptionalLong.empty(), none.firstStreamsMillis());
    }

    @Test
    @DisplayName("CDC-GEN-6: a fresh cluster's first generation comes from a node's clock; each bootstrap adds one")
    void eachBootstrapAddsAGeneration() {
        // seed: CDC-GEN-6
        long seed = TestSeeds.seed("CDC-GEN-6");
        SplittableRandom rnd = new SplittableRandom(seed);
        long now = 1_000_000L;
        long ringDelay = 3_000L;
        TokenRing ring = TokenRing.empty().with("n1", VnodeTokens.pick(8, rnd, Set.of()));
        GenerationHistory history = GenerationHistory.empty().with(
                Generation.create(GenerationHistory.firstGenerationTimestamp(now, ringDelay), ring, rnd));
        assertEquals(now + ringDelay, history.latest().orElseThrow().timestampMillis());
        for (int node = 2; node <= 5; node++) {
            now += 10_000;
            ring = ring.with("n" + node, VnodeTokens.pick(8, rnd, Set.copyOf(ring.tokens())));
            history = history.with(Generation.create(now + ringDelay, ring, rnd));
            Generation latest = history.latest().orElseThrow();
            assertEquals(node, history.size());
            assertEquals(now + ringDelay, latest.timestampMillis());
            assertEquals(ring.tokens(), latest.vnodes().stream().map(VnodeStreams::rangeEnd).toList(),
                    "seed " + seed + ": the new generation's vnodes are the ring's");
        }
    }

    @Test
    void generationsMustBeAddedInTimestampOrder() {
        TokenRing ring = TokenRing.empty().with("n1", List.of(0L));
        Generation g5 = Generation.create(5, ring, new SplittableRandom(1));
        Generation g9 = Generation.create(9, ring, new SplittableRandom(2));
        GenerationHistory history = GenerationHistory.empty().with(g5).with(g9);
        IllegalArgumentException same = assertThrows(IllegalArgumentException.class,
                () -> history.with(Generation.create(9, ring, new SplittableRandom(3))));
        assertTrue(same.getMessage().contains("9"), same.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> history.with(Generation.create(7, ring, new SplittableRandom(3))));
        assertEquals(history, GenerationHistory.of(List.of(g9, g5)));
        assertEquals(Optional.of(g5), history.at(5));
        assertEquals(Optional.empty(), history.at(6));
        assertEquals(List.of(g5, g9), history.generations());
        assertThrows(IllegalArgumentException.class, () -> GenerationHistory.firstGenerationTimestamp(0, -1));
        assertThrows(ArithmeticException.class, () -> GenerationHistory.firstGenerationTimestamp(Long.MAX_VALUE, 1));
    }
}
