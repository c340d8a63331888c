package dev.tributary.kafka.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.LcrPosition;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Committed offsets as the SDK's position store: where a stream resumes and how far it is delivered. */
@Timeout(30)
class TaskPositionsTest {
    private static final ByteBuffer STREAM = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    private static final UUID TIME = UUID.fromString("275a7360-edec-11f1-83a2-3446f5960000");

    @Test
    void aStreamResumesAfterItsCommittedPosition() {
        Map<Map<String, String>, Map<String, Object>> committed = new HashMap<>();
        TaskPositions p = new TaskPositions("ks.t", committed::get);
        assertEquals(Optional.empty(), p.load(STREAM), "nothing committed: the start position applies");
        assertEquals(Long.MIN_VALUE, p.deliveredThrough(STREAM));

        LcrPosition last = new LcrPosition(STREAM, TIME, 3);
        committed.put(Offsets.partition("ks.t", STREAM), Offsets.offset(last));
        assertEquals(Optional.of(last), p.load(STREAM));
        assertEquals(Offsets.micros(TIME), p.deliveredThrough(STREAM), "complete through its last LCR's time");
        assertEquals(Optional.empty(), new TaskPositions(Offsets.QUEUE, "ks.t", committed::get).load(STREAM),
                "a queue's partitions are not a table's");

        // a stream-complete marker: the same position, complete through the closing time
        long closed = Offsets.micros(TIME) + 5_000_000;
        committed.put(Offsets.partition("ks.t", STREAM), Offsets.offset(last, closed));
        assertEquals(Optional.of(last), p.load(STREAM));
        assertEquals(closed, p.deliveredThrough(STREAM));

        // progress of this run counts even before Connect commits it
        p.delivered(STREAM.duplicate(), last, closed + 1);
        assertEquals(closed + 1, p.deliveredThrough(STREAM));
    }

    @Test
    void aTimeUuidsMicrosecondsAreUnixTime() {
        // a timeuuid of a write made in December 2026: Unix microseconds between 2025 and 2030
        long micros = Offsets.micros(TIME);
        assertTrue(micros > 1_735_689_600_000_000L && micros < 1_900_000_000_000_000L, Long.toString(micros));
        assertEquals("0x0102030405060708090a0b0c0d0e0f10", Offsets.hex(STREAM));
    }
}
