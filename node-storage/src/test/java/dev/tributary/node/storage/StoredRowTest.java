package dev.tributary.node.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.dictionary.io.CorruptRecordException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class StoredRowTest {
    private static final long NOW = 1_700_000_000_000L;

    private static StoredRow sample() {
        Map<Integer, StoredRow.Cell> cells = new LinkedHashMap<>();
        cells.put(5, new StoredRow.Cell(new byte[] {1, 2, 3}, 1_700_000_000_000_001L, 0));
        cells.put(2, new StoredRow.Cell(new byte[0], -7, NOW + 1000));
        cells.put(300, new StoredRow.Cell(null, 0, 1));
        return new StoredRow(123_456L, NOW + 5, cells);
    }

    @Test
    void encodeDecodeRoundTrip() {
        StoredRow row = sample();
        StoredRow back = StoredRow.decode(row.encode());
        assertEquals(row, back);
        assertEquals(List.of(5, 2, 300), List.copyOf(back.cells().keySet()), "cells keep their order");
        assertArrayEquals(new byte[] {1, 2, 3}, back.cells().get(5).value());
        assertNull(back.cells().get(300).value());
        assertEquals(NOW + 1000, back.cells().get(2).expiryMillis());
        assertEquals(123_456L, back.markerWriteTime());
        StoredRow empty = StoredRow.empty();
        assertEquals(empty, StoredRow.decode(empty.encode()));
        assertEquals(StoredRow.NO_MARKER, StoredRow.decode(empty.encode()).markerWriteTime());
    }

    @Test
    void cellsAreImmutableCopies() {
        Map<Integer, StoredRow.Cell> cells = new LinkedHashMap<>();
        StoredRow row = new StoredRow(1, 0, cells);
        cells.put(1, new StoredRow.Cell(new byte[] {1}, 1, 0));
        assertTrue(row.cells().isEmpty());
        assertThrows(UnsupportedOperationException.class, () -> row.cells().put(2, null));
    }

    @Test
    @DisplayName("a row marker keeps a row alive with no cell, until its TTL expires")
    void markerLiveness() {
        StoredRow forever = new StoredRow(10, 0, Map.of());
        assertTrue(forever.hasLiveMarker(NOW));
        assertTrue(forever.liveAt(Long.MAX_VALUE));
        StoredRow ttl = new StoredRow(10, NOW + 1, Map.of());
        assertTrue(ttl.liveAt(NOW));
        assertFalse(ttl.liveAt(NOW + 1), "expired at its expiry instant");
        assertFalse(ttl.hasLiveMarker(NOW + 2));
        assertFalse(StoredRow.empty().liveAt(NOW));
        assertFalse(StoredRow.empty().hasLiveMarker(NOW));
    }

    @Test
    @DisplayName("without a marker a row lives while one of its cells does")
    void cellLiveness() {
        StoredRow.Cell expiring = new StoredRow.Cell(new byte[] {1}, 1, NOW + 10);
        StoredRow.Cell permanent = new StoredRow.Cell(new byte[] {2}, 1, 0);
        assertTrue(expiring.liveAt(NOW + 9));
        assertFalse(expiring.liveAt(NOW + 10));
        assertTrue(permanent.liveAt(Long.MAX_VALUE));
        StoredRow oneExpiring = new StoredRow(StoredRow.NO_MARKER, 0, Map.of(1, expiring));
        assertTrue(oneExpiring.liveAt(NOW));
        assertFalse(oneExpiring.liveAt(NOW + 10));
        StoredRow mixed = new StoredRow(StoredRow.NO_MARKER, 0, Map.of(1, expiring, 2, permanent));
        assertTrue(mixed.liveAt(NOW + 1_000_000));
        StoredRow expiredMarkerLiveCell = new StoredRow(5, NOW - 1, Map.of(2, permanent));
        assertFalse(expiredMarkerLiveCell.hasLiveMarker(NOW));
        assertTrue(expiredMarkerLiveCell.liveAt(NOW));
    }

    @Test
    void corruptInput() {
        byte[] b = sample().encode();
        byte[] format = b.clone();
        format[0] = 2;
        assertThrows(CorruptRecordException.class, () -> StoredRow.decode(format));
        assertThrows(CorruptRecordException.class, () -> StoredRow.decode(Arrays.copyOf(b, b.length + 1)));
        for (int len = 0; len < b.length; len++) {
            byte[] cut = Arrays.copyOf(b, len);
            assertThrows(CorruptRecordException.class, () -> StoredRow.decode(cut), "prefix of " + len);
        }
    }

    @Test
    @DisplayName("merging two copies of a row keeps, column by column, the later write, and the newer marker")
    void mergeIsLastWriteWinsPerCell() {
        StoredRow here = new StoredRow(10, 0, Map.of(1, new StoredRow.Cell(new byte[] {1}, 10, 0),
                2, new StoredRow.Cell(new byte[] {2}, 30, 0)));
        StoredRow sent = new StoredRow(20, 0, Map.of(1, new StoredRow.Cell(new byte[] {9}, 20, 0),
                2, new StoredRow.Cell(new byte[] {8}, 25, 0), 3, new StoredRow.Cell(new byte[] {7}, 5, 0)));
        StoredRow m = here.merge(sent);
        assertEquals(20, m.markerWriteTime());
        assertArrayEquals(new byte[] {9}, m.cells().get(1).value(), "the sent cell is newer");
        assertArrayEquals(new byte[] {2}, m.cells().get(2).value(), "the cell here is newer");
        assertArrayEquals(new byte[] {7}, m.cells().get(3).value(), "a cell only one copy has");
        assertEquals(m, sent.merge(here), "the order of the copies does not matter");
    }
}
