package dev.tributary.deploy;

import com.google.gson.FieldNamingPolicy;
import com.google.gson.FormattingStyle;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code DIR/cluster.json} of a local cluster (docs/REFERENCE.md): {@code {"zookeeper": "127.0.0.1:PORT",
 * "nodes": [{"id", "endpoint", "pid", "data_dir", "host_id"}]}}, plus what {@code restart} and {@code add}
 * need to start a node (its ring delay, replication factor, the options every node gets — TLS and
 * ZooKeeper credentials files — and the ZooKeeper process). Written atomically (temp file + rename).
 */
record ClusterFile(String zookeeper, long zookeeperPid, String ringDelay, int replicationFactor, List<String> nodeOptions,
        List<Node> nodes) {
    static final String NAME = "cluster.json";
    /** The components in declaration order, named as the file names them (zookeeper_pid, data_dir, ...). */
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping()
            .setFieldNamingPolicy(FieldNamingPolicy.LOWER_CASE_WITH_UNDERSCORES)
            .setFormattingStyle(FormattingStyle.COMPACT.withSpaceAfterSeparators(true)).create();

    /**
     * @param hostId the node's host id from its ready line (what {@code admin removenode} takes)
     * @param nativeEndpoint its CQL native protocol endpoint (drivers' contact point)
     * @param metricsEndpoint where Prometheus scrapes its /metrics ("" for none)
     */
    record Node(int id, String endpoint, long pid, String dataDir, String hostId, String nativeEndpoint, String metricsEndpoint) {
        Node { // "" where the file of an older version has no such field
            hostId = Objects.requireNonNullElse(hostId, "");
            nativeEndpoint = Objects.requireNonNullElse(nativeEndpoint, "");
            metricsEndpoint = Objects.requireNonNullElse(metricsEndpoint, "");
        }

        Node withPid(long p) {
            return new Node(id, endpoint, p, dataDir, hostId, nativeEndpoint, metricsEndpoint);
        }
    }

    ClusterFile {
        // the files of older versions have no node options and no replication factor (then 1)
        nodeOptions = nodeOptions == null ? List.of() : List.copyOf(nodeOptions);
        replicationFactor = replicationFactor == 0 ? 1 : replicationFactor;
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

    /** The file's text: one line, a space after each separator, as docs/REFERENCE.md shows it. */
    String toJson() {
        return GSON.toJson(this) + "\n";
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
            ClusterFile c = GSON.fromJson(Files.readString(f, StandardCharsets.UTF_8), ClusterFile.class);
            if (c == null) {
                throw new IOException(f + " is empty");
            }
            return c;
        } catch (RuntimeException e) { // Gson's parse errors, and a record constructor's refusal it wraps
            throw new IOException(f + " is not a local cluster's file: " + e.getMessage(), e);
        }
    }
}
