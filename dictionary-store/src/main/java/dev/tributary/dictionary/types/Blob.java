package dev.tributary.dictionary.types;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/** An immutable blob value; equal by content. Printed as {@code 0x} + lowercase hex. */
public final class Blob implements Comparable<Blob> {
    private static final HexFormat HEX = HexFormat.of();
    private final byte[] bytes;

    private Blob(byte[] bytes) {
        this.bytes = bytes;
    }

    public static Blob of(byte[] bytes) {
        return new Blob(bytes.clone());
    }

    /** A copy of the buffer's remaining bytes (the buffer's position does not move). */
    public static Blob of(ByteBuffer bytes) {
        byte[] b = new byte[bytes.remaining()];
        bytes.duplicate().get(b);
        return new Blob(b);
    }

    /** Parses {@code 0x...} (or bare hex). */
    public static Blob fromHex(String hex) {
        String h = hex.startsWith("0x") || hex.startsWith("0X") ? hex.substring(2) : hex;
        return new Blob(HEX.parseHex(h));
    }

    /** Takes ownership of {@code bytes} without a copy: the codec hands over arrays it just made. */
    static Blob wrap(byte[] bytes) {
        return new Blob(bytes);
    }

    /** The backing array, not a copy; callers in this package only read it. */
    byte[] array() {
        return bytes;
    }

    /** A read-only view of the bytes, for copying them once into another buffer type. */
    public ByteBuffer asReadOnlyBuffer() {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    public byte[] toByteArray() {
        return bytes.clone();
    }

    public int length() {
        return bytes.length;
    }

    public byte byteAt(int i) {
        return bytes[i];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Blob b && Arrays.equals(bytes, b.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public int compareTo(Blob o) {
        return Arrays.compareUnsigned(bytes, o.bytes);
    }

    @Override
    public String toString() {
        return "0x" + HEX.formatHex(bytes);
    }
}
