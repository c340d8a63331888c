package dev.tributary.node.kit;

import dev.tributary.client.TributaryClient;
import dev.tributary.node.NodeConfig;
import dev.tributary.node.TestNodes;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.AbstractStub;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How a fault test's cluster is secured. Each fault test written for the default run (OPEN:
 * plaintext, anyone may do anything) runs once more with TLS on every port (mutual, one CA) and
 * the password authenticator: what breaks only with security on — a peer call without the
 * secret, a forwarded write without its role, a Raft or peer channel that does not dial TLS —
 * shows there. Nodes, clients and raw connections are configured from the same files.
 */
public enum Security {
    OPEN, TLS_AND_PASSWORD;

    private static final String SUPERUSER = "cassandra";

    /**
     * The options of every node of a test's cluster; the certificates and the superuser's password
     * file are made under {@code dir/security} on the first call and the same afterwards.
     */
    public String[] nodeOptions(Path dir) {
        if (this == OPEN) {
            return new String[0];
        }
        Files f = Files.in(dir.resolve("security"));
        return TestNodes.concat(TestNodes.passwordAuthenticator(dir.resolve("security")), "--tls-cert", f.nodeCert().toString(),
                "--tls-key", f.nodeKey().toString(), "--tls-client-ca", f.ca().toString());
    }

    /** A client of such a cluster: it trusts the CA, presents a certificate it signed, and logs in as the superuser. */
    public TributaryClient.Builder client(TributaryClient.Builder b, Path dir) {
        if (this == OPEN) {
            return b;
        }
        Files f = Files.in(dir.resolve("security"));
        return b.tls(f.ca()).tlsClientCertificate(f.clientCert(), f.clientKey())
                .credentials(SUPERUSER, TestNodes.SUPERUSER_PASSWORD);
    }

    /**
     * Fails unless a node at {@code endpoint} secured so refuses what an open one answers: a
     * plaintext call without a login. The secured run then proves the test ran with security on.
     */
    public void assertEnforcedAt(String endpoint) {
        if (this == OPEN) {
            return;
        }
        ManagedChannel ch = ManagedChannelBuilder.forTarget(endpoint).usePlaintext().build();
        try {
            io.grpc.StatusRuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(io.grpc.StatusRuntimeException.class,
                    () -> dev.tributary.protocol.v1.CqlServiceGrpc.newBlockingStub(ch).withDeadlineAfter(10,
                            java.util.concurrent.TimeUnit.SECONDS).execute(dev.tributary.protocol.v1.ExecuteRequest.newBuilder()
                            .setStatement("SELECT cluster_name FROM system.local").build()), "a plaintext call to " + endpoint);
            org.junit.jupiter.api.Assertions.assertEquals(io.grpc.Status.Code.UNAVAILABLE, e.getStatus().getCode(),
                    "refused at the TLS handshake: " + e.getStatus());
        } finally {
            ch.shutdownNow();
        }
    }

    /** The files of a test's cluster: one CA, one certificate (and key) every node presents, one for clients. */
    private record Files(Path ca, Path nodeCert, Path nodeKey, Path clientCert, Path clientKey) {
        static synchronized Files in(Path dir) {
            try {
                if (!java.nio.file.Files.exists(dir.resolve("made"))) {
                    TestCertificates ca = TestCertificates.ca(dir, "fault-test-ca");
                    ca.issue("node");
                    ca.issue("client");
                    java.nio.file.Files.writeString(dir.resolve("made"), "");
                }
            } catch (Exception e) {
                throw new IllegalStateException("cannot make the test certificates in " + dir, e);
            }
            return new Files(dir.resolve("fault-test-ca.crt"), dir.resolve("node.crt"), dir.resolve("node.key"),
                    dir.resolve("client.crt"), dir.resolve("client.key"));
        }
    }

    /**
     * A raw gRPC channel to a node configured as {@code config} is, and the header its calls carry:
     * TLS presenting the node's own certificate (its CA signed it) when the node serves TLS, else
     * plaintext; a bearer token of the superuser when the node was given its password file, else
     * none.
     */
    public record Connection(ManagedChannel channel, Metadata headers) {
        public static Connection to(String endpoint, NodeConfig config) {
            ManagedChannel ch;
            if (!config.tls()) {
                ch = ManagedChannelBuilder.forTarget(endpoint).usePlaintext().build();
            } else {
                try {
                    ch = NettyChannelBuilder.forTarget(endpoint).sslContext(GrpcSslContexts.forClient()
                            .trustManager((config.tlsClientCa() != null ? config.tlsClientCa() : config.tlsCert()).toFile())
                            .keyManager(config.tlsCert().toFile(), config.tlsKey().toFile()).build()).build();
                } catch (javax.net.ssl.SSLException e) {
                    throw new IllegalStateException("cannot read the TLS files of " + endpoint, e);
                }
            }
            Metadata md = new Metadata();
            if (config.superuserPasswordFile() != null) {
                String password = dev.tributary.node.auth.Passwords.readFirstLine(config.superuserPasswordFile());
                String token = dev.tributary.protocol.v1.AuthServiceGrpc.newBlockingStub(ch).withDeadlineAfter(30,
                        java.util.concurrent.TimeUnit.SECONDS).login(dev.tributary.protocol.v1.LoginRequest.newBuilder()
                        .setRole(SUPERUSER).setPassword(password).build()).getToken();
                md.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
            }
            return new Connection(ch, md);
        }

        /** The stub with this connection's header on every call. */
        public <S extends AbstractStub<S>> S attach(S stub) {
            return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
        }
    }
}
