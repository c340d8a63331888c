package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class StreamHandoffTest {
    private static final byte[] STREAM = new byte[16];

    /** An LCR of the test: its time in microseconds. */
    private record L(long micros) {
        LcrPosition position() {
            return LcrPosition.of(STREAM, new UUID(micros, 0), 0);
        }
    }

    private final List<L> taken = new ArrayList<>();
    private int limit = Integer.MAX_VALUE;
    private final RuntimeException limitReached = new IllegalStateException("limit");

    private final StreamHandoff<L> handoff = new StreamHandoff<>(new StreamHandoff.Lcrs<>() {
        @Override
        public LcrPosition handle(L lcr) {
            if (taken.size() >= limit) {
                throw limitReached;
            }
            taken.add(lcr);
            return lcr.position();
        }

        @Override
        public long micros(L lcr) {
            return lcr.micros();
        }
    });

    @Test
    void aWholeBatchRecordsItsReleaseBound() {
        StreamHandoff.Outcome o = handoff.deliver(List.of(new L(10), new L(20)), 30, () -> true);
        assertTrue(o.complete());
        assertEquals(new L(20).position(), o.handled().last());
        assertEquals(30, o.handled().throughMicros());
        StreamHandoff.Outcome empty = handoff.deliver(List.of(), 40, () -> true);
        assertNull(empty.handled().last()); // the store keeps the last LCR it knew
        assertEquals(40, empty.handled().throughMicros());
    }

    @Test
    void aBatchTheHandlerStopsRecordsOnlyBelowItsLastHandledLcr() {
        limit = 1;
        StreamHandoff.Outcome o = handoff.deliver(List.of(new L(10), new L(20), new L(30)), 40, () -> true);
        assertFalse(o.complete());
        assertSame(limitReached, o.failure());
        assertEquals(new L(10).position(), o.handled().last());
        assertEquals(10, o.handled().throughMicros());
        assertTrue(handoff.stopped());
    }

    @Test
    void nothingIsRecordedAfterABatchStoppedPartWayNotEvenAnEmptyOne() {
        // the --limit resume loss: the empty batch after the stopped one recorded its bound, past 20 and 30
        limit = 1;
        handoff.deliver(List.of(new L(10), new L(20), new L(30)), 40, () -> true);
        StreamHandoff.Outcome empty = handoff.deliver(List.of(), 50, () -> true);
        assertNull(empty.handled());
        assertFalse(empty.complete());
        limit = Integer.MAX_VALUE;
        StreamHandoff.Outcome later = handoff.deliver(List.of(new L(60)), 70, () -> true);
        assertNull(later.handled());
        assertEquals(List.of(new L(10)), taken);
    }

    @Test
    void aConsumerStoppingMidBatchRecordsWhatWasHandled() {
        boolean[] running = {true};
        StreamHandoff<L> h = new StreamHandoff<>(new StreamHandoff.Lcrs<>() {
            @Override
            public LcrPosition handle(L lcr) {
                taken.add(lcr);
                running[0] = false; // closed while handling the first
                return lcr.position();
            }

            @Override
            public long micros(L lcr) {
                return lcr.micros();
            }
        });
        StreamHandoff.Outcome o = h.deliver(List.of(new L(10), new L(20)), 30, () -> running[0]);
        assertFalse(o.complete());
        assertNull(o.failure());
        assertEquals(10, o.handled().throughMicros());
        StreamHandoff.Outcome none = h.deliver(List.of(new L(40)), 50, () -> running[0]);
        assertNull(none.handled());
    }
}
