package dev.tributary.dictionary.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class BinaryWriterTest {
    @Test
    void sizesMatchWhatIsWritten() {
        for (long v : new long[] {0, 1, 127, 128, 16_383, 16_384, Integer.MAX_VALUE, Long.MAX_VALUE, -1}) {
            BinaryWriter w = new BinaryWriter(0).varint(v);
            assertEquals(BinaryWriter.varintSize(v), w.toByteArray().length, "varint " + v);
        }
        for (byte[] b : new byte[][] {null, {}, new byte[126], new byte[127], new byte[300]}) {
            assertEquals(BinaryWriter.bytesSize(b), new BinaryWriter(0).bytes(b).toByteArray().length);
        }
    }

    @Test
    void anExactlySizedWriterHandsOverItsBufferAndAnArrayItReturnedNeverChanges() {
        BinaryWriter w = new BinaryWriter(16).i64(1).i64(2);
        byte[] first = w.toByteArray();
        assertSame(first, w.toByteArray(), "no copy when the buffer is full");
        byte[] before = first.clone();
        w.u8(9);
        assertArrayEquals(before, first, "a later write moves to a new buffer");
        assertEquals(17, w.toByteArray().length);
    }

    @Test
    void aResetWriterNeverOverwritesAnArrayItHandedOver() {
        BinaryWriter w = new BinaryWriter(16);
        byte[] first = w.i64(1).i64(2).toByteArray();
        byte[] before = first.clone();
        byte[] second = w.reset().i64(3).i64(4).toByteArray();
        assertArrayEquals(before, first);
        assertEquals(16, second.length);
        assertArrayEquals(new BinaryWriter(0).i64(3).i64(4).toByteArray(), second);
    }

    @Test
    void stringsAreUtf8WhetherAsciiOrNot() {
        for (String s : new String[] {"", "ks.t", "caf\u00e9", "\u20ac\uD83D\uDE00", "x".repeat(300)}) {
            BinaryReader r = new BinaryReader(new BinaryWriter(0).string(s).toByteArray());
            assertEquals(s, r.string());
        }
    }
}
