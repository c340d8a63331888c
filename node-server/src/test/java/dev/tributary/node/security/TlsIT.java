package dev.tributary.node.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.TributaryException;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.History;
import dev.tributary.node.kit.InProcessCluster;
import dev.tributary.node.kit.TestCertificates;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY X1: TLS on every port a node serves and dials. With a client CA, a client must
 * present a certificate it signed; plaintext, an unknown CA, a missing or an expired client
 * certificate are refused at the handshake, and the node goes on serving the others.
 */
@Timeout(120)
class TlsIT {
    private static final Duration RING_DELAY = Duration.ofMillis(300);

    private static TributaryClient client(TributaryNode n, TestCertificates trust, TestCertificates.Issued me) {
        // no failover window: a refused handshake is not a node that is about to come back
        TributaryClient.Builder b = TributaryClient.builder().endpoints(n.endpoint()).requestTimeout(Duration.ofSeconds(10))
                .failoverWindow(Duration.ZERO);
        if (trust != null) {
            b.tls(trust.authority().certFile());
        }
        if (me != null) {
            b.tlsClientCertificate(me.certFile(), me.keyFile());
        }
        return b.build();
    }

    private static String[] tlsArgs(TestCertificates.Issued node, TestCertificates ca) {
        return new String[] {"--tls-cert", node.certFile().toString(), "--tls-key", node.keyFile().toString(),
                "--tls-client-ca", ca.authority().certFile().toString()};
    }

    @Test
    @DisplayName("X1: mTLS: a client with the CA and a certificate it signed works; plaintext, an unknown CA, no client "
            + "certificate, an expired one and one of another CA are refused at the TLS handshake, each for its reason, "
            + "and none of their writes is executed; the CQL native port speaks TLS too")
    void mutualTls(@TempDir Path dir) throws Exception {
        TestCertificates ca = TestCertificates.ca(dir.resolve("pki"), "tributary-ca");
        TestCertificates other = TestCertificates.ca(dir.resolve("other"), "other-ca");
        TestCertificates.Issued nodeCert = ca.issue("node");
        TestCertificates.Issued clientCert = ca.issue("client");
        TestCertificates.Issued expired = ca.expired("expired");
        TestCertificates.Issued stranger = other.issue("stranger");
        String[] args = tlsArgs(nodeCert, ca);
        String[] all = new String[args.length + 2];
        all[0] = "--zookeeper";
        all[1] = "embedded:" + TestNodes.freePort();
        System.arraycopy(args, 0, all, 2, args.length);
        try (TributaryNode n = TributaryNode.start(TestNodes.config(dir.resolve("n1"), RING_DELAY, all));
                TributaryClient good = client(n, ca, clientCert)) {
            TestNodes.await(() -> System.currentTimeMillis() >= n.generations().latest().orElseThrow().timestampMillis(),
                    Duration.ofSeconds(10), "the first generation");
            good.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            good.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
            good.execute("INSERT INTO ks.t (pk, v) VALUES (1, 'secret')");
            assertEquals("secret", good.execute("SELECT v FROM ks.t WHERE pk = 1").one().getString("v"));

            // each refused client tries a write of a key of its own: the handshake must fail before anything runs
            record Refused(String who, TributaryClient client, Class<? extends Throwable> type, String says) {
            }
            List<Refused> refusedClients = List.of(
                    // the node drops a connection that does not open with a ClientHello: gRPC sees the socket closed
                    new Refused("plaintext", client(n, null, null), io.grpc.StatusRuntimeException.class,
                            "UNAVAILABLE: Network closed for unknown reason"),
                    // the client's own check of the node's certificate fails
                    new Refused("trusting another CA", client(n, other, stranger), java.security.cert.CertificateException.class,
                            "PKIX path building failed"),
                    // the node's alerts, which TLS 1.3 delivers to the client after its side of the handshake
                    new Refused("no client certificate", client(n, ca, null), SSLException.class, "ALERT_CERTIFICATE_REQUIRED"),
                    new Refused("an expired client certificate", client(n, ca, expired), SSLException.class,
                            "ALERT_CERTIFICATE_EXPIRED"),
                    // the node asks for a certificate of its CA (certificate_authorities); the client has none to send
                    new Refused("a certificate of another CA", client(n, ca, stranger), SSLException.class,
                            "ALERT_CERTIFICATE_REQUIRED"));
            int key = 100;
            for (Refused r : refusedClients) {
                int pk = key++;
                try (TributaryClient refused = r.client()) {
                    TributaryException e = assertThrows(TributaryException.class,
                            () -> refused.execute("INSERT INTO ks.t (pk, v) VALUES (?, 'refused')", pk), r.who());
                    assertRefusedAtHandshake(r.who(), e, r.type(), r.says());
                    if (r.type() == java.security.cert.CertificateException.class) {
                        assertRefusedAtHandshake(r.who(), e, SSLHandshakeException.class, ""); // in the handshake, not after it
                    }
                }
            }
            assertEquals(List.of(1), History.keys(good, "SELECT pk FROM ks.t"), "no refused client's write was executed");
            assertEquals("secret", good.execute("SELECT v FROM ks.t WHERE pk = 1").one().getString("v"), "the node serves on");

            // the native port: a TLS handshake with the client certificate, then OPTIONS answered with SUPPORTED
            String[] hp = n.nativeEndpoint().split(":");
            try (SSLSocket s = (SSLSocket) ca.sslContext(clientCert).getSocketFactory().createSocket(hp[0], Integer.parseInt(hp[1]))) {
                s.startHandshake();
                assertEquals(0x06, options(s), "SUPPORTED");
            }
            try (SSLSocket s = (SSLSocket) ca.sslContext(expired).getSocketFactory().createSocket(hp[0], Integer.parseInt(hp[1]))) {
                IOException e = assertThrows(IOException.class, () -> {
                    s.startHandshake();
                    options(s); // TLS 1.3 may report the refusal only at the first read
                });
                assertRefusedAtHandshake("the native port, an expired certificate", e, SSLException.class, "certificate_expired");
            }
            try (Socket plain = new Socket(hp[0], Integer.parseInt(hp[1]))) {
                plain.setSoTimeout(5000);
                assertThrows(IOException.class, () -> {
                    int opcode = options(plain);
                    throw new AssertionError("a plaintext OPTIONS was answered with opcode " + opcode);
                });
            }
        }
    }

