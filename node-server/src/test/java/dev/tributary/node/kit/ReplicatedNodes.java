package dev.tributary.node.kit;

import dev.tributary.node.NodeConfig;
import dev.tributary.node.ReplicatedNode;
import dev.tributary.node.coord.EmbeddedZooKeeper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Replicated nodes (replication factor 3) in the test's JVM, with their ZooKeeper apart from
 * them (an embedded one would die with its node), each under {@code dir/<name>}, started in order
 * and closed together.
 */
public final class ReplicatedNodes implements AutoCloseable {
    /** The nodes running, by name; a test that stops one removes it. */
    public final Map<String, ReplicatedNode> nodes = new LinkedHashMap<>();
    private final Path dir;
    private final String ringDelay;
    private EmbeddedZooKeeper zk;

    private final int floor;
    private final Security security;

    /** Nodes started with {@code --replication-factor 3}: every group has three replicas from the start. */
    public ReplicatedNodes(Path dir, String ringDelay) {
        this(dir, ringDelay, 3);
    }

    /** Nodes started with {@code --replication raft --replication-factor floor}: the keyspaces grow the groups above it. */
    public ReplicatedNodes(Path dir, String ringDelay, int floor) {
        this(dir, ringDelay, floor, Security.OPEN);
    }

    /** As {@link #ReplicatedNodes(Path, String, int)}, every node secured as {@code security} says. */
    public ReplicatedNodes(Path dir, String ringDelay, int floor, Security security) {
        this.dir = dir;
        this.ringDelay = ringDelay;
        this.floor = floor;
        this.security = security;
    }

    /** Starts node {@code name} (the first call starts ZooKeeper) and returns once its own instance serves. */
    public ReplicatedNode start(String name) {
        if (zk == null) {
            zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0);
        }
        NodeConfig c = NodeConfig.parse(dev.tributary.node.TestNodes.concat(security.nodeOptions(dir), "--data-dir",
                dir.resolve(name).toString(), "--listen", "127.0.0.1:0", "--native-listen", "127.0.0.1:0", "--zookeeper",
                zk.connectString(), "--ring-delay", ringDelay, "--num-tokens", "8", "--name", name, "--replication", "raft",
                "--replication-factor", Integer.toString(floor)));
        ReplicatedNode n = ReplicatedNode.start(c, Duration.ofSeconds(60));
        nodes.put(name, n);
        return n;
    }

    /** The connect string of the nodes' ZooKeeper (started with the first node), for a node a test configures itself. */
    public String zookeeper() {
        if (zk == null) {
            throw new IllegalStateException("no node started yet: ZooKeeper starts with the first");
        }
        return zk.connectString();
    }

    /** The endpoints of every instance running now, wherever it runs. */
    public java.util.List<String> endpoints() {
        java.util.List<String> out = new java.util.ArrayList<>();
        nodes.values().forEach(n -> n.instances().values().forEach(i -> out.add(i.endpoint())));
        return out;
    }

    /**
     * Creates keyspace {@code ks} (replication factor 3) and the table {@code ks.t} given by its
     * column list once the first generation lets a write in, writes the row {@code pk = -1}, and
     * waits until every instance knows the table, so writes routed to any of them find it.
     */
    public void createTable(dev.tributary.client.TributaryClient client, String columns) {
        dev.tributary.node.TestNodes.await(() -> {
            try {
                client.execute("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = "
                        + "{'class': 'SimpleStrategy', 'replication_factor': 3}");
                client.execute("CREATE TABLE IF NOT EXISTS ks.t " + columns);
                client.execute("INSERT INTO ks.t (pk, v) VALUES (-1, -1)");
                return true;
            } catch (RuntimeException e) {
                return false;
            }
        }, Duration.ofSeconds(30), "the first generation and the table");
        for (dev.tributary.node.TributaryNode n : nodes.values().stream().flatMap(r -> r.instances().values().stream()).toList()) {
            try (dev.tributary.node.TestNodes.Wire w = new dev.tributary.node.TestNodes.Wire(n)) {
                dev.tributary.node.TestNodes.await(() -> {
                    try {
                        w.exec("SELECT pk FROM ks.t WHERE pk = -1");
                        return true;
                    } catch (RuntimeException e) {
                        return false;
                    }
                }, Duration.ofSeconds(30), "instance " + n.hostId() + " to know ks.t");
            }
        }
    }

    @Override
    public void close() {
        nodes.values().forEach(ReplicatedNode::close);
        if (zk != null) {
            zk.close();
        }
    }
}
