package dev.tributary.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The smoke run of issue #7: a real in-process node, real clients, a real baseline. No speed is asserted. */
class CaptureBenchIT {
    @TempDir
    java.nio.file.Path dir;

    @Test
    @Timeout(180)
    @SuppressWarnings("unchecked")
    void smallCaptureRunDeliversEveryRowAsAnLcrAndEndsWithTheJsonFigures() throws java.io.IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Bench.run(List.of("capture", "--rows", "2000", "--row-bytes", "50", "--clients", "2", "--batch", "50",
                "--json", "--data-dir", dir.toString()), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String stdout = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, stdout + err.toString(StandardCharsets.UTF_8));
        String[] lines = stdout.strip().split("\n");
        Map<String, Object> m = (Map<String, Object>) MiniJson.parse(lines[lines.length - 1]);
        for (String k : CaptureReportTest.ISSUE_KEYS) {
            assertTrue(m.containsKey(k) && m.get(k) != null, k + " in " + m);
        }
        assertEquals(2000.0, m.get("lcrs"), "lcrs == rows");
        assertEquals(2000.0, m.get("rows"));
        assertEquals(0.0, m.get("unexpected_lcrs"));
        assertEquals("batch", m.get("durability"));
        assertEquals(50.0, m.get("row_bytes"));
        assertEquals(2.0, m.get("clients"));
        assertEquals(50.0, m.get("batch"));
        assertTrue((Double) m.get("ratio") > 0);
        assertTrue((Double) m.get("p50_ms") <= (Double) m.get("p99_ms"));
        assertTrue((Double) m.get("p99_ms") <= (Double) m.get("p999_ms"));
        Map<String, Object> node = (Map<String, Object>) m.get("node_bytes_per_row");
        Map<String, Object> base = (Map<String, Object>) m.get("baseline_bytes_per_row");
        assertEquals((Double) base.get("rows"), (Double) node.get("rows"), 0.5, "same base-row bytes as the node");
        assertEquals((Double) base.get("cdc_log"), (Double) node.get("cdc_log"), 2.0, "same log bytes (node adds a DDL LCR)");
        assertTrue(stdout.contains("durability        batch"), stdout);
        assertTrue(java.nio.file.Files.exists(dir));
        try (var left = java.nio.file.Files.list(dir)) {
            assertEquals(0, left.count(), "temporary node and baseline directories are removed");
        }
    }
}
