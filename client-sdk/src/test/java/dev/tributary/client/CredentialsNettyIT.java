package dev.tributary.client;

import static dev.tributary.client.TestNode.error;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.errors.AuthenticationException;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.LoginRequest;
import dev.tributary.protocol.v1.LoginResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Builder.credentials on the client's own Netty channels. */
@Timeout(30)
class CredentialsNettyIT {
    private static final String PASSWORD = "s3cret-Pa55word";
    private TestNode node;

    @BeforeEach
    void start() {
        node = TestNode.startNetty();
        node.onLogin = r -> LoginResponse.newBuilder().setToken("tok").setRole(r.getRole())
                .setExpiresAtMillis(System.currentTimeMillis() + 3_600_000).build();
    }

    @AfterEach
    void stop() {
        node.close();
    }

    private TributaryClient.Builder builder(String... endpoints) {
        return TributaryClient.builder().endpoints(endpoints).requestTimeout(Duration.ofSeconds(5)).tokenAware(false);
    }

    private String live() {
        return "127.0.0.1:" + node.port();
    }

    @Test
    void callsCarryTheTokenAndSessionsRunAsTheRole() {
        try (TributaryClient c = builder(live()).credentials("alice", PASSWORD).build()) {
            c.execute("SELECT 1");
            assertEquals(List.of("Bearer tok"), node.authorizations("Execute"));
            assertEquals("alice", node.requestsOf(ExecuteRequest.class).get(0).getSession().getUsername());
            assertEquals(List.of(LoginRequest.newBuilder().setRole("alice").setPassword(PASSWORD).build()),
                    node.requestsOf(LoginRequest.class));
        }
    }

    @Test
    void anExplicitUsernameStillWins() {
        try (TributaryClient c = builder(live()).username("etl").credentials("alice", PASSWORD).build()) {
            c.execute("SELECT 1");
            assertEquals("etl", node.requestsOf(ExecuteRequest.class).get(0).getSession().getUsername());
        }
    }

    @Test
    void theDialersChannelsCarryTheTokenToo() {
        try (TributaryClient c = builder(live()).credentials("alice", PASSWORD).build()) {
            ManagedChannel ch = c.dialer().apply(live()); // a ChangeConsumer's per-node channel, or a discovered node's
            try {
                CqlServiceGrpc.newBlockingStub(ch).withDeadlineAfter(5, TimeUnit.SECONDS).execute(ExecuteRequest.getDefaultInstance());
            } finally {
                ch.shutdownNow();
            }
            assertEquals(List.of("Bearer tok"), node.authorizations("Execute"));
        }
    }

    @Test
    void theLoginFailsOverFromANodeThatIsDown() {
        try (TributaryClient c = builder("127.0.0.1:1", live()).failoverWindow(Duration.ZERO)
                .credentials("alice", PASSWORD).build()) {
            c.execute("SELECT 1");
            assertEquals(List.of("Bearer tok"), node.authorizations("Execute"));
        }
    }

    @Test
    void aRefusedLoginIsAnAuthenticationErrorOfTheFirstRequest() {
        node.onLogin = r -> {
            throw error(Status.Code.UNAUTHENTICATED, "UNAUTHENTICATED", "Provided username alice and/or password are incorrect");
        };
        try (TributaryClient c = builder(live()).credentials("alice", PASSWORD).build()) {
            AuthenticationException e = assertThrows(AuthenticationException.class, () -> c.execute("SELECT 1"));
            assertEquals("UNAUTHENTICATED", e.code());
            assertEquals("Provided username alice and/or password are incorrect", e.getMessage());
            assertFalse(e.toString().contains(PASSWORD), e.toString());
            assertTrue(node.authorizations("Execute").isEmpty());
        }
    }

    @Test
    void withoutCredentialsNothingChanges() {
        try (TributaryClient c = builder(live()).build()) {
            c.execute("SELECT 1");
            assertEquals(java.util.Collections.singletonList(null), node.authorizations("Execute"));
            assertTrue(node.authorizations("Login").isEmpty());
            assertEquals(TributaryClient.DEFAULT_USERNAME, node.requestsOf(ExecuteRequest.class).get(0).getSession().getUsername());
        }
    }
}
