package dev.tributary.node.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.coord.ZooKeeperClients;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.kit.TestCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Issue 19 item 1: TLS to ZooKeeper with --zookeeper-tls (the embedded server then serves TLS only). */
@Timeout(120)
class ZooKeeperTlsIT {
    @Test
    @DisplayName("a node with --zookeeper-tls runs its cluster over a TLS ZooKeeper; a client with a certificate the CA "
            + "signed reads the cluster's znodes, a plaintext client and one with a stranger's certificate never connect")
    void tlsToZooKeeper(@TempDir Path dir) throws Exception {
        TestCertificates ca = TestCertificates.ca(dir.resolve("pki"), "tributary-ca");
        TestCertificates other = TestCertificates.ca(dir.resolve("other"), "other-ca");
        TestCertificates.Issued node = ca.issue("node");
        TestCertificates.Issued operator = ca.issue("operator");
        TestCertificates.Issued stranger = other.issue("stranger");
        int zk = TestNodes.freePort();
        try (TributaryNode n = TestNodes.startOperating(dir.resolve("n1"), "--zookeeper", "embedded:" + zk, "--cluster", "zt",
                "--tls-cert", node.certFile().toString(), "--tls-key", node.keyFile().toString(),
                "--tls-client-ca", ca.authority().certFile().toString(), "--zookeeper-tls", "true");
                TributaryClient c = TributaryClient.builder().endpoints(n.endpoint()).tls(ca.authority().certFile())
                        .tlsClientCertificate(operator.certFile(), operator.keyFile()).build()) {
            c.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            c.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
            c.execute("INSERT INTO ks.t (pk, v) VALUES (1, 1)");
            assertEquals(1L, c.execute("SELECT count(*) FROM ks.t").one().getLong(0));

            String connect = "127.0.0.1:" + zk;
            ZooKeeperClients.Access trusted = new ZooKeeperClients.Access(Optional.empty(), Optional.of(ZooKeeperClients.Tls.of(
                    operator.certFile(), operator.keyFile(), ca.authority().certFile(), dir.resolve("operator"))));
            try (CuratorFramework ok = ZooKeeperClients.connect(connect, Duration.ofSeconds(20), trusted)) {
                assertTrue(ok.getChildren().forPath("/tributary/zt").contains("schema"));
            }
            ZooKeeperClients.Access strange = new ZooKeeperClients.Access(Optional.empty(), Optional.of(ZooKeeperClients.Tls.of(
                    stranger.certFile(), stranger.keyFile(), ca.authority().certFile(), dir.resolve("stranger"))));
            for (ZooKeeperClients.Access refused : new ZooKeeperClients.Access[] {ZooKeeperClients.Access.OPEN, strange}) {
                TributaryException e = assertThrows(TributaryException.class,
                        () -> ZooKeeperClients.connect(connect, Duration.ofSeconds(3), refused).close());
                assertEquals(ErrorCode.UNAVAILABLE, e.code());
            }
            c.execute("INSERT INTO ks.t (pk, v) VALUES (2, 2)");
            assertEquals(2L, c.execute("SELECT count(*) FROM ks.t").one().getLong(0));
        }
    }
}
