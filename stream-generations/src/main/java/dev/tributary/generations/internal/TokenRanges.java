package dev.tributary.generations.internal;

import java.util.random.RandomGenerator;

/** Arithmetic on ring ranges {@code (start, end]}, which may wrap past the largest token. */
public final class TokenRanges {

    private TokenRanges() {
    }

    /**
     * A token drawn uniformly from {@code (start, end]}, wrapping past {@code Long.MAX_VALUE}; the
     * whole ring when {@code start == end}. The minimum token {@code Long.MIN_VALUE} is never
     * returned, because no key hashes to it: if it is drawn, {@code end} is returned instead, which
     * is in range and, being a ring token, never the minimum.
     *
     * @throws IllegalArgumentException if {@code end} is {@code Long.MIN_VALUE}
     */
    public static long randomTokenIn(long start, long end, RandomGenerator rnd) {
        if (end == Long.MIN_VALUE) {
            throw new IllegalArgumentException("a range cannot end at the minimum token " + Long.MIN_VALUE);
        }
        // The range's size as an unsigned 64-bit count; 0 stands for 2^64 (start == end).
        long size = end - start;
        long offset;
        if (size == 0) {
            offset = rnd.nextLong();
        } else if (size > 0) {
            offset = 1 + rnd.nextLong(size);
        } else {
            // More than 2^63 tokens: RandomGenerator has no unsigned bound, so reject draws that
            // fall outside [0, size); fewer than half of them do.
            long draw;
            do {
                draw = rnd.nextLong();
            } while (Long.compareUnsigned(draw, size) >= 0);
            offset = draw + 1;
        }
        long token = start + offset;
        return token == Long.MIN_VALUE ? end : token;
    }
}
