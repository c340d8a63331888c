package dev.tributary.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The bench's small pure pieces: rows, /proc parsing, the acknowledgement timeline, the entry point's usage errors. */
class SmallPiecesTest {
    @Test
    void payloadsAreDeterministicSizedAndChangeWithTheVersion() {
        assertArrayEquals(BenchRows.payload(7, 0, 200), BenchRows.payload(7, 0, 200));
        assertEquals(13, BenchRows.payload(7, 0, 13).length);
        assertFalse(Arrays.equals(BenchRows.payload(7, 0, 200), BenchRows.payload(7, 1, 200)));
        assertFalse(Arrays.equals(BenchRows.payload(7, 0, 200), BenchRows.payload(8, 0, 200)));
    }

    @Test
    void aPacerNeverLetsAUnitThroughBeforeItIsDue() {
        long start = System.nanoTime();
        Pacer pacer = new Pacer(start, 1000); // one unit per millisecond
        pacer.awaitUnit(0);
        for (int n = 1; n <= 20; n++) {
            pacer.awaitUnit(n);
            assertTrue(System.nanoTime() - start >= n * 1_000_000L, "unit " + n + " let through early");
        }
    }

    @Test
    void subsetCountMatchesCountingTheBuckets() {
        for (long rows : new long[] {1, 99, 100, 101, 2000, 12345}) {
            for (int pct : new int[] {0, 1, 10, 50, 99, 100}) {
                long counted = 0;
                for (long r = 0; r < rows; r++) {
                    if (BenchRows.bucket(r) < pct) {
                        counted++;
                    }
                }
                assertEquals(counted, BenchRows.subsetCount(rows, pct), rows + " rows, " + pct + "%");
            }
        }
    }

    @Test
    void procStatusFields() {
        String text = "Name:\tjava\nVmPeak:\t 9000 kB\nVmHWM:\t  123456 kB\nVmRSS:\t   65432 kB\n";
        assertEquals(OptionalLong.of(123456), ProcStatus.parseField(text, "VmHWM:"));
        assertEquals(OptionalLong.of(65432), ProcStatus.parseField(text, "VmRSS:"));
        assertEquals(OptionalLong.empty(), ProcStatus.parseField(text, "VmSwap:"));
        if (java.nio.file.Files.exists(ProcStatus.self())) {
            assertTrue(ProcStatus.peakRssKb(ProcStatus.self()).getAsLong() > 0);
        }
        assertEquals(OptionalLong.empty(), ProcStatus.peakRssKb(ProcStatus.of(Long.MAX_VALUE)));
    }

    @Test
    void lagIsTheAgeOfTheFirstAcknowledgedRowNotYetReceived() {
        AckTimeline t = new AckTimeline();
        t.acknowledged(100, 1_000_000_000L);
        t.acknowledged(100, 2_000_000_000L);
        assertEquals(200, t.total());
        assertEquals(1_000_000_000L, t.timeReached(1));
        assertEquals(1_000_000_000L, t.timeReached(100));
        assertEquals(2_000_000_000L, t.timeReached(101));
        assertEquals(-1, t.timeReached(201));
        assertEquals(2_500, t.lagMillis(0, 3_500_000_000L), "nothing received: behind since the first ack");
        assertEquals(1_500, t.lagMillis(100, 3_500_000_000L), "first batch received: behind since the second");
        assertEquals(0, t.lagMillis(200, 3_500_000_000L), "everything received");
        for (int i = 0; i < 5000; i++) {
            t.acknowledged(1, 4_000_000_000L + i);
        }
        assertEquals(5200, t.total());
        assertEquals(4_000_000_000L + 4999, t.timeReached(5200));
    }

    @Test
    void benchEntryPointUsage() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(Bench.USAGE, Bench.run(List.of(), o, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("usage: tributary bench"));
        assertEquals(Bench.OK, Bench.run(List.of("--help"), o, e));
        assertEquals(Bench.USAGE, Bench.run(List.of("capture", "--clients", "-1"), o, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("tributary bench capture: --clients must be between 1 and 1024, got -1"));
        out.reset();
        assertEquals(Bench.OK, Bench.run(List.of("capture", "--help"), o, e));
        assertEquals(CaptureOptions.USAGE, out.toString(StandardCharsets.UTF_8));
    }
}
