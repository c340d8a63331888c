package dev.tributary.node.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(10)
class DurationsTest {
    @Test
    @DisplayName("every spelling node, cql, tail and local-cluster took before: 500ms, 3s, 1.5s, 2m, 1h, any case, blanks around")
    void everyFormerSpelling() {
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals(Duration.ofSeconds(3), Durations.parse("3s"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("1.5s"));
        assertEquals(Duration.ofMinutes(2), Durations.parse("2m"));
        assertEquals(Duration.ofHours(1), Durations.parse("1h"));
        assertEquals(Duration.ofSeconds(3), Durations.parse(" 3S "));
        assertEquals(Duration.ofMillis(300), Durations.parse("300MS"));
        assertEquals(Duration.ZERO, Durations.parse("0s"), "zero is the option's to refuse, not the grammar's");
        assertEquals(Duration.ofMillis(2), Durations.parse("1.5ms"), "to the millisecond, half up");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "60", "s", "-5s", "+5s", "3ds", "1e3s", "NaNs", "1d", "1 s", "1.s", ".5s", "99999999999999999999h"})
    @DisplayName("anything else is refused, saying what a duration looks like and quoting the value")
    void refused(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parse(text));
        assertEquals("wants a duration such as 500ms, 3s or 1m, got '" + text + "'", e.getMessage());
    }

    @Test
    @DisplayName("format writes the largest whole unit, and parse reads it back")
    void formatRoundTrips() {
        assertEquals("5s", Durations.format(Duration.ofSeconds(5)));
        assertEquals("1500ms", Durations.format(Duration.ofMillis(1500)));
        assertEquals("2m", Durations.format(Duration.ofMinutes(2)));
        assertEquals("1h", Durations.format(Duration.ofHours(1)));
        assertEquals("90s", Durations.format(Duration.ofSeconds(90)));
        assertEquals("0s", Durations.format(Duration.ZERO));
        for (long ms : new long[] {0, 1, 999, 1000, 61_000, 3_600_000, 7_260_000, 86_400_000}) {
            assertEquals(Duration.ofMillis(ms), Durations.parse(Durations.format(Duration.ofMillis(ms))), Long.toString(ms));
        }
    }
}
