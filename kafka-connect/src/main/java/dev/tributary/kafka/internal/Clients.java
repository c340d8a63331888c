package dev.tributary.kafka.internal;

import dev.tributary.client.TributaryClient;
import dev.tributary.kafka.TributaryConnectorConfig;
import java.nio.file.Path;

/** The SDK client a connector or task reaches the cluster with, from its settings. */
public final class Clients {
    private Clients() {
    }

    public static TributaryClient build(TributaryConnectorConfig config) {
        TributaryClient.Builder b = TributaryClient.builder().endpoints(config.endpoints())
                .requestTimeout(config.requestTimeout());
        if (config.tlsCa() != null) {
            b.tls(Path.of(config.tlsCa()));
        }
        if (config.tlsCert() != null) {
            b.tlsClientCertificate(Path.of(config.tlsCert()), Path.of(config.tlsKey()));
        }
        if (config.user() != null) {
            b.credentials(config.user(), config.password() == null ? "" : config.password());
        }
        return b.build();
    }
}
