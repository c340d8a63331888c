package dev.tributary.dictionary.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class VIntCodingTest {

    private static byte[] unsigned(long v) {
        byte[] b = new byte[VIntCoding.MAX_SIZE];
        int end = VIntCoding.writeUnsigned(v, b, 0);
        assertEquals(VIntCoding.unsignedSize(v), end);
        return Arrays.copyOf(b, end);
    }

    @Test
    void encodesLikeCassandra() {
        HexFormat h = HexFormat.of();
        assertArrayEquals(h.parseHex("00"), unsigned(0));
        assertArrayEquals(h.parseHex("7f"), unsigned(127));
        assertArrayEquals(h.parseHex("8080"), unsigned(128));
        assertArrayEquals(h.parseHex("bfff"), unsigned(16383));
        assertArrayEquals(h.parseHex("c04000"), unsigned(16384));
        assertArrayEquals(h.parseHex("ffffffffffffffffff"), unsigned(-1));
        assertEquals(1, VIntCoding.encodeZigZag(-1));
        assertEquals(2, VIntCoding.encodeZigZag(1));
        assertEquals(-1, VIntCoding.encodeZigZag(Long.MIN_VALUE));
    }

    @Test
    void roundTripsRandomValues() {
        long seed = 42;
        System.out.println("seed " + seed);
        Random r = new Random(seed);
        for (int i = 0; i < 10_000; i++) {
            long v = r.nextLong() >> r.nextInt(64);
            byte[] b = new byte[VIntCoding.MAX_SIZE];
            int end = VIntCoding.writeSigned(v, b, 0);
            assertEquals(end, VIntCoding.sizeFromFirstByte(b[0]));
            assertEquals(v, VIntCoding.readSigned(b, 0));
        }
    }
}
