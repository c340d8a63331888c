package dev.tributary.generations;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Cassandra's and ScyllaDB's {@code Murmur3Partitioner}: the token of a serialized partition key.
 *
 * <p>The token is the first 64-bit half of MurmurHash3 x64_128 with seed 0, computed exactly as
 * {@code org.apache.cassandra.utils.MurmurHash.hash3_x64_128} does, including its deviation from
 * the reference C implementation: the bytes of the tail (the last {@code length % 16} bytes) are
 * read as <em>signed</em> Java bytes and sign-extended to 64 bits before they are shifted into
 * place. Keys whose tail holds a byte {@code >= 0x80} therefore hash differently from "standard"
 * Murmur3, and we must match Cassandra, not the reference, so that {@code token(pk)} equals the
 * value Cassandra and ScyllaDB compute for the same key.
 *
 * <p>{@code Long.MIN_VALUE} is the ring's minimum token and never the token of a key: a hash equal to
 * it is mapped to {@code Long.MAX_VALUE} (Cassandra's {@code normalize}). The empty key is the one
 * exception, whose token is the minimum token, as in Cassandra's {@code getToken}.
 *
 * <p>Stateless and thread-safe.
 */
public final class Murmur3Partitioner {

    /** The smallest token; only the empty key has it. */
    public static final long MINIMUM_TOKEN = Long.MIN_VALUE;

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private Murmur3Partitioner() {
    }

    /**
     * The token of a serialized partition key (see {@link PartitionKeys#serialize} for keys with
     * several components).
     *
     * @throws NullPointerException if the key is null
     */
    public static long token(byte[] serializedPartitionKey) {
        Objects.requireNonNull(serializedPartitionKey, "serializedPartitionKey");
        return token(ByteBuffer.wrap(serializedPartitionKey));
    }

    /**
     * The token of the bytes between the buffer's position and its limit. The buffer's position,
     * limit and byte order are not changed.
     *
     * @throws NullPointerException if the key is null
     */
    public static long token(ByteBuffer serializedPartitionKey) {
        Objects.requireNonNull(serializedPartitionKey, "serializedPartitionKey");
        int length = serializedPartitionKey.remaining();
        if (length == 0) {
            return MINIMUM_TOKEN;
        }
        long h1 = hash3x64x128(serializedPartitionKey, serializedPartitionKey.position(), length, 0L)[0];
        return h1 == Long.MIN_VALUE ? Long.MAX_VALUE : h1;
    }

    /**
     * MurmurHash3 x64_128 of {@code length} bytes of {@code key} starting at absolute index
     * {@code offset}, with Cassandra's sign-extended tail; returns {@code {h1, h2}}.
     *
     * @throws IndexOutOfBoundsException if the range lies outside the buffer
     */
    public static long[] hash3x64x128(ByteBuffer key, int offset, int length, long seed) {
        Objects.requireNonNull(key, "key");
        Objects.checkFromIndexSize(offset, length, key.limit());
        int blocks = length >>> 4;
        long h1 = seed;
        long h2 = seed;

        for (int i = 0; i < blocks; i++) {
            int blockStart = offset + (i << 4);
            long k1 = littleEndianLong(key, blockStart);
            long k2 = littleEndianLong(key, blockStart + 8);

            h1 ^= mixK1(k1);
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;

            h2 ^= mixK2(k2);
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }

        int tailStart = offset + (blocks << 4);
        int tailLength = length & 15;
        long k1 = 0;
        long k2 = 0;
        // Cassandra's switch falls through from the highest tail byte down; bytes 8..14 feed k2 and
        // bytes 0..7 feed k1. The (long) cast of a signed byte is the sign extension we must keep.
        for (int i = tailLength - 1; i >= 8; i--) {
            k2 ^= ((long) key.get(tailStart + i)) << ((i - 8) * 8);
        }
        if (tailLength > 8) {
            h2 ^= mixK2(k2);
        }
        for (int i = Math.min(tailLength, 8) - 1; i >= 0; i--) {
            k1 ^= ((long) key.get(tailStart + i)) << (i * 8);
        }
        if (tailLength > 0) {
            h1 ^= mixK1(k1);
        }

        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        h2 += h1;
        return new long[] {h1, h2};
    }

    private static long mixK1(long k1) {
        k1 *= C1;
        k1 = Long.rotateLeft(k1, 31);
        return k1 * C2;
    }

    private static long mixK2(long k2) {
        k2 *= C2;
        k2 = Long.rotateLeft(k2, 33);
        return k2 * C1;
    }

    /** Body blocks are read unsigned, little-endian, whatever the buffer's byte order. */
    private static long littleEndianLong(ByteBuffer key, int index) {
        long value = 0;
        for (int i = 7; i >= 0; i--) {
            value = (value << 8) | (key.get(index + i) & 0xffL);
        }
        return value;
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
