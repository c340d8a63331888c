package dev.tributary.node.transport;

import dev.tributary.cql.lexer.Token;
import dev.tributary.node.coord.TransportSettings;
import dev.tributary.protocol.v1.AuthServiceGrpc;
import dev.tributary.protocol.v1.LoginRequest;
import dev.tributary.protocol.v1.LoginResponse;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.stub.MetadataUtils;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The logins of database links that CONNECT TO a role at their target: a link's calls carry a
 * bearer token the target issued, got by logging in with the link's credentials and kept until a
 * minute before it expires. A link without credentials calls as it always did (a target that
 * authenticates refuses it UNAUTHENTICATED). Thread-safe.
 */
public final class LinkLogins {
    private static final long RENEW_BEFORE_MILLIS = 60_000;
    private static final long LOGIN_SECONDS = 30;

    private record Key(String link, String user, String endpoint) {
    }

    private record Token(String value, long expiresAtMillis) {
    }

    private final Map<Key, Token> tokens = new ConcurrentHashMap<>();
    private final LongSupplier clock;

    public LinkLogins(LongSupplier clock) {
        this.clock = clock;
    }

    /** The channel to a link's endpoint, its calls carrying the link's token there when the link has credentials. */
    public Channel channel(TransportSettings.Link link, String endpoint, ManagedChannel channel) {
        if (!link.credentialed()) {
            return channel;
        }
        Key key = new Key(link.name(), link.user(), endpoint);
        Token t = tokens.get(key);
        if (t == null || clock.getAsLong() >= t.expiresAtMillis() - RENEW_BEFORE_MILLIS) {
            LoginResponse r = AuthServiceGrpc.newBlockingStub(channel).withDeadlineAfter(LOGIN_SECONDS, TimeUnit.SECONDS)
                    .login(LoginRequest.newBuilder().setRole(link.user()).setPassword(link.password()).build());
            t = new Token(r.getToken(), r.getExpiresAtMillis());
            tokens.put(key, t);
        }
        if (t.value().isEmpty()) {
            return channel; // the target does not authenticate
        }
        return ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(
                dev.tributary.node.net.BearerToken.headers(t.value())));
    }

    /** Forgets a link's tokens (its target refused one: the next call logs in again). */
    public void forget(TransportSettings.Link link) {
        tokens.keySet().removeIf(k -> k.link().equals(link.name()));
    }
}
