package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class BackoffTest {
    @Test
    void doublesUpToTheMaxAndResetsToTheInitialDelay() {
        Backoff b = Backoff.start(Duration.ofMillis(200), Duration.ofMillis(1000));
        assertEquals(Duration.ofMillis(200), b.delay());
        b = b.next();
        assertEquals(Duration.ofMillis(400), b.delay());
        b = b.next().next();
        assertEquals(Duration.ofMillis(1000), b.delay()); // 1600 capped
        assertEquals(Duration.ofMillis(1000), b.next().delay());
        assertEquals(Duration.ofMillis(200), b.reset().delay());
    }

    @Test
    void theConsumersReadsWaitAtMostFiveSeconds() {
        Backoff b = Backoff.READS;
        for (int i = 0; i < 10; i++) {
            b = b.next();
        }
        assertEquals(Duration.ofSeconds(5), b.delay());
        assertEquals(Duration.ofMillis(200), b.reset().delay());
    }

    @Test
    void refusesAZeroInitialDelayOrAMaxBelowIt() {
        assertThrows(IllegalArgumentException.class, () -> Backoff.start(Duration.ZERO, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> Backoff.start(Duration.ofSeconds(2), Duration.ofSeconds(1)));
    }
}
