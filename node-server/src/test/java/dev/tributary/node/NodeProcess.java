package dev.tributary.node;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A node in a child JVM, so a test can kill it with SIGKILL (no shutdown hooks, no flush). */
public final class NodeProcess implements AutoCloseable {
    final Process process;
    final String endpoint;
    private java.io.File stderrLog;
    private List<String> startOutput = List.of();
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);

    private NodeProcess(Process process, String endpoint, BufferedReader out) {
        this.process = process;
        this.endpoint = endpoint;
        Thread t = new Thread(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith("tributary node ") && line.endsWith(" stopped")) {
                        stopped.countDown();
                    }
                }
            } catch (IOException e) {
                // the process is gone
            }
        }, "node-stdout");
        t.setDaemon(true);
        t.start();
    }

    static int freePort() throws IOException {
        return TestNodes.freePort();
    }

    /**
     * Starts {@code NodeMain} on a port it picks itself (its "ready" line says which): a port
     * found free beforehand can be taken by another socket before the node binds it.
     */
    public static NodeProcess start(Path dataDir, String... extra) throws IOException {
        return start(dataDir, 0, extra);
    }

    /** Starts {@code NodeMain} and waits for its "ready" line. */
    public static NodeProcess start(Path dataDir, int port, String... extra) throws IOException {
        return start(dataDir, port, List.of(), extra);
    }

    /** Starts {@code NodeMain} with JVM options of its own: the fault hooks (e.g. {@code -Dtributary.fault.powerLoss=true}). */
    public static NodeProcess start(Path dataDir, int port, List<String> jvmOptions, String... extra) throws IOException {
        return start(dataDir, port, List.of(), java.util.Map.of(), jvmOptions, extra);
    }

    /**
     * Starts {@code NodeMain} behind a command {@code prefix} that execs it (the nemesis kit's
     * {@code ip netns exec <namespace>}, so {@link #pid} is the JVM's) with {@code env} added to its
     * environment (libfaketime's clock offset); later options in {@code extra} override the
     * defaults here (e.g. {@code --listen} on the namespace's address).
     */
    public static NodeProcess start(Path dataDir, int port, List<String> prefix, java.util.Map<String, String> env,
            List<String> jvmOptions, String... extra) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of(
                // logging that explains a failure (logback-node.xml), not the test JVM's quiet logback-test.xml
                "-Dlogback.configurationFile=logback-node.xml", "-cp", System.getProperty("java.class.path"), NodeMain.class.getName(),
                "--data-dir", dataDir.toString(), "--listen", "127.0.0.1:" + port, "--native-listen", "127.0.0.1:0",
                "--metrics-listen", "127.0.0.1:0", "--ring-delay", "300ms", "--num-tokens", "8"));
        cmd.addAll(List.of(extra));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        Process p = pb.redirectError(ProcessBuilder.Redirect.appendTo(dataDir.resolveSibling(dataDir.getFileName() + ".stderr.log").toFile())).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        List<String> before = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("tributary node ") && line.contains(" ready on ")) {
                        return line;
                    }
                    before.add(line);
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
        try {
            String line = ready.get(90, TimeUnit.SECONDS);
            if (line == null) {
                int exit = p.waitFor();
                java.io.File log = dataDir.resolveSibling(dataDir.getFileName() + ".stderr.log").toFile();
                List<String> lines = java.nio.file.Files.readAllLines(log.toPath());
                throw new IOException("node process exited with " + exit + " before it was ready; its log ends:\n"
                        + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())));
            }
            NodeProcess np = new NodeProcess(p, line.substring(line.indexOf(" ready on ") + " ready on ".length()).trim(), r);
            np.stderrLog = dataDir.resolveSibling(dataDir.getFileName() + ".stderr.log").toFile();
            np.startOutput = List.copyOf(before);
            return np;
        } catch (java.util.concurrent.TimeoutException e) {
            p.destroyForcibly();
            List<String> lines = java.nio.file.Files.readAllLines(dataDir.resolveSibling(dataDir.getFileName() + ".stderr.log"))
                    .stream().filter(l -> !l.startsWith("\tat ") && !l.startsWith("Caused") && !l.contains("APPEND_ENTRIES")
                            && !l.contains("appendEntries")).toList();
            throw new IOException("node process not ready within 90 s; its log ends:\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size())), e);
        } catch (Exception e) {
            p.destroyForcibly();
            throw new IOException("node process did not become ready: " + e, e);
        }
    }

    /** The last lines of the node's stderr log, for failure messages. */
    public String logTail() {
        try {
            java.util.List<String> lines = java.nio.file.Files.readAllLines(stderrLog.toPath());
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no node log: " + e + ")";
        }
    }

    /** What the node printed on its standard output before its ready line. */
    public List<String> startOutput() {
        return startOutput;
    }

    /** The process id: with an exec'ing prefix, the node's JVM (the nemesis kit signals it). */
    public long pid() {
        return process.pid();
    }

    /** Whether the process still runs. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** The node's gRPC endpoint, HOST:PORT. */
    public String endpoint() {
        return endpoint;
    }

    /** SIGSTOP: the node stops answering with its connections open, as in a long GC pause. */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT, after {@link #pause}. */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String sig) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + sig, Long.toString(pid())).redirectErrorStream(true).start();
        String out = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + sig + " " + pid() + " failed: " + out);
        }
    }

    public void kill() throws InterruptedException {
        process.destroyForcibly(); // SIGKILL on Unix
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Sends SIGTERM and waits for the node's clean-shutdown line; false if it did not come. */
    boolean stopCleanly() throws InterruptedException {
        // Process.destroy() would also close our end of stdout, losing the shutdown line
        process.toHandle().destroy();
        boolean clean = stopped.await(60, TimeUnit.SECONDS);
        process.waitFor(30, TimeUnit.SECONDS);
        if (!clean) {
            // show why: the node's own log
            try {
                java.util.List<String> lines = java.nio.file.Files.readAllLines(stderrLog.toPath());
                lines.subList(Math.max(0, lines.size() - 60), lines.size()).forEach(System.err::println);
            } catch (IOException e) {
                System.err.println("no node log: " + e);
            }
        }
        return clean;
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy(); // SIGTERM: clean shutdown
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
