package dev.tributary.kafka.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tributary.client.StreamDescriptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class RingShareTest {
    private static StreamDescriptor stream(long token) {
        return new StreamDescriptor("vnodes", ByteBuffer.allocate(16).putLong(token).putLong(1).flip(), 0, 0,
                Long.MIN_VALUE, Long.MAX_VALUE, List.of());
    }

    @Test
    void everyStreamFallsToExactlyOneTaskInTokenOrder() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int tasks = 1; tasks <= 7; tasks++) {
            int previous = 0;
            for (long token : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE}) {
                int owner = RingShare.taskOf(token, tasks);
                assertEquals(true, owner >= previous, "shares follow the ring (seed " + seed + ")");
                previous = owner;
            }
            assertEquals(0, RingShare.taskOf(Long.MIN_VALUE, tasks));
            assertEquals(tasks - 1, RingShare.taskOf(Long.MAX_VALUE, tasks));
            for (int i = 0; i < 1000; i++) {
                StreamDescriptor s = stream(random.nextLong());
                int owners = 0;
                for (int t = 0; t < tasks; t++) {
                    owners += new RingShare(t, tasks).assigned(s) ? 1 : 0;
                }
                assertEquals(1, owners, "seed " + seed);
            }
        }
        assertEquals(1, RingShare.taskOf(0, 2), "the upper half of the ring to the second of two");
        assertThrows(IllegalArgumentException.class, () -> new RingShare(2, 2));
    }
}
