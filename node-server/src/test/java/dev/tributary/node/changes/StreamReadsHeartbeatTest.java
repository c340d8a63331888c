package dev.tributary.node.changes;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StreamReadsHeartbeatTest {
    private static long millis(int calls) {
        return TimeUnit.NANOSECONDS.toMillis(StreamReads.heartbeatNanos(calls));
    }

    /** Few calls heartbeat every 100 ms tick; thousands (256 vnodes × nodes) far less often, but at least once a second. */
    @Test
    void anIdleCallHeartbeatsLessOftenTheMoreCallsANodeServes() {
        assertTrue(millis(20) <= 100, "every tick with few calls: " + millis(20));
        assertTrue(millis(1500) >= 250, "1500 calls: " + millis(1500));
        assertTrue(millis(9000) <= 1000 && millis(9000) > 500, "9000 calls: " + millis(9000));
        // the rate a node sends heartbeats at stays bounded as calls grow
        assertTrue(9000 * 1000 / (millis(9000) + 50) <= 10_000, "heartbeats a second with 9000 calls");
    }
}
