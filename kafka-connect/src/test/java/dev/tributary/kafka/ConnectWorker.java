package dev.tributary.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;

/**
 * A real distributed Kafka Connect worker in the test JVM (connect-runtime's own start-up, as
 * {@code connect-distributed.sh} runs it), driven through its REST API like an operator would.
 */
final class ConnectWorker implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Connect<?> connect;
    private final URI url;
    private final HttpClient http = HttpClient.newHttpClient();

    private ConnectWorker(Connect<?> connect) {
        this.connect = connect;
        this.url = connect.rest().serverUrl();
    }

    static ConnectWorker start(String bootstrap, String group) {
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
        return new ConnectWorker(new ConnectDistributed().startConnect(p));
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
    public void close() {
        connect.stop();
        connect.awaitStop();
    }
}
