package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Which LCRs follow a table snapshot: by the capturing thread's SCN, and by token when a node was read in pieces. */
@Timeout(10)
class SnapshotHandoverTest {
    /** A position as the node makes it: the low half holds the thread (10 bits) over the commit SCN's low 52 bits. */
    private static LcrPosition position(int thread, long scn) {
        long lsb = (((thread & 0x3FFL) << 52) | (scn & ((1L << 52) - 1)));
        long msb = 0x1000L; // version 1; the time is irrelevant here
        return new LcrPosition(java.nio.ByteBuffer.wrap(new byte[16]), new UUID(msb, (lsb & 0x3FFFFFFFFFFFFFFFL)
                | 0x8000000000000000L), 0);
    }

    private static ChangeRecord row(int thread, long commitScn) {
        return new ChangeRecord("ROW", "tributary", "UPDATE", "ks", "t", null, "1.1", commitScn, commitScn, null,
                Map.of("pk", 1), position(thread, commitScn), true, null, null, null, null, null, null, null);
    }

    private static ChangeRecord ddl(int thread, long commitScn) {
        return new ChangeRecord("DDL", "tributary", "ALTER TABLE", "ks", "t", null, "1.1", commitScn, commitScn, null, null,
                position(thread, commitScn), true, null, "TABLE", "ALTER TABLE ks.t ADD w int", null, null, null, null);
    }

    private static final long S1 = (1_000L << 16) | 5;
    private static final long S2 = (1_200L << 16);

    @Test
    @DisplayName("the redo thread is read back from the position's timeuuid, every one of the 1023")
    void redoThreadFromPosition() {
        for (int thread = 1; thread <= 1023; thread++) {
            assertEquals(thread, SnapshotHandover.redoThread(position(thread, S1 + thread)));
        }
    }

    @Test
    @DisplayName("one piece per node: a row LCR follows exactly when its commit SCN is above its thread's snapshot SCN")
    void onePiecePerNode() {
        SnapshotHandover h = SnapshotHandover.of(Map.of(1, SnapshotHandover.whole(S1), 2, SnapshotHandover.whole(S2)));
        AtomicInteger asked = new AtomicInteger();
        java.util.function.Supplier<OptionalLong> token = () -> {
            asked.incrementAndGet();
            return OptionalLong.empty();
        };
        assertFalse(h.follows(row(1, S1 - 1), token));
        assertFalse(h.follows(row(1, S1), token), "the snapshot's own SCN is in the rows");
        assertTrue(h.follows(row(1, S1 + 1), token));
        // the same SCN means another thing on another thread
        assertFalse(h.follows(row(2, S1 + 1), token));
        assertTrue(h.follows(row(2, S2 + 1), token));
        assertEquals(0, asked.get(), "no token is needed with one piece per node");
        // a node that took no snapshot (it joined later): everything it commits is newer
        assertTrue(h.follows(row(3, 1), token));
        assertEquals(1_000L, h.startMillis(), "the streams start at the lowest snapshot SCN's time");
    }

    @Test
    @DisplayName("a node read in pieces: the SCN of the piece holding the key's token decides")
    void pieces() {
        long x = -42;
        SnapshotHandover h = SnapshotHandover.of(Map.of(1, List.of(new SnapshotHandover.Segment(S1, x),
                new SnapshotHandover.Segment(S2, Long.MAX_VALUE))));
        long between = S1 + 100;
        assertTrue(h.follows(row(1, between), () -> OptionalLong.of(x)), "at the first piece's last token");
        assertTrue(h.follows(row(1, between), () -> OptionalLong.of(Long.MIN_VALUE)));
        assertFalse(h.follows(row(1, between), () -> OptionalLong.of(x + 1)), "in the second piece's rows already");
        assertFalse(h.follows(row(1, S2), () -> OptionalLong.of(Long.MAX_VALUE)));
        assertTrue(h.follows(row(1, S2 + 1), () -> OptionalLong.of(Long.MAX_VALUE)));
        assertFalse(h.follows(row(1, S1), () -> OptionalLong.of(x)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> h.follows(row(1, between), OptionalLong::empty));
        assertTrue(e.getMessage().contains("token") && e.getMessage().contains("ks.t"), e.getMessage());
        // DDL has no key: after the thread's lowest snapshot SCN
        assertFalse(h.follows(ddl(1, S1), OptionalLong::empty));
        assertTrue(h.follows(ddl(1, S1 + 1), OptionalLong::empty));
    }

    @Test
    @DisplayName("an unfinished snapshot or pieces out of token order are refused, naming the thread")
    void refused() {
        IllegalArgumentException open = assertThrows(IllegalArgumentException.class, () -> SnapshotHandover.of(
                Map.of(4, List.of(new SnapshotHandover.Segment(S1, 7)))));
        assertTrue(open.getMessage().contains("redo thread 4") && open.getMessage().contains("not complete"),
                open.getMessage());
        IllegalArgumentException order = assertThrows(IllegalArgumentException.class, () -> SnapshotHandover.of(
                Map.of(4, List.of(new SnapshotHandover.Segment(S1, 7), new SnapshotHandover.Segment(S2, 7),
                        new SnapshotHandover.Segment(S2 + 1, Long.MAX_VALUE)))));
        assertTrue(order.getMessage().contains("token order"), order.getMessage());
    }
}
