package dev.tributary.generations;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static dev.tributary.generations.Murmur3PartitionerTest.bytes;
import static dev.tributary.generations.Murmur3PartitionerTest.intKey;
import static dev.tributary.generations.Murmur3PartitionerTest.textKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PartitionKeysTest {

    @Test
    void singleComponentIsItsBytesAsIs() {
        byte[] component = intKey(1);
        byte[] serialized = PartitionKeys.serialize(List.of(component));
        assertArrayEquals(component, serialized);
        assertNotSame(component, serialized);
    }

    @Test
    void compoundKeyIsLengthBytesEndOfComponent() {
        byte[] serialized = PartitionKeys.serialize(List.of(intKey(10), textKey("20")));
        assertArrayEquals(bytes(0, 4, 0, 0, 0, 10, 0, 0, 2, '2', '0', 0), serialized);
    }

    @Test
    void emptyComponentsAndLengthsAboveAByteAreEncoded() {
        byte[] big = new byte[300];
        Arrays.fill(big, (byte) 7);
        byte[] serialized = PartitionKeys.serialize(List.of(new byte[0], big));
        assertEquals(3 + 3 + 300, serialized.length);
        assertArrayEquals(bytes(0, 0, 0, 0x01, 0x2c), Arrays.copyOf(serialized, 5));
        assertEquals(0, serialized[serialized.length - 1]);
    }

    @Test
    void componentLongerThan65535BytesIsRejectedOnlyInCompoundKeys() {
        byte[] tooLong = new byte[PartitionKeys.MAX_COMPONENT_LENGTH + 1];
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PartitionKeys.serialize(List.of(intKey(1), tooLong)));
        assertTrue(e.getMessage().contains("component 1"), e.getMessage());
        assertEquals(tooLong.length, PartitionKeys.serialize(List.of(tooLong)).length);
    }

    @Test
    void noComponentsIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> PartitionKeys.serialize(List.of()));
        assertThrows(NullPointerException.class, () -> PartitionKeys.serialize(Arrays.asList(intKey(1), null)));
    }
}
