package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CqlDurationTest {
    private static final long NS_PER_HOUR = 3_600_000_000_000L;

    @Test
    void writesTheCqlLiteral() {
        long nanos = 4 * NS_PER_HOUR + 5 * 60_000_000_000L + 6_000_000_000L + 7_000_000L + 8_000L + 9L;
        assertEquals("1y2mo3d4h5m6s7ms8us9ns", new CqlDuration(14, 3, nanos).toString());
        assertEquals("0s", new CqlDuration(0, 0, 0).toString());
        assertEquals("-3d", new CqlDuration(0, -3, 0).toString());
        assertEquals("-1mo1h", new CqlDuration(-1, 0, -NS_PER_HOUR).toString());
        assertEquals("-2562047h47m16s854ms775us808ns", new CqlDuration(0, 0, Long.MIN_VALUE).toString());
    }

    @Test
    void mixedSignsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new CqlDuration(1, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new CqlDuration(0, 1, -5));
    }
}
