package dev.tributary.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ArchiveLagTargetTest {
    private static long scnAt(long millis) {
        return (millis << Scns.LOGICAL_BITS) | 7;
    }

    @Test
    @DisplayName("CAP-RAC-1 CAP-DS-1: an online log is due once it has been open for the target, empty or not; 0 never switches")
    void switchDue() {
        ArchiveLagTarget t = ArchiveLagTarget.parse("30");
        long opened = 1_700_000_000_000L;
        assertFalse(t.switchDue(scnAt(opened), opened + 29_999));
        assertTrue(t.switchDue(scnAt(opened), opened + 30_000));
        assertTrue(t.switchDue(scnAt(opened), opened + 3_600_000));
        assertFalse(ArchiveLagTarget.OFF.switchDue(scnAt(opened), opened + 3_600_000));
        assertTrue(ArchiveLagTarget.parse("0").off());
    }

    @Test
    void badValuesSayWhatIsExpected() {
        assertEquals(new ArchiveLagTarget(7200), ArchiveLagTarget.parse(" 7200 "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ArchiveLagTarget.parse("7201"));
        assertEquals("archive_lag_target must be 0 (off) or 1 to 7200 seconds, got 7201", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ArchiveLagTarget.parse("1m"));
        assertEquals("archive_lag_target must be a whole number of seconds (0 = off, 1 to 7200), got '1m'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ArchiveLagTarget.parse("-1"));
    }
}
