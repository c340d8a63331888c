package dev.tributary.client.internal;

/**
 * Cassandra's {@code Murmur3Partitioner} token of a serialized partition key: the first half of
 * MurmurHash3 x64_128, seed 0, with Cassandra's sign-extended tail bytes (a tail byte {@code >= 0x80}
 * hashes differently from the reference C code, and Cassandra's value is the one nodes use).
 *
 * <p>This duplicates {@code dev.tributary.generations.Murmur3Partitioner} on purpose: the SDK
 * depends on the wire contract only (docs/ARCHITECTURE.md, modules), never on server modules, so
 * it carries its own compact copy. {@code Murmur3Test} pins the same published Cassandra token
 * values as the server's test, so the two cannot drift apart. Stateless and thread-safe.
 */
public final class Murmur3 {
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private Murmur3() {
    }

    /** The token; {@code Long.MIN_VALUE} (the ring's minimum) only for the empty key. */
    public static long token(byte[] key) {
        int length = key.length;
        if (length == 0) {
            return Long.MIN_VALUE;
        }
        long h1 = 0;
        long h2 = 0;
        int blocks = length >>> 4;
        for (int i = 0; i < blocks; i++) {
            h1 ^= mixK1(littleEndian(key, i << 4));
            h1 = Long.rotateLeft(h1, 27) + h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(littleEndian(key, (i << 4) + 8));
            h2 = Long.rotateLeft(h2, 31) + h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int tail = blocks << 4;
        int tailLength = length & 15;
        long k1 = 0;
        long k2 = 0;
        // (long) of a signed byte sign-extends: Cassandra's quirk, which the token must follow
        for (int i = tailLength - 1; i >= 8; i--) {
            k2 ^= ((long) key[tail + i]) << ((i - 8) * 8);
        }
        if (tailLength > 8) {
            h2 ^= mixK2(k2);
        }
        for (int i = Math.min(tailLength, 8) - 1; i >= 0; i--) {
            k1 ^= ((long) key[tail + i]) << (i * 8);
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
        // the minimum token is reserved for the ring; Cassandra's normalize maps a hash equal to it up
        return h1 == Long.MIN_VALUE ? Long.MAX_VALUE : h1;
    }

    private static long mixK1(long k1) {
        return Long.rotateLeft(k1 * C1, 31) * C2;
    }

    private static long mixK2(long k2) {
        return Long.rotateLeft(k2 * C2, 33) * C1;
    }

    private static long littleEndian(byte[] b, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[at + i] & 0xffL);
        }
        return v;
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
