package dev.tributary.generations;

import java.util.HexFormat;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * A CDC stream ID: the 16-byte partition key {@code "cdc$stream_id"} of a CDC log table, laid out as
 * ScyllaDB's {@code cdc::stream_id} ({@code cdc/generation.cc}).
 *
 * <p>The high 64 bits are a token; the stream's log partition lives at that token, which is how a
 * generation keeps a base key and its stream in the same vnode or tablet. The low 64 bits are
 * {@code version | index << 4 | random << 26}: a 4-bit version (1), a 22-bit vnode index (0 for
 * tablet streams) and 38 random bits. Both halves are written big-endian.
 *
 * <p>Ordered by token (signed, as on the ring), then by the low half (unsigned), which is the
 * order ScyllaDB lists streams in {@code system.cdc_streams}. Immutable.
 *
 * @param high the token, the first 8 bytes
 * @param low version, index and random bits, the last 8 bytes
 */
public record StreamId(long high, long low) implements Comparable<StreamId> {

    /** The only version ScyllaDB creates. */
    public static final int VERSION_1 = 1;
    /** Size of a stream ID in bytes. */
    public static final int BYTES = 16;

    static final int VERSION_BITS = 4;
    static final int INDEX_BITS = 22;
    static final int RANDOM_BITS = 38;
    static final int INDEX_SHIFT = VERSION_BITS;
    static final int RANDOM_SHIFT = VERSION_BITS + INDEX_BITS;
    /** One past the largest index the 22 index bits can hold. */
    public static final int MAX_INDEX_EXCLUSIVE = 1 << INDEX_BITS;

    private static final HexFormat HEX = HexFormat.of();

    /**
     * A new version-1 stream ID at {@code token}, with {@code index} in the index bits and 38 bits
     * taken from {@code rnd}.
     *
     * @throws IllegalArgumentException if the index does not fit in 22 bits
     */
    public static StreamId create(long token, int index, RandomGenerator rnd) {
        Objects.requireNonNull(rnd, "rnd");
        if (index < 0 || index >= MAX_INDEX_EXCLUSIVE) {
            throw new IllegalArgumentException("stream index " + index + " for token " + token
                    + " does not fit in " + INDEX_BITS + " bits");
        }
        long random = rnd.nextLong() & ((1L << RANDOM_BITS) - 1);
        long low = VERSION_1 | ((long) index << INDEX_SHIFT) | (random << RANDOM_SHIFT);
        return new StreamId(token, low);
    }

    /**
     * Decodes the 16-byte form. The version is not checked: stream IDs from before ScyllaDB
     * versioned them have random low bits and must still be readable.
     *
     * @throws IllegalArgumentException if the array is not 16 bytes long
     */
    public static StreamId fromBytes(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length != BYTES) {
            throw new IllegalArgumentException("a CDC stream id is " + BYTES + " bytes, got " + bytes.length);
        }
        return new StreamId(bigEndianLong(bytes, 0), bigEndianLong(bytes, 8));
    }

    /**
     * Parses {@link #toHex()}'s form: {@code 0x} and 32 hex digits (either case).
     *
     * @throws IllegalArgumentException if the text is not of that form
     */
    public static StreamId fromHex(String hex) {
        Objects.requireNonNull(hex, "hex");
        if (hex.length() != 2 + 2 * BYTES || !(hex.startsWith("0x") || hex.startsWith("0X"))) {
            throw new IllegalArgumentException("not a CDC stream id (0x and 32 hex digits): '" + hex + "'");
        }
        try {
            return fromBytes(HEX.parseHex(hex, 2, hex.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a CDC stream id (0x and 32 hex digits): '" + hex + "'", e);
        }
    }

    /** The token the stream's log partition lives at. */
    public long token() {
        return high;
    }

    /** The vnode index the stream was created for (0 for tablet streams). */
    public int index() {
        return (int) ((low >>> INDEX_SHIFT) & (MAX_INDEX_EXCLUSIVE - 1));
    }

    /** The 4-bit version; 1 for every stream ID this module creates. */
    public int version() {
        return (int) (low & ((1 << VERSION_BITS) - 1));
    }

    /** The 38 random bits. */
    public long randomBits() {
        return low >>> RANDOM_SHIFT;
    }

    /** The 16-byte big-endian form, the value of the {@code "cdc$stream_id"} blob. */
    public byte[] toBytes() {
        byte[] out = new byte[BYTES];
        putBigEndianLong(out, 0, high);
        putBigEndianLong(out, 8, low);
        return out;
    }

    /** {@code 0x} and 32 lowercase hex digits, as cqlsh shows a blob. */
    public String toHex() {
        return "0x" + HEX.formatHex(toBytes());
    }

    @Override
    public int compareTo(StreamId other) {
        int byToken = Long.compare(high, other.high);
        return byToken != 0 ? byToken : Long.compareUnsigned(low, other.low);
    }

    @Override
    public String toString() {
        return toHex();
    }

    private static long bigEndianLong(byte[] bytes, int offset) {
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (bytes[offset + i] & 0xffL);
        }
        return value;
    }

    private static void putBigEndianLong(byte[] out, int offset, long value) {
        for (int i = 7; i >= 0; i--) {
            out[offset + i] = (byte) value;
            value >>>= 8;
        }
    }
}
