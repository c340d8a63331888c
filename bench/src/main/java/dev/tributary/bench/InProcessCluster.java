package dev.tributary.bench;

import dev.tributary.node.NodeConfig;
import dev.tributary.node.TributaryNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Nodes started inside the bench's JVM, each with a data directory under one temporary base
 * directory, listening on a free 127.0.0.1 port, with a 1s ring delay. The first node runs the
 * embedded ZooKeeper; the others join it. {@link #stopNodes()} closes them (their stores can
 * then be scanned), {@link #close()} also deletes the base directory. Used from one thread.
 */
final class InProcessCluster implements AutoCloseable {
    static final String RING_DELAY = "1s";

    private final Path baseDir;
    private final List<TributaryNode> nodes = new ArrayList<>();
    private final List<Path> dataDirs = new ArrayList<>();

    private InProcessCluster(Path baseDir) {
        this.baseDir = baseDir;
    }

    /** Starts {@code count} nodes under a new temporary directory in {@code parent}. */
    static InProcessCluster start(int count, Path parent, Durability durability, int numTokens, int captureParallelism) {
        Path base;
        try {
            Files.createDirectories(parent);
            base = Files.createTempDirectory(parent, "tributary-bench-");
        } catch (IOException e) {
            throw new BenchFailedException("cannot create a data directory in " + parent + ": " + e.getMessage(), e);
        }
        InProcessCluster c = new InProcessCluster(base);
        try {
            int zkPort = count > 1 ? freePort() : 0;
            for (int i = 1; i <= count; i++) {
                Path dir = base.resolve("node" + i);
                String zk = i == 1 ? (count > 1 ? "embedded:" + zkPort : "embedded") : "127.0.0.1:" + zkPort;
                NodeConfig config = NodeConfig.parse(new String[] {"--data-dir", dir.toString(), "--listen", "127.0.0.1:0",
                        "--native-listen", "none", "--zookeeper", zk, "--ring-delay", RING_DELAY, "--commitlog-sync", durability.flag(),
                        "--num-tokens", Integer.toString(numTokens), "--name", "node" + i,
                        "--capture-parallelism", Integer.toString(captureParallelism)});
                c.dataDirs.add(dir);
                c.nodes.add(TributaryNode.start(config));
            }
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw new BenchFailedException("in-process node failed to start: " + e.getMessage(), e);
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new BenchFailedException("no free port for the embedded ZooKeeper: " + e.getMessage(), e);
        }
    }

    List<String> endpoints() {
        return nodes.stream().map(TributaryNode::endpoint).toList();
    }

    /** LCRs the nodes' implicit CDC captures have enqueued so far (DDL records included). */
    long captured() {
        long n = 0;
        for (TributaryNode node : nodes) {
            n += node.capture().totalEnqueued();
        }
        return n;
    }

    Path baseDir() {
        return baseDir;
    }

    /** The RocksDB directory of each node. */
    List<Path> storeDirs() {
        return dataDirs.stream().map(d -> d.resolve("rocksdb")).toList();
    }

    /** Closes the nodes, last started first; their data stays. Idempotent. */
    void stopNodes() {
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
        nodes.clear();
    }

    @Override
    public void close() {
        stopNodes();
        deleteTree(baseDir);
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("bench: could not delete " + dir + ": " + e.getMessage());
        }
    }
}
