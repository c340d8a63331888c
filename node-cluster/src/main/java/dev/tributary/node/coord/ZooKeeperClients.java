package dev.tributary.node.coord;

import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * The node's ZooKeeper sessions. With credentials (--zookeeper-auth-file) a session authenticates
 * with ZooKeeper's digest scheme and every znode it creates is the creator's alone
 * ({@code CREATOR_ALL_ACL}): an anonymous client can neither read nor change the cluster's state.
 * Znodes created before, without credentials, get it when a node with credentials starts
 * ({@link ZooKeeperAcls}).
 */
public final class ZooKeeperClients {
    private static final int SESSION_TIMEOUT_MS = 15_000;

    private ZooKeeperClients() {
    }

    /** A ZooKeeper digest user and password, as {@code USER:PASSWORD} in a file. */
    public record Credentials(String user, String password) {
        @Override
        public String toString() {
            return "Credentials[" + user + ", password hidden]"; // never print the secret
        }

        /** @throws IllegalArgumentException when the file does not hold {@code USER:PASSWORD} */
        public static Credentials read(Path file) {
            String text;
            try {
                text = Files.readString(file, StandardCharsets.UTF_8).trim();
            } catch (IOException e) {
                throw new IllegalArgumentException("--zookeeper-auth-file " + file + " cannot be read: " + e.getMessage(), e);
            }
            int colon = text.indexOf(':');
            if (colon <= 0 || colon == text.length() - 1 || text.contains("\n")) {
                throw new IllegalArgumentException("--zookeeper-auth-file " + file + " must hold one line USER:PASSWORD");
            }
            return new Credentials(text.substring(0, colon), text.substring(colon + 1));
        }
    }

    /**
     * TLS to ZooKeeper (--zookeeper-tls): {@code keyStore} holds the node's PKCS#8 key and its
     * certificate (one PEM file, as ZooKeeper's PEM key store reads it), {@code trust} the CA
     * certificates the server's must chain to.
     */
    public record Tls(Path keyStore, Path trust) {
        /** Writes the key store next to the node's data (readable by its owner only) from the node's TLS files. */
        public static Tls of(Path cert, Path key, Path trust, Path dir) {
            Path store = dir.resolve("zookeeper-tls.pem");
            try {
                Files.createDirectories(dir);
                Files.deleteIfExists(store);
                Files.createFile(store, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
                Files.writeString(store, Files.readString(key, StandardCharsets.US_ASCII).trim() + "\n"
                        + Files.readString(cert, StandardCharsets.US_ASCII).trim() + "\n", StandardCharsets.US_ASCII);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot write the ZooKeeper TLS key store " + store, e);
            }
            return new Tls(store, trust);
        }

        /** The client settings of a TLS session (Netty, the PEM stores). */
        org.apache.zookeeper.client.ZKClientConfig clientConfig() {
            org.apache.zookeeper.client.ZKClientConfig c = new org.apache.zookeeper.client.ZKClientConfig();
            c.setProperty(org.apache.zookeeper.client.ZKClientConfig.SECURE_CLIENT, "true");
            c.setProperty(org.apache.zookeeper.client.ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET,
                    org.apache.zookeeper.ClientCnxnSocketNetty.class.getName());
            try (org.apache.zookeeper.common.ClientX509Util x = new org.apache.zookeeper.common.ClientX509Util()) {
                c.setProperty(x.getSslKeystoreLocationProperty(), keyStore.toString());
                c.setProperty(x.getSslKeystoreTypeProperty(), "PEM");
                c.setProperty(x.getSslTruststoreLocationProperty(), trust.toString());
                c.setProperty(x.getSslTruststoreTypeProperty(), "PEM");
            }
            return c;
        }
    }

    /** How the node's sessions reach ZooKeeper: digest credentials and TLS, each optional. */
    public record Access(Optional<Credentials> credentials, Optional<Tls> tls) {
        public static final Access OPEN = new Access(Optional.empty(), Optional.empty());
    }

    /** Connects; fails with UNAVAILABLE if ZooKeeper cannot be reached within {@code timeout}. */
    public static CuratorFramework connect(String connectString, Duration timeout, Access access) {
        Optional<Credentials> credentials = access.credentials();
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString(connectString)
                .sessionTimeoutMs(SESSION_TIMEOUT_MS).connectionTimeoutMs((int) timeout.toMillis())
                .retryPolicy(new ExponentialBackoffRetry(100, 10));
        access.tls().ifPresent(t -> b.zkClientConfig(t.clientConfig()));
        credentials.ifPresent(c -> b.authorization("digest", (c.user() + ":" + c.password()).getBytes(StandardCharsets.UTF_8))
                .aclProvider(new ACLProvider() {
                    @Override
                    public List<ACL> getDefaultAcl() {
                        return ZooDefs.Ids.CREATOR_ALL_ACL;
                    }

                    @Override
                    public List<ACL> getAclForPath(String path) {
                        return ZooDefs.Ids.CREATOR_ALL_ACL;
                    }
                }));
        CuratorFramework c = b.build();
        c.start();
        try {
            if (!c.blockUntilConnected((int) timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                c.close();
                throw new TributaryException(ErrorCode.UNAVAILABLE,
                        "cannot reach ZooKeeper at " + connectString + " within " + timeout.toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            c.close();
            throw new TributaryException(ErrorCode.UNAVAILABLE, "interrupted while connecting to ZooKeeper");
        }
        return c;
    }

    @FunctionalInterface
    interface ZkCall<T> {
        T run() throws Exception;
    }

    /**
     * Runs a ZooKeeper call, a failure of ZooKeeper itself becoming UNAVAILABLE naming what was
     * being done; the node's own typed errors, and a record found damaged, pass as they are.
     */
    static <T> T call(String what, ZkCall<T> body) {
        try {
            return body.run();
        } catch (TributaryException | IllegalArgumentException e) {
            throw e;
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not " + what + " in ZooKeeper: " + e, e);
        }
    }
}
