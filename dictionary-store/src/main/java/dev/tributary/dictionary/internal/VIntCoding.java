package dev.tributary.dictionary.internal;

/**
 * Cassandra's variable-length integer coding ({@code org.apache.cassandra.utils.vint.VIntCoding}),
 * used by the duration serialization and by the dictionary codec.
 *
 * <p>An unsigned vint stores the count of extra bytes as leading one bits of the first byte,
 * followed by a zero bit and the value big-endian; a value under 128 takes one byte, and 9 bytes
 * (first byte 0xFF) hold any 64-bit value. Signed values are zigzag-encoded first. Stateless and
 * thread-safe.
 */
public final class VIntCoding {
    /** The longest encoding, in bytes. */
    public static final int MAX_SIZE = 9;

    private VIntCoding() {
    }

    public static long encodeZigZag(long n) {
        return (n << 1) ^ (n >> 63);
    }

    public static long decodeZigZag(long n) {
        return (n >>> 1) ^ -(n & 1);
    }

    /** Bytes taken by {@code value} read as unsigned. */
    public static int unsignedSize(long value) {
        int magnitude = Long.numberOfLeadingZeros(value | 1);
        return 9 - ((magnitude - 1) / 7);
    }

    /** Bytes taken by {@code value} zigzag-encoded. */
    public static int signedSize(long value) {
        return unsignedSize(encodeZigZag(value));
    }

    /** Writes {@code value} as an unsigned vint at {@code offset}; returns the offset after it. */
    public static int writeUnsigned(long value, byte[] dest, int offset) {
        int size = unsignedSize(value);
        if (size == 1) {
            dest[offset] = (byte) value;
            return offset + 1;
        }
        int extra = size - 1;
        long v = value;
        for (int i = extra; i >= 0; i--) {
            dest[offset + i] = (byte) v;
            v >>= 8;
        }
        dest[offset] |= (byte) ~(0xff >> extra);
        return offset + size;
    }

    /** Writes {@code value} zigzag-encoded; returns the offset after it. */
    public static int writeSigned(long value, byte[] dest, int offset) {
        return writeUnsigned(encodeZigZag(value), dest, offset);
    }

    /** The size of the vint whose first byte is {@code firstByte}. */
    public static int sizeFromFirstByte(byte firstByte) {
        return firstByte >= 0 ? 1 : 1 + Integer.numberOfLeadingZeros(~firstByte) - 24;
    }

    /**
     * Reads an unsigned vint at {@code offset}; the caller has checked that
     * {@link #sizeFromFirstByte} bytes are there.
     */
    public static long readUnsigned(byte[] src, int offset) {
        byte first = src[offset];
        if (first >= 0) {
            return first;
        }
        int extra = Integer.numberOfLeadingZeros(~first) - 24;
        long v = first & (0xff >> extra);
        for (int i = 1; i <= extra; i++) {
            v = (v << 8) | (src[offset + i] & 0xff);
        }
        return v;
    }

    /** Reads a zigzag-encoded vint; see {@link #readUnsigned}. */
    public static long readSigned(byte[] src, int offset) {
        return decodeZigZag(readUnsigned(src, offset));
    }
}
