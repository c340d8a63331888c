package dev.tributary.generations.internal;

import dev.tributary.generations.errors.CorruptGenerationDataException;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads big-endian values from a byte range, failing with a {@link CorruptGenerationDataException}
 * that names the data and the offset instead of an {@link IndexOutOfBoundsException}. Not
 * thread-safe.
 */
public final class ByteReader {

    private final String what;
    private final byte[] data;
    private final int end;
    private int at;

    /** Reads {@code data[from, end)}; {@code what} names the data in error messages. */
    public ByteReader(String what, byte[] data, int from, int end) {
        this.what = what;
        this.data = data;
        this.at = from;
        this.end = end;
    }

    public int position() {
        return at;
    }

    public int remaining() {
        return end - at;
    }

    public byte readByte(String field) {
        require(1, field);
        return data[at++];
    }

    public int readUnsignedShort(String field) {
        require(2, field);
        int value = ((data[at] & 0xff) << 8) | (data[at + 1] & 0xff);
        at += 2;
        return value;
    }

    public int readInt(String field) {
        require(4, field);
        int value = 0;
        for (int i = 0; i < 4; i++) {
            value = (value << 8) | (data[at + i] & 0xff);
        }
        at += 4;
        return value;
    }

    public long readLong(String field) {
        require(8, field);
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (data[at + i] & 0xffL);
        }
        at += 8;
        return value;
    }

    public byte[] readBytes(int length, String field) {
        require(length, field);
        byte[] out = new byte[length];
        System.arraycopy(data, at, out, 0, length);
        at += length;
        return out;
    }

    /** A UTF-8 string of {@code length} bytes; malformed UTF-8 is corruption, not replaced. */
    public String readUtf8(int length, String field) {
        int start = at;
        byte[] bytes = readBytes(length, field);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw corrupt("malformed UTF-8 in " + field + " at byte " + start, e);
        }
    }

    /**
     * Reads a non-negative element count and checks that {@code count * minElementBytes} bytes are
     * left, so a corrupt count fails here rather than by allocating a huge list.
     */
    public int readCount(String field, int minElementBytes) {
        int countAt = at;
        int count = readInt(field);
        if (count < 0 || (long) count * minElementBytes > remaining()) {
            throw corrupt(field + " " + count + " at byte " + countAt + " does not fit in the " + remaining()
                    + " bytes left");
        }
        return count;
    }

    /** Fails unless every byte was read. */
    public void expectEnd() {
        if (at != end) {
            throw corrupt((end - at) + " unexpected trailing bytes at byte " + at);
        }
    }

    public CorruptGenerationDataException corrupt(String detail) {
        return new CorruptGenerationDataException(what + ": " + detail);
    }

    public CorruptGenerationDataException corrupt(String detail, Throwable cause) {
        return new CorruptGenerationDataException(what + ": " + detail, cause);
    }

    private void require(int n, String field) {
        if (n < 0 || end - at < n) {
            throw corrupt("truncated reading " + field + " at byte " + at + ": needs " + n + " bytes, "
                    + (end - at) + " left");
        }
    }
}
