package dev.tributary.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.log.CdcOperation;
import dev.tributary.capture.log.LogRecord;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class StreamsPoolTest {
    /** A record of about {@code bytes} estimated heap bytes in log {@code logId}. */
    private static LogRecord record(long logId, int bytes) {
        DdlLcr lcr = new DdlLcr("SRC", "ALTER TABLE", "ks", "t", "TABLE", "x".repeat((bytes - 160) / 2), "u", "ks", null, null,
                null, "1.1", 1, List.of());
        return new LogRecord(logId, null, CdcOperation.UPDATE, true, 0, lcr, null);
    }

    /** Keeps waiting for one look only: whether the capture would pause, without blocking the test. */
    private static BooleanSupplier once() {
        AtomicInteger looks = new AtomicInteger();
        return () -> looks.getAndIncrement() == 0;
    }

    @Test
    @DisplayName("CAP-MULTI-1: the Streams pool grows by 10 MB for each unit of parallelism of the running captures "
            + "(the seed's example: parallelism 4 and 1 add 50 MB)")
    void budgetGrowsWithParallelism() {
        StreamsPool base = new StreamsPool(64L << 20, 0);
        assertEquals(64L << 20, base.budgetBytes());
        assertEquals((64L << 20) + (50L << 20), base.withTotalParallelism(4 + 1).budgetBytes());
    }

    @Test
    @DisplayName("CAP-MULTI-1 CAP-FLOW-1: queues that together fill the Streams pool pause a capture although each is below "
            + "its own bound; a pool grown for more parallelism lets it go on; a queue nobody reads live never pauses it")
    void queuesShareThePool() throws Exception {
        BufferedQueues queues = new BufferedQueues(1_000);
        try (BufferedQueues.Subscription one = queues.subscribe(1); BufferedQueues.Subscription two = queues.subscribe(2)) {
            queues.publish(List.of(record(1, 600)));
            queues.publish(List.of(record(2, 600)));
            assertTrue(queues.bufferedBytes(1) < 1_000 && queues.bufferedBytes(2) < 1_000, "each queue below its bound");
            assertEquals(1_200, queues.totalBufferedBytes());
            AtomicInteger pauses = new AtomicInteger();
            assertTrue(queues.awaitCapacity(List.of(record(1, 200)), once(), pauses::incrementAndGet),
                    "together they fill the pool of one queue's size: paused for flow control");
            assertEquals(1, pauses.get());
            assertFalse(queues.awaitCapacity(List.of(record(3, 200)), once(), () -> { }), "log 3 has no live reader");

            queues.setTotalParallelism(1);
            assertEquals(1_000 + StreamsPool.BYTES_PER_PARALLELISM, queues.pool().budgetBytes());
            assertFalse(queues.awaitCapacity(List.of(record(1, 200)), once(), () -> { }), "the larger pool has room");

            queues.publish(List.of(record(1, 600)));
            assertTrue(queues.awaitCapacity(List.of(record(1, 200)), once(), () -> { }), "one queue's own bound still holds");
            assertEquals(2, one.poll(10, 0).size());
            assertFalse(queues.awaitCapacity(List.of(record(1, 200)), once(), () -> { }), "read: room again");
        }
    }

    @Test
    @DisplayName("P5 CAP-FLOW-1: a region that would take a queue past its bound pauses the capture although the "
            + "queue is below it; an empty queue takes any one region")
    void aRegionIsWeighedWhole() throws Exception {
        BufferedQueues queues = new BufferedQueues(1_000);
        try (BufferedQueues.Subscription one = queues.subscribe(1)) {
            List<LogRecord> region = List.of(record(1, 300), record(1, 300));
            assertFalse(queues.awaitCapacity(region, once(), () -> { }), "an empty queue takes the region");
            queues.publish(region);
            assertTrue(queues.bufferedBytes(1) < 1_000, "below its bound");
            assertTrue(queues.awaitCapacity(region, once(), () -> { }),
                    "600 + 600 bytes would pass the bound of 1,000: paused for flow control");
            assertFalse(queues.awaitCapacity(List.of(record(1, 300)), once(), () -> { }), "900 stays within it");
            assertEquals(2, one.poll(10, 0).size());
            assertFalse(queues.awaitCapacity(List.of(record(1, 2_000)), once(), () -> { }),
                    "read empty: a region larger than the bound goes (else it would wait forever)");
        }
    }
}