    /**
     * Fails unless {@code e}'s cause chain holds a {@code type} whose message says {@code says}:
     * the TLS handshake, not something after it, refused the client.
     */
    static void assertRefusedAtHandshake(String who, Throwable e, Class<? extends Throwable> type, String says) {
        StringBuilder chain = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            chain.append("\n  ").append(t.getClass().getName()).append(": ").append(t.getMessage());
            if (type.isInstance(t) && String.valueOf(t.getMessage()).contains(says)) {
                return;
            }
        }
        throw new AssertionError(who + ": no " + type.getSimpleName() + " saying \"" + says + "\" in" + chain);
    }

    /** Sends a v4 OPTIONS frame and returns the opcode of the answer. */
    private static int options(Socket s) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(new byte[] {0x04, 0, 0, 1, 0x05, 0, 0, 0, 0});
        out.flush();
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] header = new byte[9];
        in.readFully(header);
        return header[4];
    }

    @Test
    @DisplayName("X1: two nodes with TLS and a client CA: a write forwarded to its owner and a read gathered from both "
            + "go over peer channels that present the node's certificate")
    void peersDialWithTls(@TempDir Path dir) throws Exception {
        TestCertificates ca = TestCertificates.ca(dir.resolve("pki"), "tributary-ca");
        TestCertificates.Issued nodeCert = ca.issue("node");
        TestCertificates.Issued clientCert = ca.issue("client");
        try (InProcessCluster cluster = InProcessCluster.builder(dir).ringDelay(RING_DELAY).options(tlsArgs(nodeCert, ca))
                .build()) {
            TributaryNode n1 = cluster.start("n1");
            TributaryNode n2 = cluster.start("n2");
            try (TributaryClient one = client(n1, ca, clientCert)) {
                TestNodes.awaitGenerationInForce(n1);
                one.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
                one.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v int)");
                for (int i = 0; i < 100; i++) {
                    one.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, i); // about half belong to node 2
                }
                assertEquals(100L, one.execute("SELECT count(*) FROM ks.t").one().getLong(0), "gathered from both nodes");
                try (TributaryClient two = client(n2, ca, clientCert)) {
                    assertTrue(two.execute("SELECT count(*) FROM ks.t").one().getLong(0) == 100L);
                }
            }
        }
    }
}
