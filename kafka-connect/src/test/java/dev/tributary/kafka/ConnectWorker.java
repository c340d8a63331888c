package dev.tributary.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.node.TestNodes;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;

/**
 * A real distributed Kafka Connect worker in the test JVM (connect-runtime's own start-up, as
 * {@code connect-distributed.sh} runs it), driven through its REST API like an operator would.
 */
final class ConnectWorker implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Connect<?> connect;
    private final Process process;
    private final URI url;
    private final HttpClient http = HttpClient.newHttpClient();

    private ConnectWorker(Connect<?> connect) {
        this.connect = connect;
        this.process = null;
        this.url = connect.rest().serverUrl();
    }

    private Path logFile;

    private ConnectWorker(Process process, URI url) {
        this.connect = null;
        this.process = process;
        this.url = url;
    }

    /** The last lines of a worker process's log, for a failure message. */
    String logTail() {
        if (logFile == null) {
            return "";
        }
        try {
            List<String> lines = Files.readAllLines(logFile);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    static ConnectWorker start(String bootstrap, String group) {
        return new ConnectWorker(new ConnectDistributed().startConnect(settings(bootstrap, group)));
    }

    /** In this JVM, with KIP-618's exactly-once source support enabled. */
    static ConnectWorker startExactlyOnce(String bootstrap, String group) {
        Map<String, String> p = settings(bootstrap, group);
        p.put("exactly.once.source.support", "enabled");
        return new ConnectWorker(new ConnectDistributed().startConnect(p));
    }

    /**
     * A worker in a JVM of its own whose class path has Kafka but not the connector: it loads the
     * connector from {@code pluginPath} only, as a worker with the plugin installed does.
     */
    static ConnectWorker startProcess(Path dir, String bootstrap, String group, Path pluginPath, boolean exactlyOnce)
            throws Exception {
        Map<String, String> p = settings(bootstrap, group);
        if (exactlyOnce) {
            p.put("exactly.once.source.support", "enabled");
        }
        int port = TestNodes.freePort();
        p.put("listeners", "http://127.0.0.1:" + port);
        p.put("plugin.path", pluginPath.toAbsolutePath().toString());
        // a killed worker's tasks go to the next one at once, not after the default 5 minutes' grace
        p.put("scheduled.rebalance.max.delay.ms", "0");
        p.put("session.timeout.ms", "6000");
        p.put("heartbeat.interval.ms", "2000");
        Properties props = new Properties();
        props.putAll(p);
        Files.createDirectories(dir);
        Path file = dir.resolve("worker.properties");
        try (var out = Files.newBufferedWriter(file)) {
            props.store(out, "ConnectWorker (test)");
        }
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> kept = new ArrayList<>();
        for (String e : cp.split(java.io.File.pathSeparator)) {
            // nothing of Tributary's own: the connector must come from the plugin directory; and no gRPC,
            // which a worker does not have: its service files (grpc-services' load balancer) would name
            // classes the worker's loader makes, not subtypes of the plugin's own gRPC
            if (!e.contains("/dev/tributary/") && !e.contains("/target/classes") && !e.contains("/target/test-classes")
                    && !e.contains("/io/grpc/")) {
                kept.add(e);
            }
        }
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-cp", String.join(java.io.File.pathSeparator, kept), ConnectDistributed.class.getName(), file.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("worker.log").toFile()).start();
        ConnectWorker w = new ConnectWorker(process, URI.create("http://127.0.0.1:" + port + "/"));
        w.logFile = dir.resolve("worker.log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            try {
                w.get("");
                return w;
            } catch (java.net.ConnectException | RestError e) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    w.close();
                    throw new IllegalStateException("the worker did not come up: " + Files.readString(dir.resolve("worker.log")));
                }
                Thread.sleep(100); // its REST port opens once the worker joined its group: polled
            }
        }
    }

    /** SIGKILL: no task stop, no last offset commit. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    private static Map<String, String> settings(String bootstrap, String group) {
        Map<String, String> p = new HashMap<>();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", group);
        p.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        p.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        p.put("config.storage.topic", group + "-configs");
        p.put("offset.storage.topic", group + "-offsets");
        p.put("status.storage.topic", group + "-status");
        p.put("config.storage.replication.factor", "1");
        p.put("offset.storage.replication.factor", "1");
        p.put("status.storage.replication.factor", "1");
        p.put("offset.flush.interval.ms", "500");
        p.put("listeners", "http://127.0.0.1:0");
        // plugins found by their ServiceLoader manifests (KIP-898), not by scanning the whole test class path
        p.put("plugin.discovery", "service_load");
        return p;
    }

    JsonNode put(String path, Map<String, String> body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(url.resolve(path)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build());
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(url.resolve(path)).GET().build());
    }

    JsonNode post(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(url.resolve(path)).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    JsonNode delete(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(url.resolve(path)).DELETE().build());
    }

    private JsonNode send(HttpRequest r) throws IOException, InterruptedException {
        HttpResponse<String> resp = http.send(r, HttpResponse.BodyHandlers.ofString());
        if (resp.statusCode() >= 300) {
            throw new RestError(resp.statusCode(), r.method() + " " + r.uri() + " -> " + resp.statusCode() + " "
                    + resp.body());
        }
        return resp.body().isEmpty() ? JSON.nullNode() : JSON.readTree(resp.body());
    }

    static final class RestError extends IOException {
        final int status;

        RestError(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (connect != null) {
            connect.stop();
            connect.awaitStop();
        } else if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        }
    }
}
