package dev.tributary.node.coord;

import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/**
 * A real ZooKeeper server in this process (standalone), for single-node clusters and tests.
 * Its data lives under the node's data directory so a restarted node finds its znodes again.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
    private final ZooKeeperServerEmbedded server;
    private final int port;

    private EmbeddedZooKeeper(ZooKeeperServerEmbedded server, int port) {
        this.server = server;
        this.port = port;
    }

    /** Starts a server on 127.0.0.1:{@code port} (0 = a free port) with data under {@code dir}. */
    public static EmbeddedZooKeeper start(Path dir, int port) {
        return start(dir, port, java.util.Optional.empty());
    }

    /**
     * As above; with {@code tls} the port speaks TLS only and each client must present a
     * certificate the trusted CA signed (the nodes' own). ZooKeeper reads its server TLS settings
     * from system properties, so they are the JVM's: one TLS configuration per process.
     */
    public static EmbeddedZooKeeper start(Path dir, int port, java.util.Optional<ZooKeeperClients.Tls> tls) {
        try {
            Files.createDirectories(dir);
            int p = port == 0 ? freePort() : port;
            Properties props = new Properties();
            props.setProperty("tickTime", "500");
            props.setProperty("initLimit", "10");
            props.setProperty("syncLimit", "5");
            props.setProperty("dataDir", dir.resolve("data").toString());
            if (tls.isPresent()) {
                props.setProperty("secureClientPort", Integer.toString(p));
                props.setProperty("secureClientPortAddress", "127.0.0.1");
                props.setProperty("serverCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory");
                props.setProperty("ssl.keyStore.location", tls.get().keyStore().toString());
                props.setProperty("ssl.keyStore.type", "PEM");
                props.setProperty("ssl.trustStore.location", tls.get().trust().toString());
                props.setProperty("ssl.trustStore.type", "PEM");
                props.setProperty("ssl.clientAuth", "need");
            } else {
                props.setProperty("clientPort", Integer.toString(p));
                props.setProperty("clientPortAddress", "127.0.0.1");
            }
            props.setProperty("admin.enableServer", "false");
            props.setProperty("maxSessionTimeout", "60000");
            props.setProperty("4lw.commands.whitelist", "ruok,srvr,stat");
            ZooKeeperServerEmbedded zk = ZooKeeperServerEmbedded.builder()
                    .baseDir(dir)
                    .configuration(props)
                    .exitHandler(ExitHandler.LOG_ONLY)
                    .build();
            zk.start(30_000);
            return new EmbeddedZooKeeper(zk, p);
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE,
                    "cannot start embedded ZooKeeper on port " + port + ": " + e, e);
        }
    }

    public String connectString() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
