package dev.tributary.node.kit;

import dev.tributary.node.NodeProcess;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The nemesis kit's cluster: a ZooKeeper server and N nodes (replication factor 3), each a
 * process in its own network namespace of a {@link NemesisNetwork}, so a test can cut any link,
 * pause any process (SIGSTOP/SIGCONT), start a node with its clock offset (libfaketime), kill,
 * restart and wipe one. Every node listens on the same ports in its own namespace, so a restart
 * never finds its port taken.
 *
 * <p>Every random choice comes from {@link #random}, seeded by {@code -Dtributary.nemesis.seed}
 * or the clock; the seed is printed with the line that replays it, and every fault is printed
 * with its time as it happens: the schedule.
 */
public final class NemesisCluster implements AutoCloseable {
    public static final int GRPC_PORT = 9160;
    public static final int NATIVE_PORT = 9042;
    public static final int METRICS_PORT = 9180;
    public static final int ZK_PORT = 2181;
    /** ZooKeeper's tick: sessions may last 2 to 20 ticks, so the nodes' 15 s is granted as asked. */
    public static final int ZK_TICK_MILLIS = 2000;
    /** The nodes' ZooKeeper session timeout (ZooKeeperClients). */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(15);

    public final long seed;
    public final Random random;
    public final NemesisNetwork net;
    private final Path dir;
    private final List<String> names = new ArrayList<>();
    private final Map<String, NodeProcess> nodes = java.util.Collections.synchronizedMap(new LinkedHashMap<>());
    private final Map<String, Duration> clockOffsets = new TreeMap<>();
    private final String ringDelay;
    private Process zk;

    private NemesisCluster(long seed, Path dir, int size, String ringDelay) {
        this.seed = seed;
        this.random = new Random(seed);
        this.dir = dir;
        this.ringDelay = ringDelay;
        List<String> hosts = new ArrayList<>(List.of("zk"));
        for (int i = 1; i <= size; i++) {
            names.add("n" + i);
            hosts.add("n" + i);
        }
        this.net = NemesisNetwork.create(new Random(seed), hosts.toArray(String[]::new));
    }

    /**
     * Creates the network and starts ZooKeeper (the nodes start with {@link #start}). The seed is
     * {@code -Dtributary.nemesis.seed} when set, else the clock's; both are printed.
     */
    public static NemesisCluster create(String test, Path dir, int size, String ringDelay) throws IOException {
        long seed = Long.getLong("tributary.nemesis.seed", System.nanoTime());
        System.out.println(test + " nemesis seed " + seed + " (replay with -Dtributary.nemesis.seed=" + seed + "), in " + dir);
        NemesisCluster c = new NemesisCluster(seed, dir, size, ringDelay);
        try {
            c.startZooKeeper();
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** Prints one step of the schedule, with the time it happens. */
    public void log(String what) {
        System.out.println(Instant.now() + " nemesis: " + what);
    }

    private void startZooKeeper() throws IOException {
        Path zkDir = Files.createDirectories(dir.resolve("zk"));
        List<String> cmd = new ArrayList<>(net.exec(net.host("zk")));
        cmd.addAll(List.of(javaBin(), "-Xmx256m", "-Dzookeeper.admin.enableServer=false",
                "-Dlogback.configurationFile=logback-node.xml", "-cp", System.getProperty("java.class.path"),
                "org.apache.zookeeper.server.ZooKeeperServerMain", Integer.toString(ZK_PORT), zkDir.toString(),
                Integer.toString(ZK_TICK_MILLIS)));
        zk = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("zk.log").toFile())).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!reachable(net.host("zk").ip(), ZK_PORT)) {
            if (!zk.isAlive() || System.nanoTime() > deadline) {
                throw new IOException("ZooKeeper did not listen within 60 s (alive: " + zk.isAlive() + "); its log: "
                        + tail(dir.resolve("zk.log")));
            }
            sleep(100);
        }
        log("ZooKeeper serving at " + zkConnect());
    }

    private static boolean reachable(String ip, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(ip, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** ZooKeeper's address, as the nodes reach it. */
    public String zkConnect() {
        return net.host("zk").ip() + ":" + ZK_PORT;
    }

    /** The names of the nodes, n1..nN. */
    public List<String> names() {
        return List.copyOf(names);
    }

    /**
     * Starts every node at once (they join one after the other under the topology lock) and
     * waits for each one's ready line.
     */
    public void startAll() throws IOException {
        startFirst(names.size());
    }

    /** As {@link #startAll}, for the first {@code count} nodes only: the others can join later ({@link #start}). */
    public void startFirst(int count) throws IOException {
        List<java.util.concurrent.CompletableFuture<NodeProcess>> started = new ArrayList<>();
        for (String n : names.subList(0, count)) {
            started.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return start(n);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
        for (var f : started) {
            try {
                f.join();
            } catch (java.util.concurrent.CompletionException e) {
                throw e.getCause() instanceof java.io.UncheckedIOException u ? u.getCause() : new IOException(e.getCause());
            }
        }
    }

    /** Starts node {@code name} on its data directory (kept across restarts) and waits for its ready line. */
    public NodeProcess start(String name, String... extra) throws IOException {
        NemesisNetwork.Host h = net.host(name);
        Map<String, String> env = new TreeMap<>();
        Duration offset = clockOffsets.get(name);
        if (offset != null) {
            env.putAll(ClockShift.environment(dir, offset, this::log));
        }
        String listen = h.ip() + ":";
        List<String> options = new ArrayList<>(List.of("--zookeeper", zkConnect(), "--replication-factor", "3", "--name",
                name, "--listen", listen + GRPC_PORT, "--native-listen", listen + NATIVE_PORT, "--metrics-listen",
                listen + METRICS_PORT, "--ring-delay", ringDelay,
                // a namespace's address is not loopback; only this machine's bridge reaches it
                "--insecure"));
        options.addAll(List.of(extra));
        log("start " + name + (offset == null ? "" : " with its clock " + offset.toMillis() + " ms off"));
        NodeProcess p = NodeProcess.start(dir.resolve(name), GRPC_PORT, net.exec(h), env, List.of(),
                options.toArray(String[]::new));
        nodes.put(name, p);
        return p;
    }


    /** The next {@link #start} of {@code name} runs its clock {@code offset} from the machine's (negative: behind). */
    public void clockOffset(String name, Duration offset) {
        clockOffsets.put(name, offset);
    }

    /** The running node of that name. */
    public NodeProcess node(String name) {
        NodeProcess p = nodes.get(name);
        if (p == null) {
            throw new IllegalStateException(name + " is not running");
        }
        return p;
    }

    /** The gRPC endpoints of every node, running or not (a client fails over among them). */
    public List<String> endpoints() {
        return names.stream().map(n -> net.host(n).ip() + ":" + GRPC_PORT).toList();
    }

    /** SIGKILL. */
    public void kill(String name) throws InterruptedException {
        log("kill -9 " + name);
        nodes.remove(name).kill();
    }

    /** Deletes a stopped node's data directory: the node comes back as a new one. */
    public void wipe(String name) throws IOException {
        if (nodes.containsKey(name)) {
            throw new IllegalStateException("stop " + name + " before wiping it");
        }
        log("wipe " + name);
        try (var paths = Files.walk(dir.resolve(name))) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** SIGSTOP: the process stops where it is, sockets open, as in a long GC pause or a frozen VM. */
    public void pause(String name) {
        log("SIGSTOP " + name);
        unchecked(name, node(name)::pause);
    }

    /** SIGCONT. */
    public void resume(String name) {
        log("SIGCONT " + name);
        unchecked(name, node(name)::resume);
    }

    /** SIGSTOP to ZooKeeper: every session's server stops answering at once. */
    public void pauseZooKeeper() {
        log("SIGSTOP ZooKeeper");
        signal("STOP", zk.pid());
    }

    /** SIGKILL to ZooKeeper: connections refused from now on, as when its process or machine is gone. */
    public void killZooKeeper() throws InterruptedException {
        log("kill -9 ZooKeeper");
        zk.destroyForcibly();
        zk.waitFor(30, TimeUnit.SECONDS);
    }

    /** Starts ZooKeeper again on its data (after {@link #killZooKeeper}). */
    public void restartZooKeeper() throws IOException {
        startZooKeeper();
    }

    /** SIGCONT to ZooKeeper. */
    public void resumeZooKeeper() {
        log("SIGCONT ZooKeeper");
        signal("CONT", zk.pid());
    }

    /** A signal sent to a node process. */
    private interface Signal {
        void send() throws IOException, InterruptedException;
    }

    private static void unchecked(String name, Signal signal) {
        try {
            signal.send();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted signalling " + name, e);
        }
    }

    private static void signal(String sig, long pid) {
        NemesisNetwork.run(true, "kill", "-" + sig, Long.toString(pid));
    }

    /** Cuts {@code name} from ZooKeeper both ways; the peers and the clients still reach it. */
    public void cutFromZooKeeper(String name) {
        log("cut " + name + " <-> ZooKeeper");
        net.cutBoth(net.host(name), net.host("zk"));
    }

    /** Cuts {@code name} from every other node both ways; ZooKeeper and the clients still reach it. */
    public void cutFromPeers(String name) {
        log("cut " + name + " <-> the other nodes");
        for (String other : names) {
            if (!other.equals(name)) {
                net.cutBoth(net.host(name), net.host(other));
            }
        }
    }

    /** Cuts {@code name} from every other node and from ZooKeeper, both ways: only the clients still reach it. */
    public void isolate(String name) {
        log("cut " + name + " <-> the other nodes and ZooKeeper");
        for (String other : names) {
            if (!other.equals(name)) {
                net.cutBoth(net.host(name), net.host(other));
            }
        }
        net.cutBoth(net.host(name), net.host("zk"));
    }

    /**
     * A bridge partition: every node but {@code bridge} cut from every other such node, both
     * ways; {@code bridge} still sees them all, and all still see ZooKeeper and the clients.
     */
    public void bridge(String bridge) {
        List<String> sides = names.stream().filter(n -> !n.equals(bridge)).toList();
        log("bridge partition through " + bridge + ": " + sides + " cut from each other");
        for (int i = 0; i < sides.size(); i++) {
            for (int j = i + 1; j < sides.size(); j++) {
                net.cutBoth(net.host(sides.get(i)), net.host(sides.get(j)));
            }
        }
    }

    /** Restores every link. */
    public void heal() {
        log("heal " + net.cuts());
        net.heal();
    }

    /** Group name to the node that reports leading it (from the nodes' {@code tributary_raft_role} metrics). */
    public Map<String, String> raftLeaders() {
        return raftLeadersAmong(List.copyOf(nodes.keySet()));
    }

    /** As {@link #raftLeaders}, asking only the nodes named (e.g. one side of a partition). */
    public Map<String, String> raftLeadersAmong(List<String> asked) {
        Map<String, String> out = new TreeMap<>();
        Pattern leader = Pattern.compile("tributary_raft_role\\{group=\"([^\"]+)\",role=\"leader\"} 1(\\.0)?");
        for (String name : asked) {
            String metrics = metrics(name);
            Matcher m = leader.matcher(metrics);
            while (m.find()) {
                out.put(m.group(1), name);
            }
        }
        return out;
    }

    /** Node {@code name}'s Prometheus text, or "" when it does not answer. */
    public String metrics(String name) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create("http://" + net.host(name).ip() + ":" + METRICS_PORT
                    + "/metrics").toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(2000);
            try (var in = c.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return "";
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(none: " + e + ")";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        // a paused process ignores SIGTERM until continued
        for (NodeProcess p : nodes.values()) {
            if (p.isAlive()) {
                NemesisNetwork.run(false, "kill", "-CONT", Long.toString(p.pid()));
            }
        }
        if (zk != null && zk.isAlive()) {
            NemesisNetwork.run(false, "kill", "-CONT", Long.toString(zk.pid()));
        }
        net.heal();
        for (NodeProcess p : nodes.values()) {
            try {
                p.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        nodes.clear();
        if (zk != null) {
            zk.destroy();
            try {
                if (!zk.waitFor(30, TimeUnit.SECONDS)) {
                    zk.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                zk.destroyForcibly();
            }
        }
        net.close();
    }
}
