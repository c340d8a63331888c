package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's option tables: what each command reads (the shared duration grammar, repeated
 * options) and the one line plus usage and status 2 a command line that cannot run gets. Nothing
 * here connects: every case stops at the command line.
 */
@Timeout(30)
class OptionTablesTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        out.reset();
        err.reset();
        Terminal t = new Terminal(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        ClientFactory refuse = (endpoints, timeout, user) -> {
            throw new AssertionError("a bad command line must not connect");
        };
        return new Tributary(t, refuse, a -> 0, name -> null).run(args);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("cql reads every duration spelling of the shared grammar, and --connect and -e/-f add up in order")
    void cqlOptions() throws UsageException {
        assertEquals(Duration.ofMillis(1500), CqlOptions.parse(List.of("--request-timeout", "1.5s")).requestTimeout());
        assertEquals(Duration.ofMinutes(2), CqlOptions.parse(List.of("--request-timeout=2M")).requestTimeout());
        CqlOptions o = CqlOptions.parse(List.of("--connect", "h1:1,h2:2", "-e", "A", "-f", "f.cql", "--connect=h3:3", "--execute", "B"));
        assertEquals(List.of("h1:1", "h2:2", "h3:3"), o.endpoints());
        assertEquals(List.of(new CqlOptions.Inline("A"), new CqlOptions.ScriptFile("f.cql"), new CqlOptions.Inline("B")), o.sources());
        assertEquals(CqlOptions.Output.JSON, CqlOptions.parse(List.of("-o", "JSON")).output());
        assertEquals(List.of(CqlOptions.DEFAULT_ENDPOINT), CqlOptions.parse(List.of()).endpoints());
    }

    @Test
    @DisplayName("each bad command line names the option and what it wanted, prints the usage and exits 2")
    void badLinesNameTheOption(@TempDir Path dir) {
        String base = dir.toString();
        for (String[] c : new String[][] {
            {"tributary cql: --request-timeout wants a duration such as 500ms, 3s or 1m, got 'soon'", "cql", "--request-timeout", "soon"},
            {"tributary cql: --request-timeout must be positive, got '0s'", "cql", "--request-timeout", "0s"},
            {"tributary cql: unexpected argument 'SELECT 1' (statements go after -e)", "cql", "SELECT 1"},
            {"tributary tail: --idle-exit must be positive, got '0s'", "tail", "--connect", "h:1", "--table", "ks.t", "--idle-exit", "0s"},
            {"tributary tail: --from wants earliest, latest or an ISO-8601 time", "tail", "--connect", "h:1", "--table", "ks.t",
                "--from", "yesterday"},
            {"tributary tail: --limit must be at least 1, got 0", "tail", "--connect", "h:1", "--table", "ks.t", "--limit", "0"},
            {"tributary tail: --limit wants a whole number, got 'ten'", "tail", "--connect", "h:1", "--table", "ks.t", "--limit", "ten"},
            {"tributary tail: give exactly one of --table KS.T or --queue NAME", "tail", "--connect", "h:1"},
            {"tributary admin: unknown option '--bogus'", "admin", "--connect", "h:1", "--bogus", "status"},
            {"tributary local-cluster: --ring-delay wants a duration such as 500ms, 3s or 1m, got '5'", "local-cluster", "up",
                "--nodes", "1", "--base-dir", base, "--ring-delay", "5"},
            {"tributary local-cluster: --nodes wants a whole number, got 'three'", "local-cluster", "up", "--nodes", "three",
                "--base-dir", base},
            {"tributary local-cluster: --base-dir is required", "local-cluster", "status"},
            {"tributary local-cluster: --nodes must be between 1 and 16, got 17", "local-cluster", "up", "--nodes", "17",
                "--base-dir", base},
            {"tributary zookeeper: --data-dir and --port are needed", "zookeeper", "--port", "0"}}) {
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            assertEquals(Tributary.USAGE, run(args), String.join(" ", args));
            assertTrue(err().startsWith(c[0]), String.join(" ", args) + ":\n" + err());
        }
    }

    @Test
    @DisplayName("an admin line short of its connection or host id gets the usage alone, as before")
    void adminUsage() {
        assertEquals(Tributary.USAGE, run("admin", "status"));
        assertTrue(err().startsWith("usage: tributary admin"), err());
        assertEquals(Tributary.USAGE, run("admin", "--connect", "h:1", "removenode"));
        assertTrue(err().startsWith("usage: tributary admin"), err());
        assertEquals(Tributary.USAGE, run("admin", "--connect", "h:1", "removenode", "b", "c"));
        assertTrue(err().startsWith("usage: tributary admin"), err());
    }
}
