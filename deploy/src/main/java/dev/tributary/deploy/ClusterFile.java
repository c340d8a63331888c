package dev.tributary.deploy;

import com.google.gson.FormattingStyle;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code DIR/cluster.json} of a local cluster (INTERFACE.md): {@code {"zookeeper": "127.0.0.1:PORT",
 * "nodes": [{"id", "endpoint", "pid", "data_dir", "host_id"}]}}, plus what {@code restart} and {@code add}
 * need to start a node (its ring delay, replication factor, the options every node gets — TLS and
 * ZooKeeper credentials files — and the ZooKeeper process). Written atomically (temp file + rename).
 */
record ClusterFile(String zookeeper, long zookeeperPid, String ringDelay, int replicationFactor, List<String> nodeOptions,
        List<Node> nodes) {
    static final String NAME = "cluster.json";
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping()
            .setFormattingStyle(FormattingStyle.COMPACT.withSpaceAfterSeparators(true)).create();

    /**
     * @param hostId the node's host id from its ready line (what {@code admin removenode} takes)
     * @param nativeEndpoint its CQL native protocol endpoint (drivers' contact point)
     * @param metricsEndpoint where Prometheus scrapes its /metrics ("" for none)
     */
    record Node(int id, String endpoint, long pid, String dataDir, String hostId, String nativeEndpoint, String metricsEndpoint) {
        Node withPid(long p) {
            return new Node(id, endpoint, p, dataDir, hostId, nativeEndpoint, metricsEndpoint);
        }
    }

    ClusterFile {
        nodeOptions = List.copyOf(nodeOptions);
        nodes = List.copyOf(nodes);
    }

    ClusterFile withNode(Node n) {
        List<Node> next = new ArrayList<>();
        boolean replaced = false;
        for (Node m : nodes) {
            if (m.id() == n.id()) {
                next.add(n);
                replaced = true;
            } else {
                next.add(m);
            }
        }
        if (!replaced) {
            next.add(n);
        }
        return new ClusterFile(zookeeper, zookeeperPid, ringDelay, replicationFactor, nodeOptions, next);
    }

    Node node(int id) {
        return nodes.stream().filter(n -> n.id() == id).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node " + id + " in the cluster (nodes: "
                        + nodes.stream().map(n -> Integer.toString(n.id())).toList() + ")"));
    }

    /** The file's text: one line, a space after each separator, as INTERFACE.md shows it. */
    String toJson() {
        JsonObject o = new JsonObject();
        o.addProperty("zookeeper", zookeeper);
        o.addProperty("zookeeper_pid", zookeeperPid);
        o.addProperty("ring_delay", ringDelay);
        o.addProperty("replication_factor", replicationFactor);
        JsonArray options = new JsonArray();
        nodeOptions.forEach(options::add);
        o.add("node_options", options);
        JsonArray list = new JsonArray();
        for (Node n : nodes) {
            JsonObject j = new JsonObject();
            j.addProperty("id", n.id());
            j.addProperty("endpoint", n.endpoint());
            j.addProperty("pid", n.pid());
            j.addProperty("data_dir", n.dataDir());
            j.addProperty("host_id", n.hostId());
            j.addProperty("native_endpoint", n.nativeEndpoint());
            j.addProperty("metrics_endpoint", n.metricsEndpoint());
            list.add(j);
        }
        o.add("nodes", list);
        return GSON.toJson(o) + "\n";
    }

    void write(Path dir) throws IOException {
        Path tmp = dir.resolve(NAME + ".tmp");
        Files.writeString(tmp, toJson(), StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(NAME), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static ClusterFile read(Path dir) throws IOException {
        Path f = dir.resolve(NAME);
        if (!Files.exists(f)) {
            throw new IOException("no local cluster in " + dir + " (" + NAME + " is missing; run 'tributary local-cluster up')");
        }
        try {
            JsonElement parsed = JsonParser.parseString(Files.readString(f, StandardCharsets.UTF_8));
            if (!parsed.isJsonObject()) {
                throw new IOException(f + " is not a JSON object");
            }
            JsonObject m = parsed.getAsJsonObject();
            List<Node> nodes = new ArrayList<>();
            for (JsonElement e : m.getAsJsonArray("nodes")) {
                JsonObject n = e.getAsJsonObject();
                nodes.add(new Node(n.get("id").getAsInt(), n.get("endpoint").getAsString(), n.get("pid").getAsLong(),
                        n.get("data_dir").getAsString(), text(n, "host_id"), text(n, "native_endpoint"),
                        text(n, "metrics_endpoint")));
            }
            List<String> options = new ArrayList<>();
            if (m.has("node_options")) { // absent in the files of older versions
                m.getAsJsonArray("node_options").forEach(o -> options.add(o.getAsString()));
            }
            return new ClusterFile(m.get("zookeeper").getAsString(), m.get("zookeeper_pid").getAsLong(),
                    m.get("ring_delay").getAsString(), m.has("replication_factor") ? m.get("replication_factor").getAsInt() : 1,
                    options, nodes);
        } catch (JsonParseException | IllegalStateException | NullPointerException e) {
            throw new IOException(f + " is not a local cluster's file: " + e.getMessage(), e);
        }
    }

    /** A field older versions did not write: empty when absent. */
    private static String text(JsonObject o, String name) {
        return o.has(name) ? o.get(name).getAsString() : "";
    }
}
