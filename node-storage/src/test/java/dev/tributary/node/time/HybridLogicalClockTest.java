package dev.tributary.node.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.Scns;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class HybridLogicalClockTest {
    @Test
    @DisplayName("SCNs follow the wall clock, and stay strictly increasing when it stands still or goes back")
    void strictlyIncreasing() {
        AtomicLong wall = new AtomicLong(1_000);
        HybridLogicalClock clock = new HybridLogicalClock(wall::get);
        long a = clock.next();
        assertEquals(HybridLogicalClock.scnAt(1_000), a, "a fresh clock starts at the wall clock's millisecond");
        long b = clock.next(); // the wall clock stands still
        assertEquals(a + 1, b);
        assertEquals(1_000, HybridLogicalClock.millisOf(b));
        assertEquals(1, HybridLogicalClock.logicalOf(b));
        wall.set(400); // steps back
        long c = clock.next();
        long d = clock.next();
        assertTrue(c > b && d > c);
        assertEquals(1_000, HybridLogicalClock.millisOf(d), "the physical part does not go back");
        wall.set(1_005); // moves on again
        long e = clock.next();
        assertEquals(HybridLogicalClock.scnAt(1_005), e);
    }

    @Test
    void manyCallsInOneMillisecondCarryIntoTheNext() {
        HybridLogicalClock clock = new HybridLogicalClock(() -> 7);
        long prev = clock.next();
        for (int i = 0; i < 70_000; i++) {
            long n = clock.next();
            assertTrue(n > prev);
            prev = n;
        }
        assertEquals(8, HybridLogicalClock.millisOf(prev), "65536 logical ticks fill a millisecond");
    }

    @Test
    @DisplayName("observe() moves the clock past an SCN seen elsewhere, never back")
    void observe() {
        AtomicLong wall = new AtomicLong(100);
        HybridLogicalClock clock = new HybridLogicalClock(wall::get);
        long remote = HybridLogicalClock.scnAt(5_000) + 3;
        clock.observe(remote);
        assertEquals(remote, clock.current());
        assertEquals(remote + 1, clock.next());
        clock.observe(HybridLogicalClock.scnAt(10)); // older: ignored
        assertEquals(remote + 2, clock.next());
        wall.set(6_000);
        assertEquals(HybridLogicalClock.scnAt(6_000), clock.current(), "current() without advancing");
        assertEquals(HybridLogicalClock.scnAt(6_000), clock.next());
        assertEquals(6_000, clock.wallMillis());
    }

    @Test
    @DisplayName("millisOf, microsOf and scnAt place an SCN in time; capture computes the same micros")
    void timeOfAnScn() {
        long scn = HybridLogicalClock.scnAt(1_700_000_000_123L) | 42;
        assertEquals(1_700_000_000_123L, HybridLogicalClock.millisOf(scn));
        assertEquals(42, HybridLogicalClock.logicalOf(scn));
        assertEquals(1_700_000_000_123_042L, HybridLogicalClock.microsOf(scn));
        long crowded = HybridLogicalClock.scnAt(5) | 5_000;
        assertEquals(5_999, HybridLogicalClock.microsOf(crowded), "the logical part is capped below a millisecond");
        assertEquals(9, HybridLogicalClock.millisOf(HybridLogicalClock.scnAt(9)));
        assertEquals(8, HybridLogicalClock.millisOf(HybridLogicalClock.scnAt(9) - 1), "scnAt is the smallest SCN of a millisecond");
        for (long s : new long[] {scn, crowded, 0, HybridLogicalClock.scnAt(1) - 1}) {
            assertEquals(Scns.micros(s), HybridLogicalClock.microsOf(s));
            assertEquals(Scns.millis(s), HybridLogicalClock.millisOf(s));
        }
        assertEquals(Scns.LOGICAL_BITS, HybridLogicalClock.LOGICAL_BITS);
    }

    @Test
    @DisplayName("next() from 4 threads at once gives distinct SCNs, increasing in each thread")
    void concurrentNext() throws Exception {
        HybridLogicalClock clock = new HybridLogicalClock(() -> 1_000); // a stuck clock maximises contention
        int perThread = 50_000;
        CyclicBarrier start = new CyclicBarrier(4);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Callable<long[]> task = () -> {
                    long[] out = new long[perThread];
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        out[i] = clock.next();
                    }
                    return out;
                };
                results.add(pool.submit(task));
            }
            Set<Long> all = new HashSet<>();
            for (Future<long[]> f : results) {
                long[] got = f.get();
                for (int i = 0; i < got.length; i++) {
                    assertTrue(i == 0 || got[i] > got[i - 1], "increasing within a thread");
                    all.add(got[i]);
                }
            }
            assertEquals(4 * perThread, all.size());
        } finally {
            pool.shutdownNow();
        }
    }
}
