package dev.tributary.deploy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code tributary local-cluster}: a ZooKeeper server and N nodes on 127.0.0.1, each its own
 * background process (they outlive this command), described by {@code DIR/cluster.json}. Nodes
 * start one after the other, each waiting for the previous to be ready, because each join makes
 * a new CDC generation. Logs go to {@code DIR/zookeeper.log} and {@code DIR/nodeN.log}.
 */
final class LocalClusterCommand {
    static final String USAGE = LocalClusterOptions.USAGE;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final PrintStream out;
    private final PrintStream err;

    LocalClusterCommand(Terminal terminal) {
        this.out = terminal.out();
        this.err = terminal.err();
    }

    int run(List<String> args) {
        if (args.isEmpty()) {
            err.print(USAGE);
            return Tributary.USAGE;
        }
        LocalClusterOptions o;
        try {
            o = LocalClusterOptions.parse(args);
        } catch (UsageException e) {
            err.println("tributary local-cluster: " + e.getMessage());
            err.print(USAGE);
            return Tributary.USAGE;
        }
        if (o.help) {
            out.print(USAGE);
            return Tributary.OK;
        }
        try {
            Path dir = Path.of(LocalClusterOptions.required(o.baseDir, "--base-dir")).toAbsolutePath();
            return switch (o.action) {
                case "up" -> up(dir, LocalClusterOptions.required(o.nodes, "--nodes"), o.basePort, o.baseNativePort,
                        o.metricsPort(), o.ringDelayText(), o.numTokens == null ? null : o.numTokens.toString(),
                        o.replicationFactor, o.nodeOptions());
                case "add" -> add(dir);
                case "kill" -> kill(dir, LocalClusterOptions.required(o.node, "--node"));
                case "restart" -> restart(dir, LocalClusterOptions.required(o.node, "--node"));
                case "status" -> status(dir);
                case "down" -> down(dir);
                default -> {
                    err.println("tributary local-cluster: unknown action '" + o.action + "'");
                    err.print(USAGE);
                    yield Tributary.USAGE;
                }
            };
        } catch (IllegalArgumentException e) {
            err.println("tributary local-cluster: " + e.getMessage());
            return Tributary.USAGE;
        } catch (IOException e) {
            err.println("tributary local-cluster: " + e.getMessage());
            return Tributary.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Tributary.FAILED;
        }
    }

    private int up(Path dir, int count, int basePort, int baseNativePort, int baseMetricsPort, String ringDelay, String numTokens, int replicationFactor,
            List<String> nodeOptions) throws IOException, InterruptedException {
        if (count < 1 || count > 16) {
            throw new IllegalArgumentException("--nodes must be between 1 and 16, got " + count);
        }
        if (Files.exists(dir.resolve(ClusterFile.NAME)) && anyAlive(ClusterFile.read(dir))) {
            throw new IllegalArgumentException("a local cluster already runs in " + dir + " ('local-cluster down' stops it)");
        }
        Files.createDirectories(dir);
        // port 0: the server picks a free port and names it in its ready line
        Process zk = spawn(List.of("zookeeper", "--data-dir", dir.resolve("zookeeper").toString(), "--port", "0"),
                dir.resolve("zookeeper.log"));
        String marker = "tributary zookeeper ready on ";
        String ready = awaitReady(zk, dir.resolve("zookeeper.log"), 0, marker);
        String zkEndpoint = ready.substring(ready.indexOf(marker) + marker.length()).lines().findFirst().orElse("").trim();
        ClusterFile c = new ClusterFile(zkEndpoint, zk.pid(), ringDelay, replicationFactor, nodeOptions, List.of());
        c.write(dir);
        for (int id = 1; id <= count; id++) {
            c = c.withNode(startNode(dir, c, id, "127.0.0.1:" + (basePort + id - 1), "127.0.0.1:" + (baseNativePort + id - 1),
                    "127.0.0.1:" + (baseMetricsPort + id - 1), numTokens));
            c.write(dir);
            out.println("node" + id + " ready on " + c.node(id).endpoint());
        }
        out.println("local cluster of " + count + " node(s) up; " + dir.resolve(ClusterFile.NAME));
        return Tributary.OK;
    }

