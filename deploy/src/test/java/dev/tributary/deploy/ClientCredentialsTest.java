package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The login options every connecting command mixes in ({@link ConnectionOptions}), read beside a command's own. */
@Timeout(10)
class ClientCredentialsTest {
    private static final String PASSWORD = "s3cret-Pa55word";
    private static final Function<String, String> NO_ENV = name -> null;

    /** A command's own options with the shared ones mixed in, as cql, tail and admin have them. */
    static final class Command {
        @Option(names = "--connect")
        String connect;
        @Option(names = "-e")
        List<String> statements = new ArrayList<>();
        @Mixin
        ConnectionOptions connection = new ConnectionOptions();
    }

    private static Command parse(List<String> args) throws UsageException {
        Command c = new Command();
        DeployCli.parse(c, args);
        return c;
    }

    private static ClientCredentials credentials(List<String> args, Function<String, String> env) throws UsageException {
        return parse(args).connection.credentials(env);
    }

    @Test
    void userAndPasswordAreReadBesideTheCommandsOwnOptions() throws UsageException {
        Command c = parse(List.of("--connect", "h:1", "--user", "alice", "--password", PASSWORD, "-e", "SELECT 1"));
        assertEquals(new ClientCredentials("alice", PASSWORD), c.connection.credentials(NO_ENV));
        assertEquals("h:1", c.connect);
        assertEquals(List.of("SELECT 1"), c.statements);
        assertEquals(new ClientCredentials("alice", PASSWORD),
                credentials(List.of("--user=alice", "--password=" + PASSWORD), NO_ENV));
    }

    @Test
    void withoutLoginOptionsThereAreNoCredentials() throws UsageException {
        Command c = parse(List.of("-e", "SELECT 1"));
        assertTrue(c.connection.credentials(Map.of(ClientCredentials.PASSWORD_ENV, PASSWORD)::get).none());
        assertEquals(List.of("SELECT 1"), c.statements);
    }

    @Test
    void aUserWithoutPasswordTakesItFromTheEnvironment() throws UsageException {
        ClientCredentials c = credentials(List.of("--user", "alice"), Map.of(ClientCredentials.PASSWORD_ENV, PASSWORD)::get);
        assertEquals(new ClientCredentials("alice", PASSWORD), c);
        // --password wins over the environment
        c = credentials(List.of("--user", "alice", "--password", "other"), Map.of(ClientCredentials.PASSWORD_ENV, PASSWORD)::get);
        assertEquals("other", c.password());
    }

    @Test
    void aUserWithNeitherPasswordIsAUsageErrorSayingWhereOneComesFrom() {
        UsageException e = assertThrows(UsageException.class, () -> credentials(List.of("--user", "alice"), NO_ENV));
        assertEquals("--user alice needs a password: give --password or set TRIBUTARY_PASSWORD", e.getMessage());
    }

    @Test
    void usageErrorsNeverShowThePassword() {
        for (List<String> args : List.of(
                List.of("--password", PASSWORD),
                List.of("--password=" + PASSWORD),
                List.of("--user", "--password", PASSWORD),
                List.of("--user=", "--password", PASSWORD),
                List.of("--password", PASSWORD, "--user"),
                List.of("--user", "alice", "--pasword=" + PASSWORD))) {
            UsageException e = assertThrows(UsageException.class, () -> credentials(args, NO_ENV), String.join(" ", args));
            assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
        }
    }

    @Test
    void toStringLeavesThePasswordOut() {
        String shown = new ClientCredentials("alice", PASSWORD).toString();
        assertTrue(shown.contains("alice"), shown);
        assertFalse(shown.contains(PASSWORD), shown);
    }
}
