package dev.tributary.node;

import dev.tributary.node.cli.Durations;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.write.CommitPipeline.SyncMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A node's configuration, typed and validated once. Options are given on the command line
 * ({@code --data-dir DIR}) or in a properties file ({@code data-dir=DIR}, through
 * {@code --config FILE}); the command line wins. {@link NodeOptions} is the option table (each
 * option's name, type, default and meaning) that reads them and writes the help; it builds this
 * record through {@link Builder}, which starts from those defaults and is the one way to derive a
 * configuration from another.
 */
public record NodeConfig(Path dataDir, String listenHost, int listenPort, String zookeeper, String clusterName,
        SyncMode commitlogSync, Duration commitlogSyncPeriod, int numTokens, Duration ringDelay,
        boolean restricted, Duration maxWriteSkew, int maxValueBytes, String nodeName, boolean forceLogging,
        long redoSegmentBytes, long queueBufferBytes, int captureParallelism, Duration idempotencyWindow,
        int replicationFactor, boolean replicated, String raftHost, int raftPort, String nativeHost, int nativePort, long maxDiskBytes,
        long memtableBytes, Path tlsCert, Path tlsKey, Path tlsClientCa, Path zookeeperAuthFile,
        dev.tributary.node.auth.AccessControl.Mode authenticator, boolean zookeeperTls, Path superuserPasswordFile,
        boolean insecure, String metricsHost, int metricsPort, Duration forwardTimeout) {

    public static final String DEFAULT_DATA_DIR = "./data/node";
    public static final String DEFAULT_LISTEN = "127.0.0.1:9160";
    /** The CQL native protocol's usual port, as Cassandra and ScyllaDB serve it. */
    public static final String DEFAULT_NATIVE_LISTEN = "127.0.0.1:9042";
    /** The --native-listen value that serves no native protocol. */
    public static final String NATIVE_NONE = "none";
    /** Prometheus' /metrics, on ScyllaDB's Prometheus port. */
    public static final String DEFAULT_METRICS_LISTEN = "127.0.0.1:9180";
    /** The --metrics-listen value that serves no metrics. */
    public static final String METRICS_NONE = "none";
    public static final String DEFAULT_ZOOKEEPER = "embedded";
    public static final String DEFAULT_CLUSTER = "tributary";
    /** The option table's spellings of the default durations; the Duration constants read them. */
    static final String SYNC_PERIOD = "10s";
    static final String RING_DELAY = "60s";
    static final String IDEMPOTENCY_WINDOW = "10m";
    /**
     * How long a node waits for a peer it forwarded a request to: well under the SDK's 60 s, so a
     * write sent to a node that stopped answering ends (unknown) while the client still waits,
     * and above ScyllaDB's 2 s write and 5 s read timeouts, since a forwarded write waits for its
     * Raft round on a machine that may be loaded.
     */
    static final String FORWARD_TIMEOUT = "10s";
    public static final Duration DEFAULT_SYNC_PERIOD = Durations.parse(SYNC_PERIOD);
    public static final int DEFAULT_NUM_TOKENS = 256;
    public static final Duration DEFAULT_RING_DELAY = Durations.parse(RING_DELAY);
    public static final int DEFAULT_MAX_VALUE_BYTES = 16 * 1024 * 1024;
    public static final long DEFAULT_REDO_SEGMENT_BYTES = 64L * 1024 * 1024;
    /**
     * Per queue, in the heap: a slow subscriber fills it before capture pauses, so with the
     * launcher's fixed heap 64 MB per queue was too much for a node with more than a few queues.
     */
    public static final long DEFAULT_QUEUE_BUFFER_BYTES = 16L * 1024 * 1024;
    public static final long DEFAULT_MEMTABLE_BYTES = NodeStore.DEFAULT_MEMTABLE_BYTES;
    /** How long a write's idempotency key is kept: longer than any client's retries of one request. */
    public static final Duration DEFAULT_IDEMPOTENCY_WINDOW = Durations.parse(IDEMPOTENCY_WINDOW);
    public static final Duration DEFAULT_FORWARD_TIMEOUT = Durations.parse(FORWARD_TIMEOUT);
    /** The largest --max-value-bytes: a gRPC message must still hold one value and its request. */
    public static final int MAX_VALUE_BYTES_LIMIT = 1 << 30;
    /** Every option: name, argument, default, meaning, as the option table declares them. */
    public static final List<String[]> OPTIONS = NodeOptions.table();

    /** @throws IllegalArgumentException naming the option whose value is out of range */
    public NodeConfig {
        if (numTokens < 1 || numTokens > 4096) {
            throw new IllegalArgumentException("--num-tokens must be between 1 and 4096, got " + numTokens);
        }
        if (listenPort < 0 || listenPort > 65535) {
            throw new IllegalArgumentException("--listen port out of range: " + listenPort);
        }
        if (metricsHost != null && (metricsPort < 0 || metricsPort > 65535)) {
            throw new IllegalArgumentException("--metrics-listen port out of range: " + metricsPort);
        }
        if (nativeHost != null && (nativePort < 0 || nativePort > 65535)) {
            throw new IllegalArgumentException("--native-listen port out of range: " + nativePort);
        }
        if (ringDelay.isNegative()) {
            throw new IllegalArgumentException("--ring-delay must not be negative, got " + ringDelay);
        }
        if (maxWriteSkew.isNegative()) {
            throw new IllegalArgumentException("--max-write-skew must not be negative, got " + maxWriteSkew);
        }
        if (commitlogSyncPeriod.isNegative() || commitlogSyncPeriod.isZero()) {
            throw new IllegalArgumentException("--commitlog-sync-period must be positive, got " + commitlogSyncPeriod);
        }
        if (redoSegmentBytes < 4096) {
            throw new IllegalArgumentException("--redo-segment-bytes must be at least 4096, got " + redoSegmentBytes);
        }
        if (queueBufferBytes < 4096) {
            throw new IllegalArgumentException("--queue-buffer-bytes must be at least 4096, got " + queueBufferBytes);
        }
        if (captureParallelism < 1 || captureParallelism > 64) {
            throw new IllegalArgumentException("--capture-parallelism must be between 1 and 64, got " + captureParallelism);
        }
        if (idempotencyWindow.isNegative() || idempotencyWindow.isZero()) {
            throw new IllegalArgumentException("--idempotency-window must be positive, got " + idempotencyWindow);
        }
        if (forwardTimeout.isNegative() || forwardTimeout.isZero()) {
            throw new IllegalArgumentException("--forward-timeout must be positive, got " + forwardTimeout);
        }
        if (replicationFactor < 1 || replicationFactor > 7) {
            throw new IllegalArgumentException("--replication-factor must be between 1 and 7, got " + replicationFactor);
        }
        if (maxDiskBytes < 0) {
            throw new IllegalArgumentException("--max-disk-bytes must not be negative, got " + maxDiskBytes);
        }
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together: give both or neither");
        }
        if (tlsClientCa != null && tlsCert == null) {
            throw new IllegalArgumentException("--tls-client-ca needs --tls-cert and --tls-key: client certificates are "
                    + "checked in the TLS handshake");
        }
        for (Path f : java.util.Arrays.asList(tlsCert, tlsKey, tlsClientCa, zookeeperAuthFile, superuserPasswordFile)) {
            if (f != null && !java.nio.file.Files.isReadable(f)) {
                throw new IllegalArgumentException("file " + f + " (--tls-*, --zookeeper-auth-file or --superuser-password-file) "
                        + "cannot be read");
            }
        }
        if (superuserPasswordFile != null && authenticator != dev.tributary.node.auth.AccessControl.Mode.PASSWORD) {
            throw new IllegalArgumentException("--superuser-password-file needs --authenticator password: without it no "
                    + "role logs in");
        }
        if (zookeeperTls && tlsCert == null) {
            throw new IllegalArgumentException("--zookeeper-tls needs --tls-cert and --tls-key: the node presents its "
                    + "certificate to ZooKeeper");
        }
        if (maxDiskBytes > 0 && replicated) {
            // a replica group's store applies what its Raft log committed: it cannot refuse a write there
            throw new IllegalArgumentException("--max-disk-bytes is not supported on a replicated node (--replication raft)");
        }
        if (memtableBytes < 64 * 1024) {
            throw new IllegalArgumentException("--memtable-bytes must be at least 65536, got " + memtableBytes);
        }
        if (maxValueBytes < 1 || maxValueBytes > MAX_VALUE_BYTES_LIMIT) {
            throw new IllegalArgumentException("--max-value-bytes must be between 1 and " + MAX_VALUE_BYTES_LIMIT
                    + ", got " + maxValueBytes);
        }
    }

    public String listenAddress() {
        return listenHost + ":" + listenPort;
    }

    /** Whether the node serves the CQL native protocol. */
    public boolean servesNative() {
        return nativeHost != null;
    }

    /** Whether the node process serves /metrics. */
    public boolean servesMetrics() {
        return metricsHost != null;
    }

    public boolean embeddedZooKeeper() {
        return zookeeper.startsWith("embedded");
    }

    /** The embedded server's port: 0 picks a free one. */
    public int embeddedZooKeeperPort() {
        int i = zookeeper.indexOf(':');
        return i < 0 ? 0 : Integer.parseInt(zookeeper.substring(i + 1));
    }

    /**
     * The configuration of a replica group's instance run here while the group's home node is
     * down: its own data directory, and gRPC and native ports picked when it starts (the node's own
     * are taken by its home instance).
     */
    public NodeConfig forGuestInstance(Path instanceDir) {
        return toBuilder().dataDir(instanceDir).listenPort(0).nativePort(0).build();
    }

    /** The configuration with no options given: every default of the option table. */
    public static NodeConfig defaults() {
        return parse(new String[0]);
    }

    /** A builder holding every default of the option table. */
    public static Builder builder() {
        return defaults().toBuilder();
    }

    /** A builder holding this configuration, to change some of it. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Parses command-line options; a bad option or value throws IllegalArgumentException naming it. */
    public static NodeConfig parse(String[] args) {
        return NodeOptions.parse(List.of(args)).toConfig();
    }

    /**
     * How the node's sessions reach ZooKeeper: the digest credentials of --zookeeper-auth-file, and
     * with --zookeeper-tls the node's TLS files (the key store written under the data directory).
     */
    public dev.tributary.node.coord.ZooKeeperClients.Access zookeeperAccess() {
        return new dev.tributary.node.coord.ZooKeeperClients.Access(
                java.util.Optional.ofNullable(zookeeperAuthFile).map(dev.tributary.node.coord.ZooKeeperClients.Credentials::read),
                !zookeeperTls ? java.util.Optional.empty() : java.util.Optional.of(dev.tributary.node.coord.ZooKeeperClients.Tls.of(
                        tlsCert, tlsKey, tlsClientCa != null ? tlsClientCa : tlsCert, dataDir)));
    }

    /**
     * Refuses a configuration that leaves the node open to its network: a gRPC or CQL native address
     * that is not a loopback one, served with neither TLS nor the password authenticator, unless
     * {@code --insecure} says that is meant. The default run (127.0.0.1) is open and allowed: only
     * the machine's own users reach it.
     *
     * @throws IllegalArgumentException naming the address and how to close it
     */
    public void requireClosedUnlessLoopback() {
        if (insecure || tls() || authenticator == dev.tributary.node.auth.AccessControl.Mode.PASSWORD) {
            return;
        }
        List<String[]> served = new ArrayList<>();
        served.add(new String[] {"listen", listenHost});
        if (servesNative()) {
            served.add(new String[] {"native-listen", nativeHost});
        }
        for (String[] s : served) {
            if (!loopback(s[1])) {
                throw new IllegalArgumentException("--" + s[0] + " " + s[1] + " is not a loopback address, and the node "
                        + "has neither TLS (--tls-cert, --tls-key) nor --authenticator password: anyone who reaches it "
                        + "could read and change everything. Give it either (docs/SECURITY.md), or --insecure to serve "
                        + "it open anyway");
            }
        }
    }

    /** Whether every address a host name stands for is a loopback one; a name that does not resolve is not. */
    static boolean loopback(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            java.net.InetAddress[] all = java.net.InetAddress.getAllByName(h);
            return all.length > 0 && java.util.Arrays.stream(all).allMatch(java.net.InetAddress::isLoopbackAddress);
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** Whether the node serves (and dials) TLS. */
    public boolean tls() {
        return tlsCert != null;
    }

    /**
     * One option's duration in the shared grammar ({@link Durations}: {@code 500ms}, {@code 3s},
     * {@code 1.5s}, {@code 1m}, {@code 2h}, to the millisecond).
     *
     * @throws IllegalArgumentException naming {@code --option} for anything else, a negative
     *         duration included
     */
    public static Duration duration(String option, String v) {
        try {
            return Durations.parse(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + option + " " + e.getMessage());
        }
    }

    /**
     * Builds a {@link NodeConfig}: it starts from another configuration (the option table's
     * defaults for {@link #builder()}), so no default is written here, and {@link #build} checks
     * the result as the record does.
     */
    public static final class Builder {
        private Path dataDir;
        private String listenHost;
        private int listenPort;
        private String zookeeper;
        private String clusterName;
        private SyncMode commitlogSync;
        private Duration commitlogSyncPeriod;
        private int numTokens;
        private Duration ringDelay;
        private boolean restricted;
        private Duration maxWriteSkew;
        private int maxValueBytes;
        private String nodeName;
        private boolean forceLogging;
        private long redoSegmentBytes;
        private long queueBufferBytes;
        private int captureParallelism;
        private Duration idempotencyWindow;
        private int replicationFactor;
        private boolean replicated;
        private String raftHost;
        private int raftPort;
        private String nativeHost;
        private int nativePort;
        private long maxDiskBytes;
        private long memtableBytes;
        private Path tlsCert;
        private Path tlsKey;
        private Path tlsClientCa;
        private Path zookeeperAuthFile;
        private dev.tributary.node.auth.AccessControl.Mode authenticator;
        private boolean zookeeperTls;
        private Path superuserPasswordFile;
        private boolean insecure;
        private String metricsHost;
        private int metricsPort;
        private Duration forwardTimeout;

        /** Nothing set: for the option table, which sets every component. */
        Builder() {
        }

        private Builder(NodeConfig c) {
            this.dataDir = c.dataDir();
            this.listenHost = c.listenHost();
            this.listenPort = c.listenPort();
            this.zookeeper = c.zookeeper();
            this.clusterName = c.clusterName();
            this.commitlogSync = c.commitlogSync();
            this.commitlogSyncPeriod = c.commitlogSyncPeriod();
            this.numTokens = c.numTokens();
            this.ringDelay = c.ringDelay();
            this.restricted = c.restricted();
            this.maxWriteSkew = c.maxWriteSkew();
            this.maxValueBytes = c.maxValueBytes();
            this.nodeName = c.nodeName();
            this.forceLogging = c.forceLogging();
            this.redoSegmentBytes = c.redoSegmentBytes();
            this.queueBufferBytes = c.queueBufferBytes();
            this.captureParallelism = c.captureParallelism();
            this.idempotencyWindow = c.idempotencyWindow();
            this.replicationFactor = c.replicationFactor();
            this.replicated = c.replicated();
            this.raftHost = c.raftHost();
            this.raftPort = c.raftPort();
            this.nativeHost = c.nativeHost();
            this.nativePort = c.nativePort();
            this.maxDiskBytes = c.maxDiskBytes();
            this.memtableBytes = c.memtableBytes();
            this.tlsCert = c.tlsCert();
            this.tlsKey = c.tlsKey();
            this.tlsClientCa = c.tlsClientCa();
            this.zookeeperAuthFile = c.zookeeperAuthFile();
            this.authenticator = c.authenticator();
            this.zookeeperTls = c.zookeeperTls();
            this.superuserPasswordFile = c.superuserPasswordFile();
            this.insecure = c.insecure();
            this.metricsHost = c.metricsHost();
            this.metricsPort = c.metricsPort();
            this.forwardTimeout = c.forwardTimeout();
        }

        public Builder dataDir(Path value) {
            this.dataDir = value;
            return this;
        }

        public Builder listenHost(String value) {
            this.listenHost = value;
            return this;
        }

        public Builder listenPort(int value) {
            this.listenPort = value;
            return this;
        }

        public Builder zookeeper(String value) {
            this.zookeeper = value;
            return this;
        }

        public Builder clusterName(String value) {
            this.clusterName = value;
            return this;
        }

        public Builder commitlogSync(SyncMode value) {
            this.commitlogSync = value;
            return this;
        }

        public Builder commitlogSyncPeriod(Duration value) {
            this.commitlogSyncPeriod = value;
            return this;
        }

        public Builder numTokens(int value) {
            this.numTokens = value;
            return this;
        }

        public Builder ringDelay(Duration value) {
            this.ringDelay = value;
            return this;
        }

        public Builder restricted(boolean value) {
            this.restricted = value;
            return this;
        }

        public Builder maxWriteSkew(Duration value) {
            this.maxWriteSkew = value;
            return this;
        }

        public Builder maxValueBytes(int value) {
            this.maxValueBytes = value;
            return this;
        }

        public Builder nodeName(String value) {
            this.nodeName = value;
            return this;
        }

        public Builder forceLogging(boolean value) {
            this.forceLogging = value;
            return this;
        }

        public Builder redoSegmentBytes(long value) {
            this.redoSegmentBytes = value;
            return this;
        }

        public Builder queueBufferBytes(long value) {
            this.queueBufferBytes = value;
            return this;
        }

        public Builder captureParallelism(int value) {
            this.captureParallelism = value;
            return this;
        }

        public Builder idempotencyWindow(Duration value) {
            this.idempotencyWindow = value;
            return this;
        }

        public Builder replicationFactor(int value) {
            this.replicationFactor = value;
            return this;
        }

        public Builder replicated(boolean value) {
            this.replicated = value;
            return this;
        }

        public Builder raftHost(String value) {
            this.raftHost = value;
            return this;
        }

        public Builder raftPort(int value) {
            this.raftPort = value;
            return this;
        }

        public Builder nativeHost(String value) {
            this.nativeHost = value;
            return this;
        }

        public Builder nativePort(int value) {
            this.nativePort = value;
            return this;
        }

        public Builder maxDiskBytes(long value) {
            this.maxDiskBytes = value;
            return this;
        }

        public Builder memtableBytes(long value) {
            this.memtableBytes = value;
            return this;
        }

        public Builder tlsCert(Path value) {
            this.tlsCert = value;
            return this;
        }

        public Builder tlsKey(Path value) {
            this.tlsKey = value;
            return this;
        }

        public Builder tlsClientCa(Path value) {
            this.tlsClientCa = value;
            return this;
        }

        public Builder zookeeperAuthFile(Path value) {
            this.zookeeperAuthFile = value;
            return this;
        }

        public Builder authenticator(dev.tributary.node.auth.AccessControl.Mode value) {
            this.authenticator = value;
            return this;
        }

        public Builder zookeeperTls(boolean value) {
            this.zookeeperTls = value;
            return this;
        }

        public Builder superuserPasswordFile(Path value) {
            this.superuserPasswordFile = value;
            return this;
        }

        public Builder insecure(boolean value) {
            this.insecure = value;
            return this;
        }

        public Builder metricsHost(String value) {
            this.metricsHost = value;
            return this;
        }

        public Builder metricsPort(int value) {
            this.metricsPort = value;
            return this;
        }

        public Builder forwardTimeout(Duration value) {
            this.forwardTimeout = value;
            return this;
        }

        /** @throws IllegalArgumentException naming the option whose value is out of range */
        public NodeConfig build() {
            return new NodeConfig(dataDir, listenHost, listenPort, zookeeper, clusterName, commitlogSync, commitlogSyncPeriod, numTokens, ringDelay, restricted, maxWriteSkew, maxValueBytes, nodeName, forceLogging, redoSegmentBytes, queueBufferBytes, captureParallelism, idempotencyWindow, replicationFactor, replicated, raftHost, raftPort, nativeHost, nativePort, maxDiskBytes, memtableBytes, tlsCert, tlsKey, tlsClientCa, zookeeperAuthFile, authenticator, zookeeperTls, superuserPasswordFile, insecure, metricsHost, metricsPort, forwardTimeout);
        }
    }
}
