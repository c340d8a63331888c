package dev.tributary.kafka;

import dev.tributary.node.NodeMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A Tributary node in a JVM of its own, so a test can kill it with SIGKILL (no shutdown hook, no
 * flush), as node-server's test kit does; its standard error goes to {@code <dir>.stderr.log}.
 */
final class NodeProcess implements AutoCloseable {
    private final Process process;
    private final String endpoint;

    private NodeProcess(Process process, String endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    /** Starts {@code NodeMain} on a port it picks (its "ready on" line says which) and waits for that line. */
    static NodeProcess start(Path dataDir, String... options) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")), NodeMain.class.getName(), "--data-dir",
                dataDir.toString(), "--listen", "127.0.0.1:0", "--native-listen", "none", "--metrics-listen", "none",
                "--ring-delay", "1s", "--num-tokens", "8"));
        cmd.addAll(List.of(options));
        Path log = dataDir.resolveSibling(dataDir.getFileName() + ".stderr.log");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith("tributary node ") && line.contains(" ready on ")) {
                        return line;
                    }
                }
            } catch (IOException e) {
                // the process is gone: reported below
            }
            return null;
        });
        String line;
        try {
            line = ready.get(120, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            line = null;
        }
        if (line == null) {
            p.destroyForcibly();
            p.waitFor();
            List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
            throw new IOException("node " + dataDir + " not ready; its log ends:\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
        }
        // keep draining its standard output, or the node blocks once the pipe is full
        Thread drain = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // nothing to keep
                }
            } catch (IOException e) {
                // the process is gone
            }
        }, "node-stdout");
        drain.setDaemon(true);
        drain.start();
        return new NodeProcess(p, line.substring(line.indexOf(" ready on ") + " ready on ".length()).trim());
    }

    String endpoint() {
        return endpoint;
    }

    /** SIGKILL. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        }
    }
}
