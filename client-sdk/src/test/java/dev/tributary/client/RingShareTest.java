package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The ring-share rule of groups.proto: floor((t + 2^63) * n / 2^64) == k. */
class RingShareTest {
    private static int reference(long token, int n) {
        BigInteger shifted = BigInteger.valueOf(token).add(BigInteger.ONE.shiftLeft(63));
        return shifted.multiply(BigInteger.valueOf(n)).shiftRight(64).intValueExact();
    }

    private static StreamDescriptor stream(long token) {
        ByteBuffer id = ByteBuffer.allocate(16).putLong(token).putLong(42).flip();
        return new StreamDescriptor("vnodes", id, 0, 0, Long.MIN_VALUE, Long.MAX_VALUE, List.of());
    }

    @Test
    void matchesTheRuleExactlyAtTheEdgesAndAtRandom() {
        long[] edges = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE,
                Long.MIN_VALUE / 3, Long.MAX_VALUE / 3, Long.MAX_VALUE / 3 + 1, -(Long.MAX_VALUE / 3) - 1};
        SplittableRandom random = new SplittableRandom(7);
        for (int n = 1; n <= 17; n++) {
            for (long t : edges) {
                assertEquals(reference(t, n), RingShare.memberOf(t, n), "token " + t + " of " + n);
            }
            for (int i = 0; i < 2000; i++) {
                long t = random.nextLong();
                assertEquals(reference(t, n), RingShare.memberOf(t, n), "token " + t + " of " + n);
            }
        }
        assertEquals(0, RingShare.memberOf(Long.MIN_VALUE, 5));
        assertEquals(4, RingShare.memberOf(Long.MAX_VALUE, 5));
        assertEquals(1, RingShare.memberOf(0, 2), "the schema stream (token 0) goes to member n/2");
    }

    @Test
    void everyStreamHasExactlyOneMemberAndTheSortedListDecidesWho() {
        List<String> members = List.of("a", "b", "c");
        SplittableRandom random = new SplittableRandom(11);
        int[] counts = new int[3];
        for (int i = 0; i < 3000; i++) {
            StreamDescriptor s = stream(random.nextLong());
            int owners = 0;
            for (String m : members) {
                if (RingShare.of(m, members).assigned(s)) {
                    owners++;
                    counts[members.indexOf(m)]++;
                }
            }
            assertEquals(1, owners);
        }
        for (int c : counts) {
            assertTrue(c > 800, "roughly a third each: " + java.util.Arrays.toString(counts));
        }
        assertTrue(RingShare.of("a", members).assigned(stream(Long.MIN_VALUE)));
        assertFalse(RingShare.of("b", members).assigned(stream(Long.MIN_VALUE)));
        assertTrue(RingShare.of("c", members).assigned(stream(Long.MAX_VALUE)));
    }
}
