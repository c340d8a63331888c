package dev.tributary.client;

import java.util.List;

/**
 * A consumer group member's share of the token ring, by the rule of groups.proto: with n members
 * (sorted), member k reads the streams whose token t (the stream id's high 64 bits, signed)
 * satisfies {@code floor((t + 2^63) * n / 2^64) == k}. Every member computes the same split from
 * the same member list, so the shares cover the ring without overlap, and a partition's streams
 * of every stream set land with the same member while the membership stays.
 *
 * @param member  this member's index in the sorted member list
 * @param members how many members the group has
 */
record RingShare(int member, int members) implements StreamAssignment {
    RingShare {
        if (members < 1 || member < 0 || member >= members) {
            throw new IllegalArgumentException("member " + member + " of " + members);
        }
    }

    /** The share of {@code memberId} in a group whose sorted member list is {@code sorted}. */
    static RingShare of(String memberId, List<String> sorted) {
        int k = sorted.indexOf(memberId);
        if (k < 0) {
            throw new IllegalArgumentException("member " + memberId + " is not in " + sorted);
        }
        return new RingShare(k, sorted.size());
    }

    /** The member (0-based) of {@code members} that reads a stream with this token. */
    static int memberOf(long token, int members) {
        long u = token ^ Long.MIN_VALUE; // t + 2^63 as an unsigned 64-bit number
        // floor(u * n / 2^64) is the high word of the unsigned 128-bit product (Java 17 has only
        // the signed multiplyHigh: add n back when u's top bit made it negative)
        return (int) (Math.multiplyHigh(u, members) + ((u >> 63) & members));
    }

    static long token(StreamDescriptor stream) {
        return stream.streamId().duplicate().getLong();
    }

    @Override
    public boolean assigned(StreamDescriptor stream) {
        return memberOf(token(stream), members) == member;
    }
}
