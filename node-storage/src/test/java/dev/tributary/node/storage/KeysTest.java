package dev.tributary.node.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class KeysTest {
    /** RocksDB's default comparator: bytewise, unsigned. */
    private static int bytewise(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    @Test
    @DisplayName("row keys sort partitions by signed token (the sign bit is flipped), then by table")
    void rowKeysSortBySignedToken() {
        long[] tokens = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1_000_000_000_000L, -1, 0, 1, 255, 256, Long.MAX_VALUE - 1,
            Long.MAX_VALUE};
        List<byte[]> expected = new ArrayList<>();
        for (long table : new long[] {1, 2}) {
            for (long t : tokens) {
                expected.add(Keys.rowKey(table, t, new byte[] {(byte) 0xFF}, List.of()));
            }
        }
        List<byte[]> sorted = new ArrayList<>(expected);
        Collections.shuffle(sorted, new Random(7));
        sorted.sort(KeysTest::bytewise);
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), sorted.get(i), "position " + i);
        }
    }

    @Test
    @DisplayName("token bounds and partition prefixes sort with the row keys they bound")
    void boundsAndPrefixes() {
        byte[] pk = {1, 2, 3};
        byte[] row = Keys.rowKey(4, -5, pk, List.of(new byte[] {9}));
        byte[] prefix = Keys.partitionPrefix(4, -5, pk);
        assertTrue(Keys.hasPrefix(row, prefix));
        assertTrue(Keys.hasPrefix(row, Keys.tablePrefix(4)));
        assertFalse(Keys.hasPrefix(row, Keys.tablePrefix(5)));
        assertTrue(bytewise(Keys.tokenBound(4, -5), row) < 0);
        assertTrue(bytewise(Keys.tokenBound(4, -4), row) > 0);
        assertTrue(bytewise(Keys.tokenBound(4, -6), Keys.tokenBound(4, -5)) < 0);
        assertTrue(bytewise(row, Keys.prefixEnd(prefix)) < 0);
        assertFalse(Keys.hasPrefix(new byte[] {0, 0}, Keys.tablePrefix(0)), "shorter than the prefix");
    }

    @Test
    void decodeRowKeyRoundTrip() {
        byte[] pk = "partition".getBytes(StandardCharsets.UTF_8);
        List<byte[]> ck = List.of(new byte[] {}, new byte[] {0, (byte) 0x80}, new byte[300]);
        for (long token : new long[] {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE}) {
            Keys.RowKey k = Keys.decodeRowKey(Keys.rowKey(77, token, pk, ck));
            assertEquals(77, k.objectNumber());
            assertEquals(token, k.token());
            assertArrayEquals(pk, k.partitionKey());
            assertEquals(ck.size(), k.clustering().size());
            for (int i = 0; i < ck.size(); i++) {
                assertArrayEquals(ck.get(i), k.clustering().get(i));
            }
        }
        Keys.RowKey noClustering = Keys.decodeRowKey(Keys.rowKey(1, 2, new byte[0], List.of()));
        assertEquals(0, noClustering.partitionKey().length);
        assertEquals(List.of(), noClustering.clustering());
    }

    @Test
    @DisplayName("prefixEnd is the smallest key above every key with the prefix")
    void prefixEnd() {
        assertArrayEquals(new byte[] {1, 3}, Keys.prefixEnd(new byte[] {1, 2}));
        assertArrayEquals(new byte[] {2}, Keys.prefixEnd(new byte[] {1, (byte) 0xFF}));
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 6}, Keys.prefixEnd(Keys.tablePrefix(5)));
        assertArrayEquals(new byte[] {(byte) 0x80}, Keys.prefixEnd(new byte[] {0x7F, (byte) 0xFF, (byte) 0xFF}));
        assertNull(Keys.prefixEnd(new byte[] {(byte) 0xFF, (byte) 0xFF}), "no key is above every 0xFF.. key");
        assertNull(Keys.prefixEnd(new byte[0]));
        byte[] prefix = {3, (byte) 0xFF};
        byte[] end = Keys.prefixEnd(prefix);
        for (byte[] k : List.of(new byte[] {3, (byte) 0xFF}, new byte[] {3, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF})) {
            assertTrue(bytewise(k, end) < 0);
        }
        assertFalse(Keys.hasPrefix(end, prefix));
    }

    @Test
    @DisplayName("meta keys: a UTF-8 prefix, and a big-endian suffix that sorts in number order")
    void metaKeys() {
        assertArrayEquals("ckpt/CDC$IMPLICIT".getBytes(StandardCharsets.UTF_8), Keys.meta("ckpt/CDC$IMPLICIT"));
        byte[] k = Keys.meta("dict/", 258);
        assertEquals(5 + 8, k.length);
        assertTrue(Keys.hasPrefix(k, Keys.meta("dict/")));
        assertEquals(258, Keys.metaSuffix(k, 5));
        assertTrue(bytewise(Keys.meta("dict/", 255), Keys.meta("dict/", 256)) < 0);
        assertTrue(bytewise(Keys.meta("dict/", 1L << 40), Keys.meta("dict/", Long.MAX_VALUE)) < 0);
        byte[] end = Keys.prefixEnd(Keys.meta("dict/"));
        assertTrue(bytewise(Keys.meta("dict/", Long.MAX_VALUE), end) < 0);
        assertTrue(bytewise(Keys.meta("dict0"), end) >= 0, "another prefix is outside");
    }

    @Test
    void scnKeysSortInScnOrder() {
        assertEquals(123_456_789L, Keys.scnOf(Keys.scn(123_456_789L)));
        assertTrue(bytewise(Keys.scn(255), Keys.scn(256)) < 0);
        assertTrue(bytewise(Keys.scn(1L << 56), Keys.scn((1L << 56) + 1)) < 0);
    }
}
