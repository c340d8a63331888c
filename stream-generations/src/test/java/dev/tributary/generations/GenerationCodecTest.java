package dev.tributary.generations;

import dev.tributary.generations.errors.CorruptGenerationDataException;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GenerationCodecTest {

    private static Generation generation(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        TokenRing ring = TokenRing.empty().with("n1", VnodeTokens.pick(32, rnd, Set.of()));
        ring = ring.with("n2", VnodeTokens.pick(32, rnd, Set.copyOf(ring.tokens())));
        return Generation.create(1_585_140_283_006L, ring, rnd);
    }

    /** Appends a valid checksum to a hand-made body, to reach the checks after the checksum. */
    private static byte[] withChecksum(byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        return ByteBuffer.allocate(body.length + 4).put(body).putInt((int) crc.getValue()).array();
    }

    private static String corrupt(Runnable decode) {
        return assertThrows(CorruptGenerationDataException.class, decode::run).getMessage();
    }

    @Test
    void generationRoundTrips() {
        Generation original = generation(1);
        byte[] encoded = GenerationCodec.encode(original);
        assertEquals(GenerationCodec.GENERATION_V1, encoded[0]);
        assertEquals(1 + 8 + 4 + 64 * (8 + 4 + 16) + 4, encoded.length);
        assertEquals(original, GenerationCodec.decodeGeneration(encoded));

        StreamId a = StreamId.fromHex("0x0521d5ce4a4a8ca552f83d88a1ae55d2");
        StreamId b = StreamId.fromHex("0x166eddaa68db9a95af83968998626f7c");
        Generation sharded = new Generation(7, List.of(new VnodeStreams(Long.MAX_VALUE, List.of(a, b))));
        assertEquals(sharded, GenerationCodec.decodeGeneration(GenerationCodec.encode(sharded)));
    }

    @Test
    void tabletStreamSetAndMapRoundTrip() {
        TabletMap map = new TabletMap(List.of("node-1", "nœud-2", "node-1", "ノード3"));
        assertEquals(map, GenerationCodec.decodeTabletMap(GenerationCodec.encode(map)));
        TabletStreamSet set = TabletStreamSet.create(99, map, new SplittableRandom(4));
        assertEquals(set, GenerationCodec.decodeTabletStreamSet(GenerationCodec.encode(set)));
        assertArrayEquals(GenerationCodec.encode(set), GenerationCodec.encode(set), "encoding is deterministic");
    }

    @Test
    void wrongFormatByteNamesBothKinds() {
        byte[] map = GenerationCodec.encode(TabletMap.create(2, List.of("a")));
        String message = corrupt(() -> GenerationCodec.decodeGeneration(map));
        assertEquals("generation data: format byte 0x03 is not 0x01 (generation v1); it holds a tablet map v1",
                message);
        byte[] unknown = map.clone();
        unknown[0] = 0x7f;
        assertEquals("tablet map data: format byte 0x7f is not 0x03 (tablet map v1)",
                corrupt(() -> GenerationCodec.decodeTabletMap(unknown)));
    }

    @Test
    void everySingleBitFlipIsDetected() {
        byte[] encoded = GenerationCodec.encode(TabletStreamSet.create(5, TabletMap.create(4, List.of("a")),
                new SplittableRandom(2)));
        for (int bit = 8; bit < encoded.length * 8; bit++) {
            byte[] flipped = encoded.clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            String message = corrupt(() -> GenerationCodec.decodeTabletStreamSet(flipped));
            assertTrue(message.startsWith("tablet stream set data: checksum mismatch"), "bit " + bit + ": " + message);
        }
    }

    @Test
    void truncationIsDetected() {
        byte[] encoded = GenerationCodec.encode(generation(3));
        for (int length = 0; length < encoded.length; length += 7) {
            byte[] truncated = Arrays.copyOf(encoded, length);
            assertThrows(CorruptGenerationDataException.class, () -> GenerationCodec.decodeGeneration(truncated),
                    "length " + length);
        }
        assertTrue(corrupt(() -> GenerationCodec.decodeGeneration(new byte[2])).contains("shorter"));
    }

    @Test
    void structuralErrorsBehindAValidChecksumAreNamed() {
        ByteBuffer truncatedBody = ByteBuffer.allocate(1 + 8 + 4 + 8).put(GenerationCodec.GENERATION_V1)
                .putLong(1).putInt(1).putLong(10);
        String truncated = corrupt(() -> GenerationCodec.decodeGeneration(withChecksum(truncatedBody.array())));
        assertTrue(truncated.contains("vnode count 1") || truncated.contains("truncated"), truncated);

        ByteBuffer hugeCount = ByteBuffer.allocate(1 + 8 + 4).put(GenerationCodec.TABLET_STREAM_SET_V1)
                .putLong(1).putInt(Integer.MAX_VALUE);
        assertEquals("tablet stream set data: stream count 2147483647 at byte 9 does not fit in the 0 bytes left",
                corrupt(() -> GenerationCodec.decodeTabletStreamSet(withChecksum(hugeCount.array()))));

        byte[] set = GenerationCodec.encode(TabletStreamSet.create(5, TabletMap.create(1, List.of("a")),
                new SplittableRandom(2)));
        byte[] trailing = withChecksum(Arrays.copyOf(Arrays.copyOf(set, set.length - 4), set.length - 4 + 3));
        assertEquals("tablet stream set data: 3 unexpected trailing bytes at byte 29",
                corrupt(() -> GenerationCodec.decodeTabletStreamSet(trailing)));
    }

    @Test
    void decodedValuesMustKeepTheTypesInvariants() {
        StreamId s = StreamId.create(1, 0, new SplittableRandom(1));
        ByteBuffer descending = ByteBuffer.allocate(1 + 8 + 4 + 2 * (8 + 4 + 16)).put(GenerationCodec.GENERATION_V1)
                .putLong(1).putInt(2)
                .putLong(50).putInt(1).putLong(s.high()).putLong(s.low())
                .putLong(10).putInt(1).putLong(s.high()).putLong(s.low());
        String message = corrupt(() -> GenerationCodec.decodeGeneration(withChecksum(descending.array())));
        assertTrue(message.startsWith("generation data: invalid content:") && message.contains("ascending"), message);

        ByteBuffer threeTablets = ByteBuffer.allocate(1 + 4 + 3 * 3).put(GenerationCodec.TABLET_MAP_V1).putInt(3);
        for (int i = 0; i < 3; i++) {
            threeTablets.putShort((short) 1).put((byte) 'a');
        }
        assertTrue(corrupt(() -> GenerationCodec.decodeTabletMap(withChecksum(threeTablets.array())))
                .contains("power of two"));
    }

    @Test
    void malformedUtf8IsCorruption() {
        ByteBuffer body = ByteBuffer.allocate(1 + 4 + 2 + 2).put(GenerationCodec.TABLET_MAP_V1).putInt(1)
                .putShort((short) 2).put((byte) 0xc3).put((byte) 0x28);
        assertEquals("tablet map data: malformed UTF-8 in replica of tablet 0 at byte 7",
                corrupt(() -> GenerationCodec.decodeTabletMap(withChecksum(body.array()))));
    }

    @Test
    void overlongNodeIdsCannotBeEncoded() {
        String longId = "x".repeat(70_000);
        assertThrows(IllegalArgumentException.class, () -> GenerationCodec.encode(new TabletMap(List.of(longId))));
    }
}
