package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.protocol.v1.StreamPosition;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class GroupPositionStoreTest {
    private static final ByteBuffer S1 = ByteBuffer.allocate(16).putLong(1).putLong(1).flip();
    private static final ByteBuffer S2 = ByteBuffer.allocate(16).putLong(2).putLong(2).flip();

    private static LcrPosition at(ByteBuffer s, long micros) {
        // a version-1 timeuuid whose timestamp is micros since the Unix epoch
        long ts = micros * 10 + 0x01B21DD213814000L;
        long msb = ((ts & 0xFFFFFFFFL) << 32) | (((ts >>> 32) & 0xFFFFL) << 16) | 0x1000L | ((ts >>> 48) & 0x0FFFL);
        return new LcrPosition(s, new UUID(msb, 0x8000000000000001L), 0);
    }

    private static StreamPosition committed(ByteBuffer s, LcrPosition last, long through) {
        StreamPosition.Builder b = StreamPosition.newBuilder().setStreamId(ByteString.copyFrom(s.duplicate()))
                .setThroughMicros(through);
        if (last != null) {
            b.setLast(Lcrs.toWire(last));
        }
        return b.build();
    }

    @Test
    void resumesFromTheCommittedPositionAndReportsOtherMembersProgress() {
        GroupPositionStore store = new GroupPositionStore(List.of(committed(S1, at(S1, 100), 150),
                committed(S2, null, 300)), Map.of());
        assertEquals(Optional.of(at(S1, 100)), store.load(S1));
        assertEquals(150, store.deliveredThrough(S1));
        assertEquals(Optional.empty(), store.load(S2), "handled through a time, no LCR yet");
        assertEquals(300, store.deliveredThrough(S2));
        assertEquals(Long.MIN_VALUE, store.deliveredThrough(ByteBuffer.allocate(16)));

        store.refresh(List.of(committed(S2, at(S2, 320), 400)));
        assertEquals(400, store.deliveredThrough(S2), "a newer fetch moves another member's stream on");
        assertEquals(List.of(), store.takeDirty(), "nothing handled here yet");
    }

    @Test
    void anEmptyDeliveryKeepsTheLastLcrAndOnlyHandledStreamsAreCommitted() {
        GroupPositionStore store = new GroupPositionStore(List.of(committed(S1, at(S1, 100), 150)), Map.of());
        store.delivered(S1, null, 200);
        List<StreamPosition> dirty = store.takeDirty();
        assertEquals(List.of(committed(S1, at(S1, 100), 200)), dirty, "committing no last would lose where to resume");
        assertEquals(List.of(), store.takeDirty());
        store.unsent(dirty);
        assertEquals(dirty, store.takeDirty(), "a failed commit is sent again");

        store.delivered(S1, at(S1, 210), 250);
        assertEquals(Optional.of(at(S1, 210)), store.load(S1));
        assertEquals(250, store.deliveredThrough(S1));
        assertTrue(store.handled().containsKey(StreamKey.of(S1)));
    }

    @Test
    void whatThisMemberHandledBeforeWinsOverAnOlderCommit() {
        GroupPositionStore store = new GroupPositionStore(List.of(committed(S1, at(S1, 100), 150)),
                Map.of(StreamKey.of(S1), new GroupPositionStore.Progress(at(S1, 180), 190)));
        assertEquals(Optional.of(at(S1, 180)), store.load(S1), "no LCR handed to the handler twice");
        store.refresh(List.of(committed(S1, at(S1, 500), 600)));
        assertEquals(Optional.of(at(S1, 500)), store.load(S1), "another member got further since");
    }
}
