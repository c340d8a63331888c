package dev.tributary.client.internal;

import dev.tributary.protocol.v1.AuthServiceGrpc;
import dev.tributary.protocol.v1.LoginRequest;
import dev.tributary.protocol.v1.LoginResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Deadline;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A role's credentials for a node started with {@code --authenticator password}: logs in with
 * {@code AuthService.Login} and puts {@code authorization: Bearer <token>} on every other call of
 * the channels it intercepts. One instance serves all of a client's channels, since the cluster
 * signs the token and any node accepts it.
 *
 * <p>The token is fetched when a call needs one, on that call's channel: a node that is down
 * fails the login UNAVAILABLE, which fails the call UNAVAILABLE, so the client's failover tries
 * (and logs in through) the next node. It is fetched again within {@link #RENEW_BEFORE} of its
 * expiry and after a call answered UNAUTHENTICATED (that call fails as usual). A login refused
 * fails the call with the login's status and trailers, so it surfaces as the node's
 * UNAUTHENTICATED error. Thread-safe.
 */
public final class TokenCredentials implements ClientInterceptor {
    /** The header the token travels in. */
    public static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    /** How long before its expiry a token is replaced, so a call does not reach the node with one that just ran out. */
    public static final Duration RENEW_BEFORE = Duration.ofSeconds(30);
    /** How long a login may take when the call it precedes has no deadline (a change stream). */
    static final Duration LOGIN_TIMEOUT = Duration.ofSeconds(30);

    private static final String LOGIN_METHOD = AuthServiceGrpc.getLoginMethod().getFullMethodName();

    private final String role;
    private final String password;
    private final LongSupplier nowMillis;
    // null until the first login and after the node rejected it; guarded by this
    private Token token;

    private record Token(String value, long expiresAtMillis) {
        @Override
        public String toString() {
            return "Token[expiresAtMillis=" + expiresAtMillis + "]";
        }
    }

    public TokenCredentials(String role, String password) {
        this(role, password, System::currentTimeMillis);
    }

    /** @param nowMillis the wall clock in epoch milliseconds, the scale of {@code expires_at_millis} */
    public TokenCredentials(String role, String password, LongSupplier nowMillis) {
        Objects.requireNonNull(role, "role");
        if (role.isBlank()) {
            throw new IllegalArgumentException("the role must not be blank");
        }
        this.role = role;
        this.password = Objects.requireNonNull(password, "password");
        this.nowMillis = Objects.requireNonNull(nowMillis, "nowMillis");
    }

    /** The role these credentials log in as. */
    public String role() {
        return role;
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        if (method.getFullMethodName().equals(LOGIN_METHOD)) {
            return next.newCall(method, options);
        }
        String bearer;
        try {
            bearer = token(next, options.getDeadline());
        } catch (StatusRuntimeException e) {
            return new FailedCall<>(e.getStatus(), e.getTrailers());
        }
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
            @Override
            public void start(Listener<R> listener, Metadata headers) {
                if (!bearer.isEmpty()) {
                    headers.put(AUTHORIZATION, "Bearer " + bearer);
                }
                super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                    @Override
                    public void onClose(Status status, Metadata trailers) {
                        if (status.getCode() == Status.Code.UNAUTHENTICATED) {
                            forget(bearer);
                        }
                        super.onClose(status, trailers);
                    }
                }, headers);
            }
        };
    }

    /**
     * The token to send, logging in on {@code channel} when there is none or it is about to
     * expire. Callers wait for one login rather than each starting their own.
     */
    synchronized String token(Channel channel, Deadline callDeadline) {
        Token t = token;
        if (t == null || expiring(t)) {
            t = login(channel, callDeadline);
            token = t;
        }
        return t.value();
    }

    private boolean expiring(Token t) {
        // 0 comes with the empty token of an allow-all node: nothing to renew
        return t.expiresAtMillis() != 0 && nowMillis.getAsLong() >= t.expiresAtMillis() - RENEW_BEFORE.toMillis();
    }

    private Token login(Channel channel, Deadline callDeadline) {
        Deadline own = Deadline.after(LOGIN_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
        Deadline deadline = callDeadline == null ? own : callDeadline.minimum(own);
        LoginResponse r = AuthServiceGrpc.newBlockingStub(channel).withDeadline(deadline)
                .login(LoginRequest.newBuilder().setRole(role).setPassword(password).build());
        return new Token(r.getToken(), r.getExpiresAtMillis());
    }

    /** Drops {@code rejected} so the next call logs in again; a no-op when another call already did. */
    synchronized void forget(String rejected) {
        if (token != null && token.value().equals(rejected)) {
            token = null;
        }
    }

    @Override
    public String toString() {
        return "TokenCredentials[role=" + role + "]";
    }

    /** A call that never reaches the node: it closes with the login's failure as soon as it starts. */
    private static final class FailedCall<Q, R> extends ClientCall<Q, R> {
        private final Status status;
        private final Metadata trailers;

        FailedCall(Status status, Metadata trailers) {
            this.status = status;
            this.trailers = trailers == null ? new Metadata() : trailers;
        }

        @Override
        public void start(Listener<R> listener, Metadata headers) {
            listener.onClose(status, trailers);
        }

        @Override
        public void request(int numMessages) {
        }

        @Override
        public void cancel(String message, Throwable cause) {
        }

        @Override
        public void halfClose() {
        }

        @Override
        public void sendMessage(Q message) {
        }
    }
}
