package dev.tributary.dictionary.io;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable big-endian byte writer for Tributary's stored formats (redo, log, rows). Not thread-safe. */
public final class BinaryWriter {
    private byte[] buf;
    private int len;
    /** {@link #toByteArray} handed {@code buf} out: the next write or reset must not touch it. */
    private boolean handedOut;

    public BinaryWriter(int initial) {
        buf = new byte[Math.max(16, initial)];
    }

    private void ensure(int n) {
        if (handedOut || len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
            handedOut = false;
        }
    }

    /** Empties the writer for the next record, keeping its buffer (one writer serves many records). */
    public BinaryWriter reset() {
        if (handedOut) {
            buf = new byte[buf.length];
            handedOut = false;
        }
        len = 0;
        return this;
    }

    public BinaryWriter u8(int v) {
        ensure(1);
        buf[len++] = (byte) v;
        return this;
    }

    public BinaryWriter i32(int v) {
        ensure(4);
        buf[len++] = (byte) (v >>> 24);
        buf[len++] = (byte) (v >>> 16);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
        return this;
    }

    public BinaryWriter i64(long v) {
        ensure(8);
        for (int s = 56; s >= 0; s -= 8) {
            buf[len++] = (byte) (v >>> s);
        }
        return this;
    }

    /** Unsigned LEB128 varint, for small counts and lengths. */
    public BinaryWriter varint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[len++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[len++] = (byte) v;
        return this;
    }

    /** How many bytes {@link #varint} writes for v. */
    public static int varintSize(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** How many bytes {@link #bytes} writes for b. */
    public static int bytesSize(byte[] b) {
        return b == null ? 1 : varintSize(b.length + 1L) + b.length;
    }

    /** A nullable byte string: varint(length + 1), 0 for null. */
    public BinaryWriter bytes(byte[] b) {
        if (b == null) {
            return varint(0);
        }
        varint(b.length + 1L);
        raw(b);
        return this;
    }

    public BinaryWriter raw(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
        return this;
    }

    public BinaryWriter string(String s) {
        return bytes(s == null ? null : s.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The bytes written. A writer sized exactly up front hands over its buffer without a copy; a
     * later write or reset then moves to a new buffer, so the returned array never changes.
     */
    public byte[] toByteArray() {
        if (len == buf.length) {
            handedOut = true;
            return buf;
        }
        return Arrays.copyOf(buf, len);
    }
}
