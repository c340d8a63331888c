package dev.tributary.client;

import static dev.tributary.client.TestNode.error;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.ListenableFuture;
import dev.tributary.client.errors.AuthenticationException;
import dev.tributary.client.errors.TributaryException;
import dev.tributary.client.internal.ErrorMapper;
import dev.tributary.client.internal.TokenCredentials;
import dev.tributary.protocol.v1.AuthServiceGrpc;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.LoginRequest;
import dev.tributary.protocol.v1.LoginResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The interceptor alone, on in-process channels, with a clock the test moves. */
@Timeout(30)
class TokenCredentialsTest {
    private static final String PASSWORD = "s3cret-Pa55word";
    private static final long TTL_MILLIS = 60_000;

    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);
    private final AtomicInteger issued = new AtomicInteger();
    private TestNode node;
    private TokenCredentials creds;
    private ManagedChannel channel;

    @BeforeEach
    void start() {
        node = TestNode.start("auth");
        node.onLogin = r -> LoginResponse.newBuilder().setToken("t" + issued.incrementAndGet())
                .setExpiresAtMillis(now.get() + TTL_MILLIS).setRole(r.getRole()).build();
        creds = new TokenCredentials("alice", PASSWORD, now::get);
        channel = InProcessChannelBuilder.forName(node.name).intercept(creds).build();
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        node.close();
    }

    private ExecuteResponse execute() {
        return CqlServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
                .execute(ExecuteRequest.newBuilder().setStatement("SELECT 1").build());
    }

    private List<LoginRequest> logins() {
        return node.requestsOf(LoginRequest.class);
    }

    @Test
    void everyCallCarriesTheTokenOfOneLogin() {
        execute();
        execute();
        assertEquals(List.of("Bearer t1", "Bearer t1"), node.authorizations("Execute"));
        assertEquals(List.of(LoginRequest.newBuilder().setRole("alice").setPassword(PASSWORD).build()), logins());
    }

    @Test
    void anEmptyTokenMeansNoHeader() {
        node.onLogin = r -> LoginResponse.getDefaultInstance(); // an allow-all node
        execute();
        now.addAndGet(365L * 24 * 3600 * 1000); // an empty token has no expiry to renew at
        execute();
        assertEquals(java.util.Arrays.asList(null, null), node.authorizations("Execute"));
        assertEquals(1, logins().size());
    }

    @Test
    void theLoginCallItselfCarriesNoHeader() {
        execute();
        LoginResponse r = AuthServiceGrpc.newBlockingStub(channel)
                .login(LoginRequest.newBuilder().setRole("bob").setPassword("x").build());
        assertEquals("t2", r.getToken());
        // the interceptor's own login and the caller's: neither with a header, and no login nested in the caller's
        assertEquals(java.util.Arrays.asList(null, null), node.authorizations("Login"));
        assertEquals(List.of("alice", "bob"), logins().stream().map(LoginRequest::getRole).toList());
    }

    @Test
    void aTokenIsRenewedWithinThirtySecondsOfItsExpiry() {
        execute();
        now.addAndGet(TTL_MILLIS - TokenCredentials.RENEW_BEFORE.toMillis() - 1);
        execute();
        now.addAndGet(1);
        execute();
        execute();
        assertEquals(List.of("Bearer t1", "Bearer t1", "Bearer t2", "Bearer t2"), node.authorizations("Execute"));
        assertEquals(2, logins().size());
    }

    @Test
    void anUnauthenticatedAnswerRenewsTheTokenOnceAndTheCallStillFails() throws Exception {
        CountDownLatch bothArrived = new CountDownLatch(2);
        node.onExecute = r -> {
            bothArrived.countDown();
            await(bothArrived);
            throw error(Status.Code.UNAUTHENTICATED, "UNAUTHENTICATED", "the token has expired");
        };
        // two calls in flight with t1, both rejected: one new login, not two
        CqlServiceGrpc.CqlServiceFutureStub async = CqlServiceGrpc.newFutureStub(channel);
        ListenableFuture<ExecuteResponse> a = async.execute(ExecuteRequest.getDefaultInstance());
        ListenableFuture<ExecuteResponse> b = async.execute(ExecuteRequest.getDefaultInstance());
        for (ListenableFuture<ExecuteResponse> f : List.of(a, b)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS));
            assertEquals(Status.Code.UNAUTHENTICATED, Status.fromThrowable(e.getCause()).getCode());
        }
        node.onExecute = r -> ExecuteResponse.getDefaultInstance();
        execute();
        execute();
        assertEquals(List.of("Bearer t1", "Bearer t1", "Bearer t2", "Bearer t2"), node.authorizations("Execute"));
        assertEquals(2, logins().size());
    }

    @Test
    void aRefusedLoginFailsTheCallWithTheNodesMessageAndNeverThePassword() {
        node.onLogin = r -> {
            throw error(Status.Code.UNAUTHENTICATED, "UNAUTHENTICATED",
                    "Provided username alice and/or password are incorrect");
        };
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, this::execute);
        TributaryException mapped = ErrorMapper.map(e, node.name, null);
        AuthenticationException auth = assertInstanceOf(AuthenticationException.class, mapped);
        assertEquals("UNAUTHENTICATED", auth.code());
        assertEquals("Provided username alice and/or password are incorrect", auth.getMessage());
        for (String shown : List.of(String.valueOf(e), String.valueOf(auth), creds.toString())) {
            assertFalse(shown.contains(PASSWORD), shown);
        }
        assertTrue(node.authorizations("Execute").isEmpty(), "the call never reached the node");
        // nothing is cached from a refusal: the next call asks again
        assertThrows(StatusRuntimeException.class, this::execute);
        assertEquals(2, logins().size());
    }

    @Test
    void aNodeThatIsDownFailsTheCallUnavailableSoTheNextNodeLogsIn() {
        ManagedChannel dead = InProcessChannelBuilder.forName("nobody-" + System.nanoTime()).intercept(creds).build();
        try {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> CqlServiceGrpc.newBlockingStub(dead)
                    .withDeadlineAfter(5, TimeUnit.SECONDS).execute(ExecuteRequest.getDefaultInstance()));
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
            assertTrue(ErrorMapper.isRetryableElsewhere(e));
        } finally {
            dead.shutdownNow();
        }
        execute();
        assertEquals(List.of("Bearer t1"), node.authorizations("Execute"));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
