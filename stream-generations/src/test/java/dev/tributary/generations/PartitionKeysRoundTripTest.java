package dev.tributary.generations;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartitionKeysRoundTripTest {
    @Test
    void compoundKeysSplitBackIntoTheirComponents() {
        List<byte[]> parts = List.of(new byte[] {0, 0, 0, 1}, "two".getBytes(StandardCharsets.UTF_8), new byte[0]);
        List<byte[]> back = PartitionKeys.deserialize(PartitionKeys.serialize(parts), 3);
        assertEquals(3, back.size());
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(parts.get(i), back.get(i));
        }
    }

    @Test
    void truncatedOrOversizedKeysAreRefused() {
        byte[] key = PartitionKeys.serialize(List.of(new byte[] {1}, new byte[] {2}));
        assertThrows(IllegalArgumentException.class, () -> PartitionKeys.deserialize(java.util.Arrays.copyOf(key, key.length - 2), 2));
        assertThrows(IllegalArgumentException.class, () -> PartitionKeys.deserialize(key, 3));
    }
}
