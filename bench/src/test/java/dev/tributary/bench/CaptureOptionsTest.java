package dev.tributary.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CaptureOptionsTest {
    private static CaptureOptions parse(String... args) throws BenchUsageException {
        return CaptureOptions.parse(List.of(args));
    }

    private static String error(String... args) {
        return assertThrows(BenchUsageException.class, () -> parse(args)).getMessage();
    }

    @Test
    void defaultsAreTheIssueTargets() throws Exception {
        CaptureOptions o = parse();
        assertEquals(1_000_000, o.rows());
        assertEquals(200, o.rowBytes());
        assertEquals(4, o.clients());
        assertEquals(100, o.batch());
        assertEquals(1, o.nodes());
        assertEquals(1, o.parallelism());
        assertEquals(Durability.BATCH, o.durability());
        assertTrue(o.inProcess());
        assertTrue(o.baseline());
        assertFalse(o.json());
        assertFalse(o.updates());
        assertNull(o.subsetPercent());
        assertEquals(0, o.rate());
        assertEquals(0, o.warmupRows());
        assertEquals(256, o.numTokens());
        assertEquals("INSERT", o.measuredCommand());
    }

    @Test
    void everyOptionOfTheIssue() throws Exception {
        CaptureOptions o = parse("--rows", "200k", "--row-bytes", "50", "--clients", "2", "--batch=50", "--nodes", "1",
                "--parallelism", "3", "--json", "--commitlog-sync", "PERIODIC", "--updates", "--subset-percent", "10",
                "--rate", "5000", "--warmup-rows", "50k", "--num-tokens", "16", "--data-dir", "/var/tmp/b", "--no-baseline");
        assertEquals(200_000, o.rows());
        assertEquals(50, o.rowBytes());
        assertEquals(2, o.clients());
        assertEquals(50, o.batch());
        assertEquals(3, o.parallelism());
        assertTrue(o.json());
        assertEquals(Durability.PERIODIC, o.durability());
        assertTrue(o.updates());
        assertEquals("UPDATE", o.measuredCommand());
        assertEquals(10, o.subsetPercent());
        assertEquals(5000, o.rate());
        assertEquals(50_000, o.warmupRows());
        assertEquals(16, o.numTokens());
        assertEquals(Path.of("/var/tmp/b"), o.dataDir());
        assertFalse(o.baseline());
    }

    @Test
    void connectTakesHostPortAndANodePid() throws Exception {
        CaptureOptions o = parse("--connect", "127.0.0.1:9160", "--node-pid", "1234");
        assertFalse(o.inProcess());
        assertEquals("127.0.0.1:9160", o.connect());
        assertEquals(1234L, o.nodePid());
        assertEquals("127.0.0.1:9160", parse("--connect=127.0.0.1:9160").connect());
        assertEquals("[::1]:9160", parse("--connect", "[::1]:9160").connect());
    }

    @Test
    void badCommandLinesNameTheOption() {
        assertEquals("unknown option '--bogus'", error("--bogus"));
        assertEquals("unexpected argument 'extra'", error("extra"));
        assertEquals("--rows needs a value", error("--rows"));
        assertEquals("--rows wants a whole number, got 'lots'", error("--rows", "lots"));
        assertEquals("--rows must be at least 1, got 0", error("--rows", "0"));
        assertEquals("--clients must be between 1 and 1024, got 0", error("--clients", "0"));
        assertEquals("--subset-percent must be between 0 and 100, got 101", error("--subset-percent", "101"));
        assertEquals("--batch must be between 1 and 10000, got 10001", error("--batch", "10001"));
        assertEquals("--batch 100 is larger than --rows 10", error("--rows", "10"));
        assertEquals("--commitlog-sync is batch or periodic, got 'always'", error("--commitlog-sync", "always"));
        assertEquals("--connect wants HOST:PORT (e.g. 127.0.0.1:9160), got 'localhost'", error("--connect", "localhost"));
        assertEquals("--connect wants HOST:PORT (e.g. 127.0.0.1:9160), got 'h:70000'", error("--connect", "h:70000"));
        assertEquals("--nodes starts in-process nodes; it cannot be combined with --connect",
                error("--connect", "h:1", "--nodes", "2"));
        assertEquals("--node-pid is for --connect; an in-process node's RSS is the bench's own", error("--node-pid", "5"));
        assertEquals("--json takes no value (or =true/=false), got 'yes'", error("--json=yes"));
    }

    @Test
    void helpIsAnOption() throws Exception {
        assertTrue(parse("--help").help());
        assertTrue(parse("-h").help());
        assertTrue(CaptureOptions.USAGE.startsWith("usage: tributary bench capture"));
    }
}
