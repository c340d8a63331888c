package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.write.CommitPipeline.SyncMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(30)
class NodeConfigTest {
    @Test
    @DisplayName("with no options: data in ./data/node, embedded ZooKeeper, 127.0.0.1:9160, batch sync, ring delay 60s (INTERFACE.md 1)")
    void defaults() {
        NodeConfig c = NodeConfig.parse(new String[0]);
        assertEquals(Path.of("./data/node"), c.dataDir());
        assertTrue(c.embeddedZooKeeper());
        assertEquals("embedded", c.zookeeper());
        assertEquals(0, c.embeddedZooKeeperPort(), "a free port");
        assertEquals("127.0.0.1", c.listenHost());
        assertEquals(9160, c.listenPort());
        assertEquals("127.0.0.1:9160", c.listenAddress());
        assertEquals(SyncMode.BATCH, c.commitlogSync());
        assertEquals(Duration.ofSeconds(60), c.ringDelay());
        assertEquals(Duration.ofSeconds(60), c.maxWriteSkew(), "the write skew defaults to the ring delay");
        assertEquals(NodeConfig.DEFAULT_SYNC_PERIOD, c.commitlogSyncPeriod());
        assertEquals(NodeConfig.DEFAULT_NUM_TOKENS, c.numTokens());
        assertEquals(NodeConfig.DEFAULT_CLUSTER, c.clusterName());
        assertFalse(c.restricted());
        assertEquals(NodeConfig.DEFAULT_MAX_VALUE_BYTES, c.maxValueBytes());
        assertEquals(c, NodeConfig.defaults());
        assertTrue(c.servesNative());
        assertEquals("127.0.0.1", c.nativeHost());
        assertEquals(9042, c.nativePort(), "the CQL native protocol's usual port");
    }

    @Test
    @DisplayName("issue 32: a forward waits 10 s by default (--forward-timeout), well under the SDK's 60 s; the option sets it")
    void forwardTimeout() {
        assertEquals(Duration.ofSeconds(10), NodeConfig.defaults().forwardTimeout());
        assertEquals(Duration.ofMillis(2500), NodeConfig.parse(new String[] {"--forward-timeout", "2.5s"}).forwardTimeout());
    }

    @Test
    @DisplayName("--native-listen HOST:PORT moves the CQL native endpoint; none serves none")
    void nativeListen() {
        NodeConfig c = NodeConfig.parse(new String[] {"--native-listen", "0.0.0.0:19042"});
        assertEquals("0.0.0.0", c.nativeHost());
        assertEquals(19042, c.nativePort());
        assertFalse(NodeConfig.parse(new String[] {"--native-listen", "none"}).servesNative());
        assertFalse(NodeConfig.parse(new String[] {"--native-listen=NONE"}).servesNative());
    }

    @Test
    @DisplayName("--metrics-listen: /metrics on 127.0.0.1:9180 by default (ScyllaDB's Prometheus port); none serves none")
    void metricsListen() {
        NodeConfig c = NodeConfig.defaults();
        assertTrue(c.servesMetrics());
        assertEquals("127.0.0.1", c.metricsHost());
        assertEquals(9180, c.metricsPort());
        c = NodeConfig.parse(new String[] {"--metrics-listen", "0.0.0.0:19180"});
        assertEquals("0.0.0.0", c.metricsHost());
        assertEquals(19180, c.metricsPort());
        assertFalse(NodeConfig.parse(new String[] {"--metrics-listen=none"}).servesMetrics());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NodeConfig.parse(new String[] {"--metrics-listen", "9180"}));
        assertTrue(e.getMessage().contains("--metrics-listen must be HOST:PORT or none"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NodeConfig.parse(new String[] {"--metrics-listen", "h:70000"}));
        assertTrue(e.getMessage().contains("--metrics-listen port out of range"), e.getMessage());
    }

