package dev.tributary.deploy;

import dev.tributary.client.TributaryClient;
import java.time.Duration;
import java.util.List;

/**
 * How the CLI connects: the real one builds a {@link TributaryClient} over Netty channels to the
 * endpoints; tests pass one over an in-process channel.
 */
@FunctionalInterface
public interface ClientFactory {
    TributaryClient connect(List<String> endpoints, Duration requestTimeout, String username);

    /** Plaintext gRPC to each endpoint. */
    static ClientFactory netty() {
        return netty(ClientTls.NONE);
    }

    /** gRPC to each endpoint, with TLS when {@code tls} names a CA or a client certificate. */
    static ClientFactory netty(ClientTls tls) {
        return netty(tls, ClientCredentials.NONE);
    }

    /**
     * gRPC to each endpoint, with TLS as {@link #netty(ClientTls)} and, when {@code credentials}
     * names a user, logged in as that role; the session then runs as the role, not as the
     * command's default username.
     */
    static ClientFactory netty(ClientTls tls, ClientCredentials credentials) {
        return (endpoints, timeout, username) -> {
            TributaryClient.Builder b = TributaryClient.builder().endpoints(endpoints).requestTimeout(timeout);
            if (credentials.none()) {
                b.username(username);
            } else {
                b.credentials(credentials.user(), credentials.password());
            }
            if (tls.ca() != null) {
                b.tls(tls.ca());
            }
            if (tls.cert() != null) {
                b.tlsClientCertificate(tls.cert(), tls.key());
            }
            return b.build();
        };
    }
}
