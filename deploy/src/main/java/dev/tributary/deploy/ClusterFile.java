package dev.tributary.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code DIR/cluster.json} of a local cluster (docs/REFERENCE.md): {@code {"zookeeper": "127.0.0.1:PORT",
 * "nodes": [{"id", "endpoint", "pid", "data_dir", "host_id"}]}}, plus what {@code restart} and {@code add}
 * need to start a node (its ring delay, replication factor, the options every node gets — TLS and
 * ZooKeeper credentials files — and the ZooKeeper process). Written atomically (temp file + rename).
 */
record ClusterFile(String zookeeper, long zookeeperPid, String ringDelay, int replicationFactor, List<String> nodeOptions,
        List<Node> nodes) {
    static final String NAME = "cluster.json";

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

    String toJson() {
        StringBuilder b = new StringBuilder("{\"zookeeper\": ").append(quote(zookeeper))
                .append(", \"zookeeper_pid\": ").append(zookeeperPid)
                .append(", \"ring_delay\": ").append(quote(ringDelay))
                .append(", \"replication_factor\": ").append(replicationFactor).append(", \"node_options\": [");
        for (int i = 0; i < nodeOptions.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(quote(nodeOptions.get(i)));
        }
        b.append("], \"nodes\": [");
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            b.append(i == 0 ? "" : ", ").append("{\"id\": ").append(n.id()).append(", \"endpoint\": ").append(quote(n.endpoint()))
                    .append(", \"pid\": ").append(n.pid()).append(", \"data_dir\": ").append(quote(n.dataDir()))
                    .append(", \"host_id\": ").append(quote(n.hostId()))
                    .append(", \"native_endpoint\": ").append(quote(n.nativeEndpoint()))
                    .append(", \"metrics_endpoint\": ").append(quote(n.metricsEndpoint())).append('}');
        }
        return b.append("]}\n").toString();
    }

    void write(Path dir) throws IOException {
        Path tmp = dir.resolve(NAME + ".tmp");
        Files.writeString(tmp, toJson(), StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(NAME), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @SuppressWarnings("unchecked")
    static ClusterFile read(Path dir) throws IOException {
        Path f = dir.resolve(NAME);
        if (!Files.exists(f)) {
            throw new IOException("no local cluster in " + dir + " (" + NAME + " is missing; run 'tributary local-cluster up')");
        }
        Object parsed = new JsonReader(Files.readString(f, StandardCharsets.UTF_8)).value();
        if (!(parsed instanceof Map<?, ?> m)) {
            throw new IOException(f + " is not a JSON object");
        }
        List<Node> nodes = new ArrayList<>();
        for (Object o : (List<Object>) m.get("nodes")) {
            Map<String, Object> n = (Map<String, Object>) o;
            nodes.add(new Node(((Number) n.get("id")).intValue(), (String) n.get("endpoint"), ((Number) n.get("pid")).longValue(),
                    (String) n.get("data_dir"), (String) n.getOrDefault("host_id", ""),
                    (String) n.getOrDefault("native_endpoint", ""), (String) n.getOrDefault("metrics_endpoint", "")));
        }
        Object rf = m.get("replication_factor");
        List<String> options = new ArrayList<>();
        Object given = m.get("node_options"); // absent in the files of older versions
        for (Object o : given == null ? List.of() : (List<Object>) given) {
            options.add((String) o);
        }
        return new ClusterFile((String) m.get("zookeeper"), ((Number) m.get("zookeeper_pid")).longValue(),
                (String) m.get("ring_delay"), rf == null ? 1 : ((Number) rf).intValue(), options, nodes);
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.append('"').toString();
    }

    /** Just enough JSON for this file: objects, arrays, strings, integers. */
    private static final class JsonReader {
        private final String s;
        private int i;

        JsonReader(String s) {
            this.s = s;
        }

        Object value() throws IOException {
            skip();
            if (i >= s.length()) {
                throw new IOException("cluster.json ends early");
            }
            char c = s.charAt(i);
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                skip();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    skip();
                    String k = string();
                    skip();
                    expect(':');
                    m.put(k, value());
                    skip();
                    if (s.charAt(i) == ',') {
                        i++;
                        continue;
                    }
                    expect('}');
                    return m;
                }
            }
            if (c == '[') {
                i++;
                List<Object> l = new ArrayList<>();
                skip();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    skip();
                    if (s.charAt(i) == ',') {
                        i++;
                        continue;
                    }
                    expect(']');
                    return l;
                }
            }
            if (c == '"') {
                return string();
            }
            int start = i;
            while (i < s.length() && (s.charAt(i) == '-' || Character.isDigit(s.charAt(i)))) {
                i++;
            }
            if (start == i) {
                throw new IOException("unexpected '" + c + "' at offset " + i + " of cluster.json");
            }
            return Long.parseLong(s.substring(start, i));
        }

        private String string() throws IOException {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (s.charAt(i) != '"') {
                char c = s.charAt(i++);
                b.append(c == '\\' ? s.charAt(i++) : c);
            }
            i++;
            return b.toString();
        }

        private void expect(char c) throws IOException {
            if (i >= s.length() || s.charAt(i) != c) {
                throw new IOException("expected '" + c + "' at offset " + i + " of cluster.json");
            }
            i++;
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }
}
