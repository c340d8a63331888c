package dev.tributary.node;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A node in a child JVM, so a test can kill it with SIGKILL (no shutdown hooks, no flush). */
final class NodeProcess implements AutoCloseable {
    final Process process;
    final String endpoint;

    private NodeProcess(Process process, String endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    /** Starts {@code NodeMain} and waits for its "ready" line. */
    static NodeProcess start(Path dataDir, int port, String... extra) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), NodeMain.class.getName(),
                "--data-dir", dataDir.toString(), "--listen", "127.0.0.1:" + port, "--ring-delay", "300ms", "--num-tokens", "8"));
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try {
                BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("tributary node ") && line.contains(" ready on ")) {
                        return line;
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
        try {
            String line = ready.get(90, TimeUnit.SECONDS);
            if (line == null) {
                throw new IOException("node process exited with " + p.waitFor() + " before it was ready");
            }
            return new NodeProcess(p, line.substring(line.indexOf(" ready on ") + " ready on ".length()).trim());
        } catch (Exception e) {
            p.destroyForcibly();
            throw new IOException("node process did not become ready: " + e, e);
        }
    }

    void kill() throws InterruptedException {
        process.destroyForcibly(); // SIGKILL on Unix
        process.waitFor(30, TimeUnit.SECONDS);
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
