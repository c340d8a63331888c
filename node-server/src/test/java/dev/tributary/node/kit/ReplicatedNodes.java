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

    public ReplicatedNodes(Path dir, String ringDelay) {
        this.dir = dir;
        this.ringDelay = ringDelay;
    }

    /** Starts node {@code name} (the first call starts ZooKeeper) and returns once its own instance serves. */
    public ReplicatedNode start(String name) {
        if (zk == null) {
            zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0);
        }
        NodeConfig c = NodeConfig.parse(new String[] {"--data-dir", dir.resolve(name).toString(), "--listen", "127.0.0.1:0",
                "--native-listen", "127.0.0.1:0", "--zookeeper", zk.connectString(), "--ring-delay", ringDelay,
                "--num-tokens", "8", "--name", name, "--replication-factor", "3"});
        ReplicatedNode n = ReplicatedNode.start(c, Duration.ofSeconds(60));
        nodes.put(name, n);
        return n;
    }

    @Override
    public void close() {
        nodes.values().forEach(ReplicatedNode::close);
        if (zk != null) {
            zk.close();
        }
    }
}
