package dev.tributary.node.kit;

import dev.tributary.node.NodeConfig;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.coord.EmbeddedZooKeeper;
import dev.tributary.node.coord.KillSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Nodes of one cluster in the test's JVM (real RocksDB, gRPC and native ports on 127.0.0.1, one
 * ZooKeeper), each under {@code dir/<name>} and named so ({@code --name}), all started with one
 * option set: the ring delay, the security of {@link Security}, the options every node gets, and
 * optionally a seed for each node's host id, tokens and stream ids. ZooKeeper is a server of the
 * cluster's own, apart from the nodes (one embedded in a node would die with it), or an ensemble
 * given by its connect string. The fault hooks: {@link #kill}, {@link #restart}, {@link #wipe},
 * {@link #expireSession}; a node started on a running cluster joins it.
 *
 * <p>Starting nodes may run on several threads at once (a test of concurrent first starts); the
 * other calls are made by the test's own thread. Closing closes the wires, then the nodes in the
 * reverse of their start order (as nested try-with-resources did), then ZooKeeper.
 */
public final class InProcessCluster implements AutoCloseable {
    private final Path dir;
    private final Duration ringDelay;
    private final Security security;
    private final List<String> options;
    private final Long seed;
    private final EmbeddedZooKeeper zk;
    private final String zkConnect;
    /** The running nodes, in the order they started. */
    private final Map<String, TributaryNode> running = Collections.synchronizedMap(new LinkedHashMap<>());
    /** The configuration each node was last started with, kept for its restart. */
    private final Map<String, NodeConfig> configs = Collections.synchronizedMap(new HashMap<>());
    private final Map<String, TestNodes.Wire> wires = new HashMap<>();

    private InProcessCluster(Builder b) {
        this.dir = b.dir;
        this.ringDelay = b.ringDelay;
        this.security = b.security;
        this.options = List.copyOf(b.options);
        this.seed = b.seed;
        if (b.zookeeper == null) {
            zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0);
            zkConnect = zk.connectString();
        } else {
            zk = null;
            zkConnect = b.zookeeper;
        }
    }

    /** A cluster whose nodes and ZooKeeper live under {@code dir}; {@link Builder#build} starts ZooKeeper. */
    public static Builder builder(Path dir) {
        return new Builder(dir);
    }

    /** The shared option set of a cluster's nodes. */
    public static final class Builder {
        private final Path dir;
        private Duration ringDelay = Duration.ofMillis(300);
        private Security security = Security.OPEN;
        private final List<String> options = new ArrayList<>();
        private Long seed;
        private String zookeeper;

        private Builder(Path dir) {
            this.dir = dir;
        }

        /** The nodes' {@code --ring-delay} (300 ms unless set). */
        public Builder ringDelay(Duration value) {
            this.ringDelay = value;
            return this;
        }

        /** How every node is secured ({@link Security#OPEN} unless set); its files are made under the cluster's directory. */
        public Builder security(Security value) {
            this.security = value;
            return this;
        }

        /** Further command-line options of every node (added to those given before). */
        public Builder options(String... more) {
            options.addAll(List.of(more));
            return this;
        }

        /**
         * Each node's host id, vnode tokens and CDC stream ids drawn from this seed (mixed with the
         * node's name, so two nodes never draw the same): a test that prints its seed replays them.
         */
        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        /** An ensemble the nodes use ({@code HOST:PORT[,...]}) instead of a ZooKeeper server of the cluster's own. */
        public Builder zookeeper(String connectString) {
            this.zookeeper = connectString;
            return this;
        }

        /** Starts the cluster's ZooKeeper (unless an ensemble was given); no node runs yet. */
        public InProcessCluster build() {
            return new InProcessCluster(this);
        }
    }

    /** ZooKeeper's connect string, as the nodes have it. */
    public String zkConnect() {
        return zkConnect;
    }

    /** Where node {@code name} keeps its data. */
    public Path dataDir(String name) {
        return dir.resolve(name);
    }

    /**
     * Starts node {@code name} with the shared options and {@code more} (for this node only; a
     * restart uses them again) and returns once it serves; on a running cluster it joins. A start
     * that fails leaves nothing behind: the exception is the node's own.
     */
    public TributaryNode start(String name, String... more) {
        if (running.containsKey(name)) {
            throw new IllegalStateException("node " + name + " is already running");
        }
        List<String> args = new ArrayList<>(List.of(security.nodeOptions(dir)));
        args.addAll(options);
        args.addAll(List.of("--zookeeper", zkConnect, "--name", name));
        args.addAll(List.of(more));
        NodeConfig config = TestNodes.config(dataDir(name), ringDelay, args.toArray(new String[0]));
        configs.put(name, config);
        return launch(name, config);
    }

    /** As {@link #start}, returning once the newest generation the node knows is in force (writes have streams). */
    public TributaryNode startOperating(String name, String... more) {
        TributaryNode n = start(name, more);
        TestNodes.awaitGenerationInForce(n);
        return n;
    }

    // not under the lock: concurrent starts are what some tests are about
    private TributaryNode launch(String name, NodeConfig config) {
        TributaryNode n = seed == null ? TributaryNode.start(config) : TestNodes.startSeeded(config, nodeSeed(name));
        running.put(name, n);
        return n;
    }

    private long nodeSeed(String name) {
        return seed ^ (name.hashCode() * 0x9E3779B97F4A7C15L);
    }

    /** The running node {@code name}. */
    public TributaryNode node(String name) {
        TributaryNode n = running.get(name);
        if (n == null) {
            throw new IllegalStateException("node " + name + " is not running (running: " + names() + ")");
        }
        return n;
    }

    /** The names of the running nodes, in their start order. */
    public List<String> names() {
        synchronized (running) {
            return List.copyOf(running.keySet());
        }
    }

    /** The running nodes, in their start order. */
    public List<TributaryNode> nodes() {
        synchronized (running) {
            return List.copyOf(running.values());
        }
    }

    /**
     * A raw gRPC connection to node {@code name}, secured as the node is; the cluster closes it
     * when the node is killed or the cluster closes, so the test does not.
     */
    public TestNodes.Wire wire(String name) {
        TributaryNode n = node(name);
        return wires.computeIfAbsent(name, k -> new TestNodes.Wire(n));
    }

    /**
     * Stops node {@code name} at once, without a decommission: its ZooKeeper registration goes
     * with it and its tokens stay (system_views.nodes lists it DOWN; system.peers, which drivers
     * read, leaves it out). In this JVM a node cannot be SIGKILLed,
     * so it is closed, as the in-process tests have always done; a test of what a real kill
     * leaves on disk runs the node as a process ({@code NodeProcess}, {@link NemesisCluster}).
     * Killing a node that is not running does nothing.
     */
    public void kill(String name) {
        TestNodes.Wire w = wires.remove(name);
        if (w != null) {
            w.close();
        }
        TributaryNode n = running.remove(name);
        if (n != null) {
            n.close();
        }
    }

    /** Starts the killed node {@code name} again on its data directory, with the options of its last start. */
    public TributaryNode restart(String name) {
        if (running.containsKey(name)) {
            throw new IllegalStateException("node " + name + " is running: kill it before restarting it");
        }
        NodeConfig config = configs.get(name);
        if (config == null) {
            throw new IllegalStateException("node " + name + " was never started (started: " + configs.keySet() + ")");
        }
        return launch(name, config);
    }

    /** Deletes the data directory of the killed node {@code name}: its next start is a new node under the same name. */
    public void wipe(String name) {
        if (running.containsKey(name)) {
            throw new IllegalStateException("node " + name + " is running: kill it before wiping its data directory");
        }
        Path data = dataDir(name);
        if (!Files.exists(data)) {
            return;
        }
        try (Stream<Path> all = Files.walk(data)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot wipe the data directory of node " + name + ": " + data, e);
        }
    }

    /**
     * Expires the ZooKeeper session of node {@code name} the way Curator's KillSession does (a
     * second client joins the session and closes it): its ephemeral znodes go, and it must notice
     * and register again.
     */
    public void expireSession(String name) {
        try {
            KillSession.expire(node(name).coordinator());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot expire the ZooKeeper session of node " + name, e);
        }
    }

    @Override
    public void close() {
        RuntimeException failed = null;
        for (TestNodes.Wire w : wires.values()) {
            w.close();
        }
        wires.clear();
        List<String> order = new ArrayList<>(names());
        Collections.reverse(order);
        for (String name : order) {
            try {
                kill(name);
            } catch (RuntimeException e) {
                if (failed == null) {
                    failed = new IllegalStateException("closing the cluster under " + dir, e);
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (zk != null) {
            zk.close();
        }
        if (failed != null) {
            throw failed;
        }
    }
}