    private int add(Path dir) throws IOException, InterruptedException {
        ClusterFile c = ClusterFile.read(dir);
        int id = c.nodes().stream().mapToInt(ClusterFile.Node::id).max().orElse(0) + 1;
        int port = c.nodes().stream().mapToInt(n -> Integer.parseInt(n.endpoint().substring(n.endpoint().lastIndexOf(':') + 1)))
                .max().orElse(9159) + 1;
        int nativePort = c.nodes().stream().filter(n -> !n.nativeEndpoint().isEmpty())
                .mapToInt(n -> Integer.parseInt(n.nativeEndpoint().substring(n.nativeEndpoint().lastIndexOf(':') + 1)))
                .max().orElse(9041) + 1;
        int metricsPort = c.nodes().stream().filter(n -> !n.metricsEndpoint().isEmpty())
                .mapToInt(n -> Integer.parseInt(n.metricsEndpoint().substring(n.metricsEndpoint().lastIndexOf(':') + 1)))
                .max().orElse(9179) + 1;
        c = c.withNode(startNode(dir, c, id, "127.0.0.1:" + port, "127.0.0.1:" + nativePort, "127.0.0.1:" + metricsPort, null));
        c.write(dir);
        out.println("node" + id + " ready on " + c.node(id).endpoint());
        return Tributary.OK;
    }

    private int kill(Path dir, int id) throws IOException, InterruptedException {
        ClusterFile.Node n = ClusterFile.read(dir).node(id);
        Optional<ProcessHandle> p = ProcessHandle.of(n.pid());
        if (p.isEmpty() || !p.get().isAlive()) {
            out.println("node" + id + " is not running");
            return Tributary.OK;
        }
        p.get().destroyForcibly(); // SIGKILL
        try {
            p.get().onExit().get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IOException("node" + id + " (pid " + n.pid() + ") did not die within 30 s");
        }
        out.println("node" + id + " killed (pid " + n.pid() + ")");
        return Tributary.OK;
    }

    private int restart(Path dir, int id) throws IOException, InterruptedException {
        ClusterFile c = ClusterFile.read(dir);
        ClusterFile.Node n = c.node(id);
        if (ProcessHandle.of(n.pid()).map(ProcessHandle::isAlive).orElse(false)) {
            throw new IllegalArgumentException("node" + id + " is running (pid " + n.pid() + "); kill it first");
        }
        c = c.withNode(startNode(dir, c, id, n.endpoint(), n.nativeEndpoint().isEmpty() ? "none" : n.nativeEndpoint(),
                n.metricsEndpoint().isEmpty() ? "none" : n.metricsEndpoint(), null));
        c.write(dir);
        out.println("node" + id + " ready on " + n.endpoint());
        return Tributary.OK;
    }

    private int status(Path dir) throws IOException {
        ClusterFile c = ClusterFile.read(dir);
        out.println("zookeeper " + c.zookeeper() + " " + (alive(c.zookeeperPid()) ? "up" : "down"));
        for (ClusterFile.Node n : c.nodes()) {
            out.println("node" + n.id() + " " + n.endpoint() + " pid " + n.pid() + " " + (alive(n.pid()) ? "up" : "down") + " "
                    + n.dataDir() + " host " + n.hostId());
        }
        return Tributary.OK;
    }

    private int down(Path dir) throws IOException, InterruptedException {
        ClusterFile c = ClusterFile.read(dir);
        for (ClusterFile.Node n : c.nodes()) {
            stop(n.pid(), "node" + n.id());
        }
        stop(c.zookeeperPid(), "zookeeper");
        out.println("local cluster down");
        return Tributary.OK;
    }