    @Test
    void everyOption() {
        NodeConfig c = NodeConfig.parse(new String[] {"--data-dir", "/tmp/n1", "--listen=0.0.0.0:9999", "--zookeeper",
            "zk1:2181,zk2:2182", "--cluster", "prod", "--commitlog-sync", "PERIODIC", "--commitlog-sync-period", "250ms",
            "--num-tokens", "8", "--ring-delay", "3s", "--restricted", "--max-write-skew", "1m", "--max-value-bytes", "1024",
            "--name", "n1"});
        assertEquals(Path.of("/tmp/n1"), c.dataDir());
        assertEquals("0.0.0.0", c.listenHost());
        assertEquals(9999, c.listenPort());
        assertEquals("zk1:2181,zk2:2182", c.zookeeper());
        assertFalse(c.embeddedZooKeeper());
        assertEquals("prod", c.clusterName());
        assertEquals(SyncMode.PERIODIC, c.commitlogSync());
        assertEquals(Duration.ofMillis(250), c.commitlogSyncPeriod());
        assertEquals(8, c.numTokens());
        assertEquals(Duration.ofSeconds(3), c.ringDelay());
        assertTrue(c.restricted());
        assertEquals(Duration.ofMinutes(1), c.maxWriteSkew());
        assertEquals(1024, c.maxValueBytes());
        assertEquals("n1", c.nodeName());
        assertEquals(5555, NodeConfig.parse(new String[] {"--zookeeper", "embedded:5555"}).embeddedZooKeeperPort());
        assertTrue(NodeConfig.parse(new String[] {"--restricted=TRUE"}).restricted());
        assertFalse(NodeConfig.parse(new String[] {"--restricted=false"}).restricted());
    }

    @Test
    @DisplayName("durations are written 500ms, 3s, 1m (and 1.5s, 2h)")
    void durations() {
        assertEquals(Duration.ofMillis(500), NodeConfig.duration("ring-delay", "500ms"));
        assertEquals(Duration.ofSeconds(3), NodeConfig.duration("ring-delay", "3s"));
        assertEquals(Duration.ofMinutes(1), NodeConfig.duration("ring-delay", "1m"));
        assertEquals(Duration.ofMillis(1500), NodeConfig.duration("ring-delay", "1.5s"));
        assertEquals(Duration.ofHours(2), NodeConfig.duration("ring-delay", "2h"));
        assertEquals(Duration.ZERO, NodeConfig.duration("ring-delay", "0s"));
        assertEquals(Duration.ofSeconds(3), NodeConfig.duration("ring-delay", " 3S "));
        assertEquals(Duration.ofMillis(300), NodeConfig.parse(new String[] {"--ring-delay", "300ms"}).ringDelay());
    }

