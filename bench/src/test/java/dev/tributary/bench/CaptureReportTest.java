package dev.tributary.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CaptureReportTest {
    static final List<String> ISSUE_KEYS = List.of("lcrs_per_s", "writes_per_s", "baseline_rows_per_s", "ratio", "p50_ms",
            "p99_ms", "p999_ms", "peak_rss_mb", "durability", "rows", "row_bytes", "clients", "batch");

    private static CaptureReport report(CaptureReport.Baseline baseline) throws Exception {
        CaptureOptions o = CaptureOptions.parse(List.of("--rows", "2000", "--row-bytes", "50", "--clients", "2", "--batch",
                "50", "--commitlog-sync", "periodic"));
        LatencyRecorder l = new LatencyRecorder();
        l.recordMicros(10_000);
        l.recordMicros(20_000);
        return new CaptureReport(o, new Machine(2, 4096, "17.0.15", "OpenJDK", 1024), "bench.capture_x", 2000, 0, 0.5, 1.0,
                CaptureReport.Latency.of(l), baseline, new CaptureReport.Memory(300.0, 120.0, 1024.0, "/proc/self/status"),
                new CaptureReport.ConsumerStats(1, 256, 600),
                List.of(new LagSample(1.0, 1500, 1400L, 900, 250, 20L)), null, Map.of("total", 460.0));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(CaptureReport r) {
        String text = r.toJson();
        assertFalse(text.contains("\n"), "one line");
        return (Map<String, Object>) MiniJson.parse(text);
    }

    @Test
    void theJsonObjectHoldsTheIssuesKeysAndFigures() throws Exception {
        CaptureReport r = report(new CaptureReport.Baseline(8000, 0.25, 40, Map.of("total", 460.0)));
        Map<String, Object> m = json(r);
        for (String k : ISSUE_KEYS) {
            assertTrue(m.containsKey(k), k);
        }
        assertEquals(ISSUE_KEYS, List.copyOf(m.keySet()).subList(0, ISSUE_KEYS.size()), "the issue's keys come first");
        assertEquals(2000.0, m.get("lcrs_per_s"));
        assertEquals(4000.0, m.get("writes_per_s"));
        assertEquals(8000.0, m.get("baseline_rows_per_s"));
        assertEquals(0.25, m.get("ratio"));
        assertEquals(10.0, (Double) m.get("p50_ms"), 0.01);
        assertEquals(20.0, (Double) m.get("p99_ms"), 0.02);
        assertEquals(300.0, m.get("peak_rss_mb"));
        assertEquals("periodic", m.get("durability"));
        assertEquals(2000.0, m.get("rows"));
        assertEquals(50.0, m.get("row_bytes"));
        assertEquals(2.0, m.get("clients"));
        assertEquals(50.0, m.get("batch"));
        assertEquals(2000.0, m.get("lcrs"));
        List<Object> lag = (List<Object>) m.get("lag");
        assertEquals(1, lag.size());
        Map<String, Object> sample = (Map<String, Object>) lag.get(0);
        assertEquals(600.0, sample.get("backlog"));
        assertEquals(250.0, sample.get("lag_ms"));
        assertInstanceOf(Map.class, m.get("machine"));
    }

    @Test
    void withoutABaselineThereIsNoRatio() throws Exception {
        Map<String, Object> m = json(report(null));
        assertTrue(m.containsKey("ratio"));
        assertNull(m.get("ratio"));
        assertNull(m.get("baseline_rows_per_s"));
    }

    @Test
    void theTextStatesTheDurabilityMode() throws Exception {
        String text = report(new CaptureReport.Baseline(8000, 0.25, 40, Map.of())).toText();
        assertTrue(text.contains("durability        periodic: a write is acknowledged once it is in the WAL"), text);
        assertTrue(text.contains("ratio             0.250"), text);
    }

    @Test
    void jsonTextEscapesAndRoundsAndTurnsNanIntoNull() {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("a", "q\"\n");
        m.put("b", 1.23456);
        m.put("c", Double.NaN);
        m.put("d", List.of(1, true));
        assertEquals("{\"a\":\"q\\\"\\n\",\"b\":1.235,\"c\":null,\"d\":[1,true]}", JsonText.of(m));
    }
}
