package dev.tributary.node.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.TributaryException;
import dev.tributary.node.NodeProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29 item 8: a password cluster never starts with cassandra/cassandra. Its first start takes
 * the superuser's password from --superuser-password-file, or generates one and prints it once on
 * the node's standard output (and nowhere in its log).
 */
@Timeout(180)
class SuperuserPasswordIT {
    private static final Pattern PRINTED = Pattern.compile("superuser cassandra created with password (\\S+) .*");

    private static TributaryClient client(NodeProcess n, String role, String password) {
        return TributaryClient.builder().endpoints(n.endpoint()).credentials(role, password)
                .requestTimeout(Duration.ofSeconds(20)).failoverWindow(Duration.ZERO).build();
    }

    private static String code(NodeProcess n, String role, String password) {
        try (TributaryClient c = client(n, role, password)) {
            c.execute("SELECT cluster_name FROM system.local");
            return "OK";
        } catch (TributaryException e) {
            return e.code();
        }
    }

    @Test
    @DisplayName("without a password file the first start prints a generated password once (stdout, not the log); it logs "
            + "in, cassandra/cassandra does not; a restart prints nothing and the password still works")
    void generatedAndPrintedOnce(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("n1");
        String password;
        try (NodeProcess n = NodeProcess.start(data, "--authenticator", "password")) {
            List<String> printed = n.startOutput().stream().filter(l -> l.startsWith("superuser ")).toList();
            assertEquals(1, printed.size(), "one line names the password: " + n.startOutput());
            Matcher m = PRINTED.matcher(printed.get(0));
            assertTrue(m.matches(), printed.get(0));
            password = m.group(1);
            assertTrue(password.length() >= 24 && !password.equals("cassandra"), password);
            assertEquals("OK", code(n, "cassandra", password));
            assertEquals("UNAUTHENTICATED", code(n, "cassandra", "cassandra"));
        }
        String log = Files.readString(dir.resolve("n1.stderr.log"));
        assertFalse(log.contains(password), "the node's log never holds the password");
        try (NodeProcess n = NodeProcess.start(data, "--authenticator", "password")) {
            assertEquals(List.of(), n.startOutput().stream().filter(l -> l.contains(password) || l.startsWith("superuser "))
                    .toList(), "a restart shows no password");
            assertEquals("OK", code(n, "cassandra", password));
        }
    }

    @Test
    @DisplayName("with --superuser-password-file the first line of the file is the password and nothing is printed; a file "
            + "given on a later start changes nothing (the password is the role's, ALTER ROLE changes it)")
    void fromFile(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("n1");
        Path file = Files.writeString(dir.resolve("pw"), "first-file-pw\nsecond line\n");
        try (NodeProcess n = NodeProcess.start(data, "--authenticator", "password", "--superuser-password-file", file.toString())) {
            assertEquals(List.of(), n.startOutput().stream().filter(l -> l.startsWith("superuser ")).toList());
            assertEquals("OK", code(n, "cassandra", "first-file-pw"));
            assertEquals("UNAUTHENTICATED", code(n, "cassandra", "cassandra"));
            assertEquals("UNAUTHENTICATED", code(n, "cassandra", "second line"));
        }
        Files.writeString(file, "another-pw\n");
        try (NodeProcess n = NodeProcess.start(data, "--authenticator", "password", "--superuser-password-file", file.toString())) {
            assertEquals("OK", code(n, "cassandra", "first-file-pw"));
            assertEquals("UNAUTHENTICATED", code(n, "cassandra", "another-pw"));
        }
    }
}
