package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Prometheus files in deploy/ as Prometheus' own promtool (Debian's prometheus package, which
 * bin/test installs) reads them: the local-cluster scrape configuration and its alerting rules are
 * valid, and every alert fires on the series that should raise it (prometheus-alerts-test.yml).
 */
@Timeout(60)
class PrometheusRulesIT {
    private static final Path DEPLOY = Path.of(System.getProperty("basedir", "."));

    private static String promtool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("promtool"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(DEPLOY.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "promtool finished");
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ":\n" + out);
        return out;
    }

    @Test
    void theScrapeConfigurationAndItsRulesAreValid() throws Exception {
        String out = promtool("check", "config", "prometheus-local-cluster.yml");
        assertTrue(out.contains("SUCCESS"), out);
    }

    @Test
    void everyAlertIsTestedAndFiresAsExpected() throws Exception {
        String rules = Files.readString(DEPLOY.resolve("prometheus-alerts.yml"), StandardCharsets.UTF_8);
        String tests = Files.readString(DEPLOY.resolve("prometheus-alerts-test.yml"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("(?m)^\\s*- alert: (\\S+)$").matcher(rules);
        List<String> alerts = new java.util.ArrayList<>();
        while (m.find()) {
            alerts.add(m.group(1));
        }
        assertFalse(alerts.isEmpty(), rules);
        for (String alert : alerts) {
            assertTrue(tests.contains("alertname: " + alert + "\n"), "prometheus-alerts-test.yml tests " + alert);
        }
        String out = promtool("test", "rules", "prometheus-alerts-test.yml");
        assertTrue(out.contains("SUCCESS"), out);
    }
}
