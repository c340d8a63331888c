package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ClientCredentialsTest {
    private static final String PASSWORD = "s3cret-Pa55word";
    private static final Function<String, String> NO_ENV = name -> null;

    @Test
    void userAndPasswordAreTakenOutOfTheArguments() throws UsageException {
        ClientCredentials.Extracted x = ClientCredentials.extract(
                List.of("--connect", "h:1", "--user", "alice", "--password", PASSWORD, "-e", "SELECT 1"), NO_ENV);
        assertEquals(new ClientCredentials("alice", PASSWORD), x.credentials());
        assertEquals(List.of("--connect", "h:1", "-e", "SELECT 1"), x.rest());
        x = ClientCredentials.extract(List.of("--user=alice", "--password=" + PASSWORD), NO_ENV);
        assertEquals(new ClientCredentials("alice", PASSWORD), x.credentials());
        assertEquals(List.of(), x.rest());
    }

    @Test
    void withoutLoginOptionsThereAreNoCredentials() throws UsageException {
        ClientCredentials.Extracted x = ClientCredentials.extract(List.of("-e", "SELECT 1"),
                Map.of(ClientCredentials.PASSWORD_ENV, PASSWORD)::get);
        assertTrue(x.credentials().none());
        assertEquals(List.of("-e", "SELECT 1"), x.rest());
    }

    @Test
    void aUserWithoutPasswordTakesItFromTheEnvironment() throws UsageException {
        ClientCredentials c = ClientCredentials.extract(List.of("--user", "alice"),
                Map.of(ClientCredentials.PASSWORD_ENV, PASSWORD)::get).credentials();
        assertEquals(new ClientCredentials("alice", PASSWORD), c);
        // --password wins over the environment
        c = ClientCredentials.extract(List.of("--user", "alice", "--password", "other"),
                Map.of(ClientCredentials.PASSWORD_ENV, PASSWORD)::get).credentials();
        assertEquals("other", c.password());
    }

    @Test
    void aUserWithNeitherPasswordIsAUsageErrorSayingWhereOneComesFrom() {
        UsageException e = assertThrows(UsageException.class, () -> ClientCredentials.extract(List.of("--user", "alice"), NO_ENV));
        assertEquals("--user alice needs a password: give --password or set TRIBUTARY_PASSWORD", e.getMessage());
    }

    @Test
    void usageErrorsNeverShowThePassword() {
        for (List<String> args : List.of(
                List.of("--password", PASSWORD),
                List.of("--password=" + PASSWORD),
                List.of("--user", "--password", PASSWORD),
                List.of("--user=", "--password", PASSWORD),
                List.of("--password", PASSWORD, "--user"))) {
            UsageException e = assertThrows(UsageException.class, () -> ClientCredentials.extract(args, NO_ENV),
                    String.valueOf(args.size()));
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