    @Test
    @DisplayName("--config FILE gives options; the command line wins")
    void configFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("node.properties");
        Files.writeString(file, "# a node\ndata-dir=/var/lib/tributary\nring-delay = 2s\nnum-tokens=16\ncluster=fromfile\n");
        NodeConfig c = NodeConfig.parse(new String[] {"--num-tokens", "4", "--config", file.toString(), "--cluster=cli"});
        assertEquals(Path.of("/var/lib/tributary"), c.dataDir());
        assertEquals(Duration.ofSeconds(2), c.ringDelay());
        assertEquals(4, c.numTokens(), "given before --config, still wins");
        assertEquals("cli", c.clusterName());
    }

    @Test
    void badConfigFile(@TempDir Path dir) throws IOException {
        Path unknown = dir.resolve("unknown.properties");
        Files.writeString(unknown, "ring-dealy=2s\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NodeConfig.parse(new String[] {"--config", unknown.toString()}));
        assertTrue(e.getMessage().contains("ring-dealy"), e.getMessage());
        Path badValue = dir.resolve("bad.properties");
        Files.writeString(badValue, "ring-delay=soon\n");
        e = assertThrows(IllegalArgumentException.class, () -> NodeConfig.parse(new String[] {"--config", badValue.toString()}));
        assertTrue(e.getMessage().contains("--ring-delay"), e.getMessage());
        Path missing = dir.resolve("missing.properties");
        e = assertThrows(IllegalArgumentException.class, () -> NodeConfig.parse(new String[] {"--config", missing.toString()}));
        assertTrue(e.getMessage().contains("--config") && e.getMessage().contains("missing.properties"), e.getMessage());
    }

    static Stream<Arguments> badArguments() {
        return Stream.of(
                Arguments.of(new String[] {"--no-such-option", "x"}, "--no-such-option"),
                Arguments.of(new String[] {"stray"}, "stray"),
                Arguments.of(new String[] {"--forward-timeout", "0s"}, "--forward-timeout"),
                Arguments.of(new String[] {"--forward-timeout", "soon"}, "--forward-timeout"),
                Arguments.of(new String[] {"--data-dir"}, "--data-dir"),
                Arguments.of(new String[] {"--data-dir="}, "--data-dir"),
                Arguments.of(new String[] {"--listen", "localhost"}, "--listen"),
                Arguments.of(new String[] {"--listen", ":9160"}, "--listen"),
                Arguments.of(new String[] {"--listen", "127.0.0.1:http"}, "--listen"),
                Arguments.of(new String[] {"--listen", "127.0.0.1:70000"}, "--listen"),
                Arguments.of(new String[] {"--listen", "127.0.0.1:-1"}, "--listen"),
                Arguments.of(new String[] {"--native-listen", "localhost"}, "--native-listen"),
                Arguments.of(new String[] {"--native-listen", "127.0.0.1:70000"}, "--native-listen"),
                Arguments.of(new String[] {"--native-listen", "127.0.0.1:cql"}, "--native-listen"),
                Arguments.of(new String[] {"--zookeeper", "embedded:x"}, "--zookeeper"),
                Arguments.of(new String[] {"--zookeeper", "embedded:99999"}, "--zookeeper"),
                Arguments.of(new String[] {"--zookeeper", "embeddedx"}, "--zookeeper"),
                Arguments.of(new String[] {"--zookeeper", "zk1"}, "--zookeeper"),
                Arguments.of(new String[] {"--zookeeper", "zk1:2181,"}, "--zookeeper"),
                Arguments.of(new String[] {"--zookeeper="}, "--zookeeper"),
                Arguments.of(new String[] {"--cluster="}, "--cluster"),
                Arguments.of(new String[] {"--commitlog-sync", "sometimes"}, "--commitlog-sync"),
                Arguments.of(new String[] {"--commitlog-sync-period", "0ms"}, "--commitlog-sync-period"),
                Arguments.of(new String[] {"--commitlog-sync-period", "-1s"}, "--commitlog-sync-period"),
                Arguments.of(new String[] {"--num-tokens", "eight"}, "--num-tokens"),
                Arguments.of(new String[] {"--num-tokens", "0"}, "--num-tokens"),
                Arguments.of(new String[] {"--num-tokens", "4097"}, "--num-tokens"),
                Arguments.of(new String[] {"--ring-delay", "60"}, "--ring-delay"),
                Arguments.of(new String[] {"--ring-delay", "-5s"}, "--ring-delay"),
                Arguments.of(new String[] {"--ring-delay", "3ds"}, "--ring-delay"),
                Arguments.of(new String[] {"--ring-delay", "1e3s"}, "--ring-delay"),
                Arguments.of(new String[] {"--ring-delay", "NaNs"}, "--ring-delay"),
                Arguments.of(new String[] {"--ring-delay", "99999999999999999999h"}, "--ring-delay"),
                Arguments.of(new String[] {"--ring-delay", "1d"}, "--ring-delay"),
                Arguments.of(new String[] {"--restricted=yes"}, "--restricted"),
                Arguments.of(new String[] {"--max-write-skew", "-1ms"}, "--max-write-skew"),
                Arguments.of(new String[] {"--max-value-bytes", "0"}, "--max-value-bytes"),
                Arguments.of(new String[] {"--max-value-bytes", "2147483647"}, "--max-value-bytes"),
                Arguments.of(new String[] {"--max-value-bytes", "lots"}, "--max-value-bytes"),
                Arguments.of(new String[] {"--name="}, "--name"));
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("badArguments")
    @DisplayName("a bad option or value gives IllegalArgumentException naming the option")
    void badOptionsNameTheOption(String[] args, String named) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeConfig.parse(args));
        assertTrue(e.getMessage().contains(named), "'" + e.getMessage() + "' should name " + named);
    }

    @Test
    void everyOptionIsDescribed() {
        for (String[] o : NodeConfig.OPTIONS) {
            assertEquals(4, o.length, o[0]);
            assertFalse(o[3].isBlank(), o[0]);
        }
    }

    @Test
    @DisplayName("issue 29 item 8: a gRPC or native address that is not a loopback one, with neither TLS nor the password "
            + "authenticator, is refused naming the option and the ways to close it, unless --insecure; loopback "
            + "(the default run, localhost, ::1) stays open and allowed")
    void openNonLoopbackRefused(@TempDir Path dir) throws IOException {
        NodeConfig.defaults().requireClosedUnlessLoopback();
        NodeConfig.parse(new String[] {"--listen", "localhost:9160", "--native-listen", "[::1]:9042"}).requireClosedUnlessLoopback();
        NodeConfig.parse(new String[] {"--listen", "127.0.0.2:9160", "--native-listen", "none"}).requireClosedUnlessLoopback();
        for (String[] open : new String[][] {{"--listen", "0.0.0.0:9160"}, {"--native-listen", "0.0.0.0:9042"},
                {"--listen", "192.0.2.10:9160"}, {"--listen", "no-such-host.invalid:9160"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> NodeConfig.parse(open).requireClosedUnlessLoopback(), String.join(" ", open));
            assertTrue(e.getMessage().startsWith(open[0] + " " + open[1].substring(0, open[1].lastIndexOf(':'))
                    + " is not a loopback address"), e.getMessage());
            assertTrue(e.getMessage().contains("--insecure") && e.getMessage().contains("--authenticator password")
                    && e.getMessage().contains("--tls-cert"), e.getMessage());
            NodeConfig.parse(TestNodes.concat(open, "--insecure")).requireClosedUnlessLoopback();
            NodeConfig.parse(TestNodes.concat(open, "--authenticator", "password")).requireClosedUnlessLoopback();
        }
        Path cert = Files.writeString(dir.resolve("node.crt"), "not checked here");
        Path key = Files.writeString(dir.resolve("node.key"), "not checked here");
        NodeConfig.parse(new String[] {"--listen", "0.0.0.0:9160", "--tls-cert", cert.toString(), "--tls-key", key.toString()})
                .requireClosedUnlessLoopback();
    }

    @Test
    @DisplayName("issue 29 item 8: a refused open node exits 2 with ERROR INVALID_REQUEST before it opens anything")
    void openNonLoopbackExits2(@TempDir Path dir) {
        assertEquals(2, NodeMain.run(new String[] {"--data-dir", dir.resolve("n").toString(), "--listen", "0.0.0.0:0"}));
        assertFalse(Files.exists(dir.resolve("n")), "nothing was created");
    }

    @Test
    @DisplayName("issue 29 item 8: --superuser-password-file needs the password authenticator and a readable file")
    void superuserPasswordFile(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("pw"), "s3cret\nignored\n");
        assertEquals(f, NodeConfig.parse(new String[] {"--authenticator", "password", "--superuser-password-file", f.toString()})
                .superuserPasswordFile());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NodeConfig.parse(new String[] {
                "--superuser-password-file", f.toString()})).getMessage().contains("--authenticator password"));
        assertThrows(IllegalArgumentException.class, () -> NodeConfig.parse(new String[] {"--authenticator", "password",
                "--superuser-password-file", dir.resolve("missing").toString()}));
        assertEquals("s3cret", dev.tributary.node.auth.Passwords.readFirstLine(f));
        Path empty = Files.writeString(dir.resolve("empty"), "\nsecond");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> dev.tributary.node.auth.Passwords.readFirstLine(empty));
        assertTrue(e.getMessage().contains("empty"), e.getMessage());
        Path tooLong = Files.writeString(dir.resolve("long"), "x".repeat(73));
        e = assertThrows(IllegalArgumentException.class, () -> dev.tributary.node.auth.Passwords.readFirstLine(tooLong));
        assertFalse(e.getMessage().contains("xxxx"), "the error never shows the content: " + e.getMessage());
    }
}
