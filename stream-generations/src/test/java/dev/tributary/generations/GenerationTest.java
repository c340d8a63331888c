package dev.tributary.generations;

import dev.tributary.generations.internal.TokenRanges;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GenerationTest {

    @Test
    @DisplayName("CDC-GEN-4: a generation is a timestamp, a set of stream ids and a token-to-stream mapping")
    void generationHoldsTimestampStreamsAndMapping() {
        // seed: CDC-GEN-4
        TokenRing ring = TokenRing.empty().with("n1", List.of(-100L, 50L)).with("n2", List.of(0L, 1000L));
        Generation generation = Generation.create(1_585_140_283_006L, ring, new SplittableRandom(1));
        assertEquals(1_585_140_283_006L, generation.timestampMillis());
        assertEquals(4, generation.streams().size());
        assertEquals(4, new HashSet<>(generation.streams()).size());
        for (Vnode vnode : ring.vnodes()) {
            VnodeStreams streams = generation.vnodes().get(vnode.index());
            assertEquals(vnode.end(), streams.rangeEnd());
            StreamId stream = streams.primary();
            assertEquals(vnode.index(), stream.index(), "index is the vnode index");
            assertEquals(1, stream.version());
            assertTrue(vnode.contains(stream.token()), stream + " lies in " + vnode);
            assertEquals(stream, generation.streamFor(vnode.end()));
            assertEquals(stream, generation.streamFor(stream.token()));
        }
        // Mapping is global: it takes only a token, whatever table the key belongs to.
        assertEquals(generation.vnodes().get(0).primary(), generation.streamFor(Long.MAX_VALUE));
        assertEquals(generation.vnodes().get(0).primary(), generation.streamFor(Long.MIN_VALUE));
        assertEquals(generation.vnodes().get(1).primary(), generation.streamFor(-99));
    }

    @Test
    @DisplayName("CDC-GEN-3: token(pk) and token(stream) lie in the same vnode, for random rings and keys")
    void streamOfAKeyLiesInTheKeysVnode() {
        // seed: CDC-GEN-3
        long seed = TestSeeds.seed("CDC-GEN-3 invariant");
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 200; round++) {
            TokenRing ring = TokenRing.empty();
            int nodes = 1 + rnd.nextInt(5);
            for (int n = 0; n < nodes; n++) {
                int numTokens = 1 + rnd.nextInt(round % 4 == 0 ? 2 : 32);
                ring = ring.with("node" + n, VnodeTokens.pick(numTokens, rnd, Set.copyOf(ring.tokens())));
            }
            Generation generation = Generation.create(round, ring, rnd);
            for (int k = 0; k < 200; k++) {
                byte[] key = new byte[rnd.nextInt(40)];
                rnd.nextBytes(key);
                long token = Murmur3Partitioner.token(key);
                StreamId stream = generation.streamFor(token);
                Vnode vnode = ring.vnodeOf(token);
                assertTrue(vnode.contains(stream.token()),
                        "seed " + seed + " round " + round + ": key token " + token + " is in " + vnode
                                + " but its stream " + stream + " is not");
                assertEquals(vnode.index(), stream.index(), "seed " + seed);
            }
        }
    }

    @Test
    void tinyAndWholeRingVnodesGetStreamsInsideThem() {
        TokenRing adjacent = TokenRing.empty().with("a", List.of(10L, 11L, 12L));
        Generation generation = Generation.create(0, adjacent, new SplittableRandom(5));
        assertEquals(11L, generation.vnodes().get(1).primary().token(), "(10, 11] holds only 11");
        assertEquals(12L, generation.vnodes().get(2).primary().token(), "(11, 12] holds only 12");
        assertTrue(adjacent.vnodes().get(0).contains(generation.vnodes().get(0).primary().token()));

        TokenRing single = TokenRing.empty().with("a", List.of(Long.MAX_VALUE));
        Generation whole = Generation.create(0, single, new SplittableRandom(6));
        assertEquals(1, whole.streams().size());
        assertEquals(whole.streams().get(0), whole.streamFor(Long.MIN_VALUE));
        assertEquals(whole.streams().get(0), whole.streamFor(0));
    }

    @Test
    void randomTokenInRangeCoversWrappingAndHugeRangesAndSkipsTheMinimum() {
        long seed = TestSeeds.seed("randomTokenInRange");
        SplittableRandom rnd = new SplittableRandom(seed);
        long[][] ranges = {
                {Long.MAX_VALUE - 5, Long.MIN_VALUE + 5}, // wraps, tiny
                {-10, 10},
                {Long.MIN_VALUE + 1, Long.MAX_VALUE - 1}, // more than 2^63 tokens
                {Long.MAX_VALUE, Long.MAX_VALUE - 1}, // wraps, almost everything
                {3, 3}, // whole ring
        };
        for (long[] range : ranges) {
            for (int i = 0; i < 2000; i++) {
                long token = TokenRanges.randomTokenIn(range[0], range[1], rnd);
                assertTrue(Vnode.contains(range[0], range[1], token),
                        "seed " + seed + ": " + token + " outside (" + range[0] + ", " + range[1] + "]");
                assertNotEquals(Long.MIN_VALUE, token);
            }
        }
        // A draw landing on the minimum token falls back to the range end.
        ScriptedRandom toMinimum = new ScriptedRandom(Long.MIN_VALUE - 3);
        assertEquals(3L, TokenRanges.randomTokenIn(3, 3, toMinimum));
        assertThrows(IllegalArgumentException.class,
                () -> TokenRanges.randomTokenIn(0, Long.MIN_VALUE, new SplittableRandom(1)));
    }

    @Test
    void sameSeedSameGeneration() {
        TokenRing ring = TokenRing.empty().with("a", VnodeTokens.pick(16, new SplittableRandom(9), Set.of()));
        assertEquals(Generation.create(5, ring, new SplittableRandom(11)),
                Generation.create(5, ring, new SplittableRandom(11)));
    }

    @Test
    void invalidGenerationsAreRejected() {
        StreamId s = StreamId.create(1, 0, new SplittableRandom(1));
        assertThrows(IllegalArgumentException.class, () -> new Generation(1, List.of()));
        IllegalArgumentException unordered = assertThrows(IllegalArgumentException.class, () -> new Generation(1,
                List.of(new VnodeStreams(5, List.of(s)), new VnodeStreams(5, List.of(s)))));
        assertTrue(unordered.getMessage().contains("ascending"), unordered.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new VnodeStreams(5, List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> Generation.create(1, TokenRing.empty(), new SplittableRandom(1)));
    }
}
