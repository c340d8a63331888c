package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.internal.JsonReader;
import dev.tributary.node.TributaryNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY X5 through the CLI against a real node with {@code --authenticator password}: what
 * the commands print, as JSON and as tables, and their errors. (The node's logs and the SDK's
 * views of the same answers are searched by node-server's AuthIT.)
 */
@Timeout(120)
class PasswordCanaryIT {
    private static final String CANARY = "canary-5d1c-pw";
    private static final String SUPERUSER = "superuser-9a2b-pw";
    private String endpoint;
    private String out;
    private String err;

    /**
     * Runs the CLI with {@code stdin} and fails if the canary is in what it printed, on either
     * stream; none of the test JVM's environment reaches it.
     */
    private int cli(String stdin, String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        Terminal t = new Terminal(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8), false);
        int status = new Tributary(t, ClientFactory.netty(), a -> 0, Map.<String, String>of()::get).run(args);
        out = o.toString(StandardCharsets.UTF_8);
        err = e.toString(StandardCharsets.UTF_8);
        assertFalse(out.contains(CANARY) || err.contains(CANARY), () -> "the password shows in the output of "
                + String.join(" ", args).replace(CANARY, "<the canary>") + ":\n" + out + err);
        return status;
    }

    private int cql(String user, String password, String... more) {
        String[] args = new String[7 + more.length];
        System.arraycopy(new String[] {"cql", "--connect", endpoint, "--user", user, "--password", password}, 0, args, 0, 7);
        System.arraycopy(more, 0, args, 7, more.length);
        return cli("", args);
    }

    @Test
    @DisplayName("RELIABILITY X5: a canary password set, used and mistyped through the CLI appears in none of its JSON "
            + "output (cql --output json of LIST ROLES, system_auth.roles and permissions; tail --output json), its tables, "
            + "or its errors (a refused login as cql and as tail, a mistyped role statement)")
    void theCanaryPasswordNeverShows(@TempDir Path dir) throws Exception {
        java.nio.file.Files.writeString(dir.resolve("superuser-password"), SUPERUSER + "\n");
        try (TributaryNode node = TailCommandIT.startNode(dir, 4, "--authenticator", "password", "--superuser-password-file",
                dir.resolve("superuser-password").toString())) {
            endpoint = node.endpoint();
            assertEquals(0, cql("cassandra", SUPERUSER,
                    "-e", "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}",
                    "-e", "CREATE TABLE ks.t (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}",
                    "-e", "INSERT INTO ks.t (pk, v) VALUES (1, 'one')",
                    "-e", "CREATE ROLE alice WITH PASSWORD = '" + CANARY + "' AND LOGIN = true",
                    "-e", "GRANT SELECT ON TABLE ks.t TO alice"), err);

            for (String output : new String[] {"json", "table"}) {
                assertEquals(0, cql("cassandra", SUPERUSER, "--output", output, "-e", "LIST ROLES",
                        "-e", "SELECT * FROM system_auth.roles", "-e", "LIST ALL PERMISSIONS"), err);
                // the roles were printed, hash and all: it is the password that is missing
                assertTrue(out.contains("alice") && out.contains("$2a$10$"), out);
                if (output.equals("json")) {
                    assertTrue(out.lines().map(JsonReader::parse).anyMatch(r -> r instanceof Map<?, ?> m
                            && "alice".equals(m.get("role")) && String.valueOf(m.get("salted_hash")).startsWith("$2a$10$")),
                            "system_auth.roles as JSON, alice's row with its hash: " + out);
                }
            }

            // alice logs in with it, changes it to itself, reads and tails
            assertEquals(0, cql("alice", CANARY, "--output", "json", "-e", "ALTER ROLE alice WITH PASSWORD = '" + CANARY + "'"),
                    err);
            // a new password revokes the role's tokens: a new run logs in again
            assertEquals(0, cql("alice", CANARY, "--output", "json", "-e", "SELECT * FROM ks.t"), err);
            assertEquals("{\"pk\":1,\"v\":\"one\"}\n", out);
            assertEquals(0, cli("", "tail", "--connect", endpoint, "--user", "alice", "--password", CANARY, "--table", "ks.t",
                    "--from", "earliest", "--limit", "2", "--output", "json"), err);
            assertEquals(2, out.split("\n").length, out);

            // refused: a wrong password, the canary for a role that does not exist, as cql and as tail
            assertEquals(1, cql("alice", CANARY + "x", "--output", "json", "-e", "SELECT * FROM ks.t"));
            assertTrue(err.startsWith("ERROR UNAUTHENTICATED: "), err);
            assertEquals(1, cql("mallory", CANARY, "--output", "json", "-e", "SELECT * FROM ks.t"));
            assertTrue(err.startsWith("ERROR UNAUTHENTICATED: "), err);
            assertEquals(1, cli("", "tail", "--connect", endpoint, "--user", "alice", "--password", CANARY + "x", "--table",
                    "ks.t", "--from", "earliest", "--idle-exit", "1s", "--output", "json"));
            assertTrue(err.startsWith("ERROR UNAUTHENTICATED: "), err);

            // mistyped and refused role statements carrying it, through the shell, which goes on after each error
            String statements = "CREATE ROLE bob WITH PASSWORD '" + CANARY + "';\n"
                    + "CREATE ROLE bob WITH PASSWORD = '" + CANARY + "' AND LOGIN = maybe;\n"
                    + "ALTER ROLE nobody WITH PASSWORD = '" + CANARY + "';\n"
                    + "CREATE ROLE alice WITH PASSWORD = '" + CANARY + "';\n";
            // the shell's status is its last failure's: ALREADY_EXISTS
            assertEquals(1, cli(statements, "cql", "--connect", endpoint, "--user", "cassandra", "--password", SUPERUSER,
                    "--output", "json"), err);
            assertEquals(4, err.lines().filter(l -> l.startsWith("ERROR ")).count(), err);
        }
    }
}
