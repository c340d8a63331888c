package dev.tributary.node.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The process's {@code /metrics} in Prometheus' text format, served by the Prometheus client's own HTTP server. */
public final class MetricsEndpoint implements AutoCloseable {
    private final HTTPServer server;
    private final String host;

    private MetricsEndpoint(HTTPServer server, String host) {
        this.server = server;
        this.host = host;
    }

    /** Serves {@code metrics} on {@code host:port} (0: a free port). */
    public static MetricsEndpoint start(NodeMetrics metrics, String host, int port) {
        try {
            return new MetricsEndpoint(HTTPServer.builder().hostname(host).port(port).registry(metrics.registry()).buildAndStart(), host);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics on " + host + ":" + port + " (--metrics-listen)", e);
        }
    }

    /** HOST:PORT it serves on (the bound port when 0 was asked for). */
    public String endpoint() {
        return host + ":" + server.getPort();
    }

    @Override
    public void close() {
        server.close();
    }
}