    private void stop(long pid, String what) throws InterruptedException {
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        if (p.isEmpty() || !p.get().isAlive()) {
            return;
        }
        p.get().destroy(); // SIGTERM: a node closes RocksDB and leaves ZooKeeper cleanly
        try {
            p.get().onExit().get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            err.println(what + " did not stop within 60 s; killing it");
            p.get().destroyForcibly();
        }
    }

    /**
     * @param nativeEndpoint the node's CQL native protocol endpoint, or none
     * @param metricsEndpoint where it serves /metrics, or none
     */
    private ClusterFile.Node startNode(Path dir, ClusterFile c, int id, String endpoint, String nativeEndpoint, String metricsEndpoint,
            String numTokens) throws IOException, InterruptedException {
        Path data = dir.resolve("node" + id);
        List<String> args = new ArrayList<>(List.of("node", "--data-dir", data.toString(), "--listen", endpoint,
                "--native-listen", nativeEndpoint, "--metrics-listen", metricsEndpoint, "--zookeeper",
                c.zookeeper(), "--ring-delay", c.ringDelay(), "--name", "node" + id));
        if (numTokens != null) {
            args.addAll(List.of("--num-tokens", numTokens));
        }
        // replicated always: a keyspace's replication_factor then decides its copies, as in ScyllaDB
        args.addAll(List.of("--replication", "raft", "--replication-factor", Integer.toString(c.replicationFactor())));
        args.addAll(c.nodeOptions());
        Path log = dir.resolve("node" + id + ".log");
        long from = Files.exists(log) ? Files.size(log) : 0; // a restart appends to the log of the earlier runs
        Process p = spawn(args, log);
        String ready = awaitReady(p, log, from, " ready on ");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("tributary node (\\S+) ready on ").matcher(ready);
        return new ClusterFile.Node(id, endpoint, p.pid(), data.toString(), m.find() ? m.group(1) : "",
                nativeEndpoint.equals("none") ? "" : nativeEndpoint, metricsEndpoint.equals("none") ? "" : metricsEndpoint);
    }

    /**
     * Starts {@code tributary <args>} in this installation as a background process logging to {@code log}, with the
     * JVM options bin/tributary gave this process ({@code TRIBUTARY_JVM_OPTIONS}: its defaults and
     * TRIBUTARY_JAVA_OPTS), so a local cluster's nodes run as {@code bin/tributary node} would; when not started
     * through the launcher (tests), with a 1 GB heap.
     */
    private static Process spawn(List<String> args, Path log) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED"));
        String launcherOptions = System.getenv("TRIBUTARY_JVM_OPTIONS");
        if (launcherOptions == null || launcherOptions.isBlank()) {
            cmd.add("-Xmx1g");
        } else {
            cmd.addAll(List.of(launcherOptions.trim().split("\\s+")));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Tributary.class.getName()));
        cmd.addAll(args);
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    }

    /**
     * Waits for {@code marker} in what the process wrote to {@code log} after offset {@code from}.
     *
     * @return what it wrote after {@code from}
     */
    private static String awaitReady(Process p, Path log, long from, String marker) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(log)) {
                byte[] all = Files.readAllBytes(log);
                String written = new String(all, (int) Math.min(from, all.length), (int) Math.max(0, all.length - from),
                        StandardCharsets.UTF_8);
                if (written.contains(marker)) {
                    return written;
                }
            }
            if (!p.isAlive()) {
                throw new IOException("process exited with status " + p.exitValue() + " before it was ready; see " + log);
            }
            Thread.sleep(100);
        }
        p.destroyForcibly();
        throw new IOException("not ready within " + READY_TIMEOUT.toSeconds() + " s; see " + log);
    }

    private static boolean anyAlive(ClusterFile c) {
        return alive(c.zookeeperPid()) || c.nodes().stream().anyMatch(n -> alive(n.pid()));
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
