package dev.tributary.dictionary.io;

import java.nio.charset.StandardCharsets;

/** Reads what {@link BinaryWriter} wrote; a short or malformed input throws {@link CorruptRecordException}. */
public final class BinaryReader {
    private final byte[] buf;
    private final int end;
    private int pos;

    public BinaryReader(byte[] buf) {
        this(buf, buf.length);
    }

    /** Reads the first {@code length} bytes of {@code buf} (what follows, a checksum say, is not the record's). */
    public BinaryReader(byte[] buf, int length) {
        if (length < 0 || length > buf.length) {
            throw new IllegalArgumentException("length " + length + " of a " + buf.length + "-byte buffer");
        }
        this.buf = buf;
        this.end = length;
    }

    private void need(int n) {
        if (n < 0 || pos + n > end) {
            throw new CorruptRecordException("record truncated at byte " + pos + " of " + end);
        }
    }

    public int u8() {
        need(1);
        return buf[pos++] & 0xFF;
    }

    public int i32() {
        need(4);
        int v = ((buf[pos] & 0xFF) << 24) | ((buf[pos + 1] & 0xFF) << 16) | ((buf[pos + 2] & 0xFF) << 8)
                | (buf[pos + 3] & 0xFF);
        pos += 4;
        return v;
    }

    public long i64() {
        need(8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buf[pos++] & 0xFF);
        }
        return v;
    }

    public long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = u8();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new CorruptRecordException("varint too long at byte " + pos);
    }

    public int count() {
        long n = varint();
        if (n > end - pos + 1L) {
            throw new CorruptRecordException("count " + n + " exceeds record size at byte " + pos);
        }
        return (int) n;
    }

    public byte[] bytes() {
        long n = varint();
        if (n == 0) {
            return null;
        }
        int len = (int) (n - 1);
        need(len);
        byte[] out = new byte[len];
        System.arraycopy(buf, pos, out, 0, len);
        pos += len;
        return out;
    }

    /** Exactly {@code n} bytes, as {@link BinaryWriter#raw} wrote them (no length). */
    public byte[] raw(int n) {
        need(n);
        byte[] out = java.util.Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return out;
    }

    public String string() {
        byte[] b = bytes();
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    public boolean atEnd() {
        return pos == end;
    }

    public void expectEnd() {
        if (pos != end) {
            throw new CorruptRecordException((end - pos) + " trailing bytes after record");
        }
    }
}
