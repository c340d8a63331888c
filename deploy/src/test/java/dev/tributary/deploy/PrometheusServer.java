package dev.tributary.deploy;

import dev.tributary.client.internal.JsonReader;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A real Prometheus server (Debian's prometheus, which bin/test installs) scraping the given
 * targets every second, for tests that read metrics as an operator's Prometheus would.
 */
final class PrometheusServer implements AutoCloseable {
    private final Process process;
    private final String address;
    private final HttpClient http = HttpClient.newHttpClient();

    private PrometheusServer(Process process, String address) {
        this.process = process;
        this.address = address;
    }

    /** Starts it under {@code dir} scraping {@code targets} (HOST:PORT), and returns once it is ready. */
    static PrometheusServer start(Path dir, List<String> targets) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n"
                + "  - job_name: tributary\n    static_configs:\n      - targets: [" + String.join(", ",
                        targets.stream().map(t -> "\"" + t + "\"").toList()) + "]\n", StandardCharsets.UTF_8);
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String address = "127.0.0.1:" + port;
        Process p = new ProcessBuilder("prometheus", "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=" + address).redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        PrometheusServer server = new PrometheusServer(p, address);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!server.ready()) {
            if (System.nanoTime() > deadline || !p.isAlive()) {
                server.close();
                throw new IOException("prometheus did not become ready: " + Files.readString(dir.resolve("prometheus.log")));
            }
            Thread.sleep(100);
        }
        return server;
    }

    private boolean ready() {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://" + address + "/-/ready")).timeout(Duration.ofSeconds(2))
                    .build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The result vector of an instant query through the HTTP API (empty: no data). */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> query(String promql) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + address + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        Map<String, Object> body = (Map<String, Object>) JsonReader.parse(r.body());
        if (r.statusCode() != 200 || !"success".equals(body.get("status"))) {
            throw new AssertionError("query " + promql + " failed: " + r.body());
        }
        return (List<Map<String, Object>>) ((Map<String, Object>) body.get("data")).get("result");
    }

    /** The first value of {@code promql}'s result, or NaN when it has none. */
    @SuppressWarnings("unchecked")
    double value(String promql) throws IOException, InterruptedException {
        List<Map<String, Object>> result = query(promql);
        return result.isEmpty() ? Double.NaN : Double.parseDouble((String) ((List<Object>) result.get(0).get("value")).get(1));
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
