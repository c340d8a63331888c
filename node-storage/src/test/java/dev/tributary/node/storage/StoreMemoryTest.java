package dev.tributary.node.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreMemoryTest {
    private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);
    private static final byte[] VALUE = "v".getBytes(StandardCharsets.UTF_8);

    /** The shared cache and write buffer manager outlive the first of two stores closed. */
    @Test
    void sharedMemoryIsReleasedByTheLastStore(@TempDir Path dir) {
        NodeStore a = NodeStore.open(dir.resolve("a"));
        try (NodeStore b = NodeStore.open(dir.resolve("b")); NodeStore c = NodeStore.openSeparate(dir.resolve("c"))) {
            a.put(NodeStore.Family.ROWS, KEY, VALUE, true);
            a.close();
            b.put(NodeStore.Family.ROWS, KEY, VALUE, true);
            c.put(NodeStore.Family.ROWS, KEY, VALUE, true);
            assertArrayEquals(VALUE, b.get(NodeStore.Family.ROWS, KEY));
            assertArrayEquals(VALUE, c.get(NodeStore.Family.ROWS, KEY));
        }
        try (NodeStore again = NodeStore.open(dir.resolve("a"))) {
            assertArrayEquals(VALUE, again.get(NodeStore.Family.ROWS, KEY));
        }
    }

    @Test
    void writeBufferBudgetFollowsTheMemtableSize() {
        assertEquals(64L << 20, StoreMemory.writeBufferBytes(NodeStore.DEFAULT_MEMTABLE_BYTES));
        assertEquals(64L << 20, StoreMemory.writeBufferBytes(64L << 10));
        assertEquals(256L << 20, StoreMemory.writeBufferBytes(64L << 20));
    }
}
