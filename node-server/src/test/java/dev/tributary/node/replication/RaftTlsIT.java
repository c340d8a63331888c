package dev.tributary.node.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import dev.tributary.client.TributaryClient;
import dev.tributary.node.NodeConfig;
import dev.tributary.node.ReplicatedNode;
import dev.tributary.node.TestNodes;
import dev.tributary.node.kit.History;
import dev.tributary.node.kit.ReplicaChecker;
import dev.tributary.node.kit.ReplicatedNodes;
import dev.tributary.node.kit.Security;
import dev.tributary.node.kit.TestCertificates;
import dev.tributary.node.kit.UniqueWriters;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * RELIABILITY X1 between real replicated nodes (not {@code RaftHost} alone): three nodes with TLS
 * on every port, Raft included, take writes at replication factor 3; a fourth whose certificate
 * another CA signed cannot join a group, the handshake that refused it is in the log, and it never
 * becomes a member: no node runs its instance, so its tokens never enter the ring.
 */
@Tag("integration")
@Timeout(300)
class RaftTlsIT {
    @TempDir
    Path dir;

    @Test
    @DisplayName("X1: three nodes with TLS (Raft too) replicate writes at R 3; a node whose certificate another CA signed "
            + "is refused at the Raft handshake, its group elects no leader on it, it never becomes a member, and the cluster writes on")
    void raftOverTlsRefusesAForeignCertificate() throws Exception {
        Security tls = Security.TLS_AND_PASSWORD;
        try (ReplicatedNodes cluster = new ReplicatedNodes(dir, "1500ms", 3, tls)) {
            for (String name : List.of("n1", "n2", "n3")) {
                cluster.start(name);
            }
            Set<String> three = new TreeSet<>(cluster.nodes.values().stream().map(ReplicatedNode::hostId).toList());
            tls.assertEnforcedAt(cluster.nodes.get("n1").home().endpoint());
            try (TributaryClient client = tls.client(TributaryClient.builder().endpoints(cluster.endpoints()), dir).build()) {
                cluster.createTable(client, "(pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
                // every node's group has all three as replicas: each write is replicated over TLS twice
                for (ReplicatedNode n : cluster.nodes.values()) {
                    TestNodes.await(() -> n.members(n.hostId()).equals(three), Duration.ofSeconds(30),
                            () -> "group " + n.hostId() + " at three replicas: " + n.members(n.hostId()));
                }
                UniqueWriters writers = UniqueWriters.pkV();
                writers.start(1, client);
                writers.start(2, client);
                writers.awaitMore(100);

                TestCertificates other = TestCertificates.ca(dir.resolve("other-ca"), "other-ca");
                TestCertificates.Issued foreign = other.issue("node4");
                ListAppender<ILoggingEvent> log = captureLogs();
                try {
                    // it trusts the cluster's CA, so only its own certificate is wrong
                    NodeConfig c4 = NodeConfig.parse(TestNodes.concat(tls.nodeOptions(dir), "--tls-cert",
                            foreign.certFile().toString(), "--tls-key", foreign.keyFile().toString(), "--data-dir",
                            dir.resolve("n4").toString(), "--listen", "127.0.0.1:0", "--native-listen", "127.0.0.1:0",
                            "--zookeeper", zkOf(cluster), "--ring-delay", "1500ms", "--num-tokens", "8", "--name", "n4",
                            "--replication", "raft", "--replication-factor", "3"));
                    IllegalStateException refused = assertThrows(IllegalStateException.class,
                            () -> ReplicatedNode.start(c4, Duration.ofSeconds(20)).close(), "a node with a foreign certificate");
                    System.out.println("RaftTlsIT: n4 refused: " + refused.getMessage());
                    assertTrue(refused.getMessage().contains("elected no leader here"), refused.getMessage());
                    String id4 = java.nio.file.Files.readString(dir.resolve("n4").resolve("host-id")).trim();
                    List<String> handshakes = handshakeFailures(log, id4);
                    System.out.println("RaftTlsIT: " + handshakes.size() + " refused handshakes with n4 logged, e.g. "
                            + handshakes.stream().findFirst().orElse("none"));
                    // the reason, where an operator sees it: at WARN (the node's logback keeps Ratis at WARN)
                    assertTrue(!handshakes.isEmpty(), "a TLS node's refusal of n4's certificate (PKIX) logged at WARN or above");
                    // n4's group is placed on two of the three, which elect a leader without it; that
                    // leader must not run n4's instance (it would put n4 in the ring), and says why
                    TestNodes.await(() -> !declined(log, id4).isEmpty(), Duration.ofSeconds(30),
                            () -> "a leader of n4's group declining to run its instance, logged at WARN");
                    System.out.println("RaftTlsIT: " + declined(log, id4).get(0));
                } finally {
                    stopCapture(log);
                }
                for (ReplicatedNode n : cluster.nodes.values()) {
                    System.out.println("RaftTlsIT: " + n.hostId() + " runs instances " + n.instances().keySet() + ", groups "
                            + n.replicaGroups());
                    assertEquals(Set.of(n.hostId()), n.instances().keySet(), "the instances " + n.hostId() + " runs");
                }
                // system_views.nodes lists every member of the ring, a DOWN one too (system.peers leaves it out)
                Set<String> members = new TreeSet<>(client.execute("SELECT host_id FROM system_views.nodes").all().stream()
                        .map(r -> String.valueOf(r.getObject("host_id"))).toList());
                System.out.println("RaftTlsIT: members " + members);
                assertEquals(three, members, "the ring's members: never n4, which no node admitted");
                writers.awaitMore(100); // the cluster writes on
                writers.close();
                writers.history.verifyRead("the table", History.keys(client, "SELECT pk FROM ks.t"), Set.of(-1));
                writers.history.verifyUnknownAtMost(0); // no node failed: no write in doubt
                System.out.println("RaftTlsIT: " + writers.history.summary());
                for (ReplicatedNode n : cluster.nodes.values()) {
                    assertEquals(three, n.members(n.hostId()), "group " + n.hostId() + " still the three TLS nodes");
                }
            }
            ReplicaChecker.awaitAllReplicasAgree(cluster.nodes.values());
        }
    }

    /** WARN events of a leader of group {@code group} declining to run its instance. */
    private static List<String> declined(ListAppender<ILoggingEvent> a, String group) {
        synchronized (a) { // AppenderBase appends under the appender's lock
            return a.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                    .map(ILoggingEvent::getFormattedMessage)
                    .filter(m -> m.contains("replica group " + group) && m.contains("never run its instance")).toList();
        }
    }

    private static String zkOf(ReplicatedNodes cluster) {
        return cluster.zookeeper();
    }

    /** Every log event at INFO and above from the Raft, gRPC and Netty loggers, which the test's logback keeps quiet. */
    private static ListAppender<ILoggingEvent> captureLogs() {
        ListAppender<ILoggingEvent> a = new ListAppender<>();
        a.start();
        for (String name : List.of("org.apache.ratis", "io.grpc", "io.netty", "dev.tributary")) {
            Logger l = (Logger) LoggerFactory.getLogger(name);
            l.setLevel(Level.INFO);
            l.addAppender(a);
        }
        return a;
    }

    private static void stopCapture(ListAppender<ILoggingEvent> a) {
        for (String name : List.of("org.apache.ratis", "io.grpc", "io.netty", "dev.tributary")) {
            Logger l = (Logger) LoggerFactory.getLogger(name);
            l.detachAppender(a);
            l.setLevel(null);
        }
        a.stop();
    }

    /**
     * The events logged at WARN or above whose message names node {@code hostId} and whose causes
     * hold a TLS handshake refused because no trusted CA signed the certificate (PKIX).
     */
    private static List<String> handshakeFailures(ListAppender<ILoggingEvent> a, String hostId) {
        List<String> out = new ArrayList<>();
        synchronized (a) { // AppenderBase appends under the appender's lock
            for (ILoggingEvent e : a.list) {
                if (!e.getLevel().isGreaterOrEqual(Level.WARN) || !e.getFormattedMessage().contains(hostId)) {
                    continue;
                }
                // Ratis puts the exception, its causes included, in the message; others attach it
                StringBuilder text = new StringBuilder(e.getLevel() + " " + e.getLoggerName() + ": " + e.getFormattedMessage());
                for (IThrowableProxy t = e.getThrowableProxy(); t != null; t = t.getCause()) {
                    text.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
                }
                boolean handshake = text.indexOf("javax.net.ssl.SSLHandshakeException") >= 0;
                boolean pkix = text.indexOf("PKIX path building failed") >= 0;
                if (handshake && pkix) {
                    out.add(text.toString().replace('\n', ' '));
                }
            }
        }
        return out;
    }
}
