package dev.tributary.node.nativeproto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.InProcessCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/cql-drivers/python_driver.py — the DataStax Python driver as Debian packages it
 * (python3-cassandra, which bin/test installs) — against two real nodes' CQL native ports. CI
 * must really run it: without the package it fails rather than skips.
 */
@Timeout(180)
class PythonDriverIT {
    private static final String PYTHON = System.getProperty("tributary.python", "/usr/bin/python3");

    private static Path script() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("examples/cql-drivers/python_driver.py");
            if (Files.exists(s)) {
                return s;
            }
        }
        throw new AssertionError("examples/cql-drivers/python_driver.py not found above " + Path.of("").toAbsolutePath());
    }

    private static List<String> run(Path dir, List<String> cmd) throws IOException, InterruptedException {
        Path out = dir.resolve("python.out");
        Path err = dir.resolve("python.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the Python driver script did not finish in 120 s: " + Files.readString(out)
                    + Files.readString(err));
        }
        assertEquals(0, p.exitValue(), "python exit status; stdout: " + Files.readString(out) + " stderr: "
                + Files.readString(err, StandardCharsets.UTF_8));
        return Files.readAllLines(out);
    }

    @Test
    @DisplayName("the Python driver connects (v5 -> v4), sees both nodes, reads the schema, writes, pages, reads the CDC log in the stream of token(pk), and gets typed errors")
    void pythonDriver(@TempDir Path dir) throws Exception {
        List<String> check = run(dir, List.of(PYTHON, "-c", "import cassandra; print(cassandra.__version__)"));
        assertEquals(1, check.size(), "python3-cassandra is missing for " + PYTHON + " (bin/test installs it)");
        try (InProcessCluster cluster = InProcessCluster.builder(dir).ringDelay(Duration.ofMillis(300)).build()) {
            TributaryNode n1 = cluster.start("n1");
            TributaryNode n2 = cluster.start("n2");
            long ts = n2.generations().latest().orElseThrow().timestampMillis();
            TestNodes.await(() -> System.currentTimeMillis() > ts, Duration.ofSeconds(10), "the generation of the join");
            String ep = n1.nativeEndpoint();
            List<String> out = run(dir, List.of(PYTHON, script().toString(), "127.0.0.1", ep.substring(ep.lastIndexOf(':') + 1)));
            assertEquals(List.of(
                    "connected protocol_version=4 release_version=3.0.8 cql_version=3.4.4 tributary_version="
                            + dev.tributary.node.exec.SystemTables.TRIBUTARY_VERSION,
                    "hosts 2",
                    "schema table=orders partition_key=id clustering=line",
                    "paged rows=1001 pages=4",
                    "read item=apple qty=3",
                    "cdc operation=2 item=apple stream_in_vnode_of_token=yes",
                    "error SyntaxException",
                    "error InvalidRequest"), out);
        }
    }
}
