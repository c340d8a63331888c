package dev.tributary.generations;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamIdTest {

    @Test
    void decodesTheSeedsTabletStream() {
        // seed: CDC-TAB-1 — the stream of the second of two tablets in the "Tablet Split" example.
        StreamId id = StreamId.fromHex("0x7fffffffffffffff55ebbda510000001");
        assertEquals(Long.MAX_VALUE, id.token());
        assertEquals(0, id.index());
        assertEquals(1, id.version());
        assertEquals(0x55ebbda510000001L, id.low());
        assertEquals("0x7fffffffffffffff55ebbda510000001", id.toHex());
        assertEquals(0x55ebbda510000001L >>> 26, id.randomBits());
    }

    @Test
    void everyStreamOfTheSeedsSplitIsVersionOneIndexZero() {
        for (String hex : List.of("0xffffffffffffffff50e84c99d4000001", "0xbfffffffffffffffa67123f568000001",
                "0xffffffffffffffffe28e96d4f4000001", "0x3fffffffffffffff296a1c0f24000001",
                "0x7fffffffffffffff9573ad2614000001")) {
            StreamId id = StreamId.fromHex(hex);
            assertEquals(1, id.version(), hex);
            assertEquals(0, id.index(), hex);
            assertEquals(hex, id.toHex());
        }
    }

    @Test
    void createLaysOutVersionIndexAndRandomBitsLikeScylla() {
        long draw = new SplittableRandom(7).nextLong();
        StreamId id = StreamId.create(-42L, 1234, new SplittableRandom(7));
        assertEquals(-42L, id.token());
        assertEquals(-42L, id.high());
        assertEquals(1, id.version());
        assertEquals(1234, id.index());
        assertEquals(draw & ((1L << 38) - 1), id.randomBits());
        assertEquals(1L | (1234L << 4) | ((draw & ((1L << 38) - 1)) << 26), id.low());
    }

    @Test
    void largestIndexFitsAndLargerOnesAreRejected() {
        StreamId id = StreamId.create(0, StreamId.MAX_INDEX_EXCLUSIVE - 1, new SplittableRandom(1));
        assertEquals(StreamId.MAX_INDEX_EXCLUSIVE - 1, id.index());
        assertEquals(1, id.version());
        assertThrows(IllegalArgumentException.class,
                () -> StreamId.create(0, StreamId.MAX_INDEX_EXCLUSIVE, new SplittableRandom(1)));
        assertThrows(IllegalArgumentException.class, () -> StreamId.create(0, -1, new SplittableRandom(1)));
    }

    @Test
    void bytesAreBigEndianAndRoundTrip() {
        StreamId id = new StreamId(0x0102030405060708L, 0x090a0b0c0d0e0f10L);
        byte[] bytes = id.toBytes();
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, bytes);
        assertEquals(id, StreamId.fromBytes(bytes));
        assertEquals("0x0102030405060708090a0b0c0d0e0f10", id.toHex());
        assertEquals(id, StreamId.fromHex("0X0102030405060708090A0B0C0D0E0F10"));
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < 1000; i++) {
            StreamId random = new StreamId(rnd.nextLong(), rnd.nextLong());
            assertEquals(random, StreamId.fromBytes(random.toBytes()));
            assertEquals(random, StreamId.fromHex(random.toHex()));
        }
    }

    @Test
    void preVersionedIdsStillDecode() {
        // The seed's vnode example logs to 0x0521d5ce4a4a8ca552f83d88a1ae55d2, a stream id from
        // before ScyllaDB versioned them: its low bits are random (version 2 here).
        StreamId old = StreamId.fromHex("0x0521d5ce4a4a8ca552f83d88a1ae55d2");
        assertEquals(0x0521d5ce4a4a8ca5L, old.token());
        assertEquals(2, old.version());
    }

    @Test
    void malformedInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> StreamId.fromBytes(new byte[15]));
        assertThrows(IllegalArgumentException.class, () -> StreamId.fromBytes(new byte[17]));
        assertThrows(IllegalArgumentException.class, () -> StreamId.fromHex("7fffffffffffffff55ebbda510000001"));
        assertThrows(IllegalArgumentException.class, () -> StreamId.fromHex("0x7fffffffffffffff55ebbda51000000"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StreamId.fromHex("0x7fffffffffffffff55ebbda51000000g"));
        assertTrue(e.getMessage().contains("0x7fffffffffffffff55ebbda51000000g"), e.getMessage());
    }

    @Test
    void orderIsSignedTokenThenUnsignedLow() {
        // seed: CDC-TAB-3 — system.cdc_streams lists a timestamp's streams in this order.
        List<StreamId> expected = List.of(
                StreamId.fromHex("0xbfffffffffffffffa67123f568000001"),
                StreamId.fromHex("0xffffffffffffffffe28e96d4f4000001"),
                StreamId.fromHex("0x3fffffffffffffff296a1c0f24000001"),
                StreamId.fromHex("0x7fffffffffffffff9573ad2614000001"));
        List<StreamId> shuffled = new ArrayList<>(expected);
        Collections.reverse(shuffled);
        Collections.sort(shuffled);
        assertEquals(expected, shuffled);
        assertTrue(new StreamId(5, 1).compareTo(new StreamId(5, -1)) < 0, "low half compares unsigned");
    }
}
