package dev.tributary.node;

import dev.tributary.node.write.CommitPipeline.SyncMode;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * A node's configuration, typed and validated once. Options are given on the command line
 * ({@code --data-dir DIR}) or in a properties file ({@code data-dir=DIR}, through
 * {@code --config FILE}); the command line wins. Defaults are the named constants below.
 */
public record NodeConfig(Path dataDir, String listenHost, int listenPort, String zookeeper, String clusterName,
        SyncMode commitlogSync, Duration commitlogSyncPeriod, int numTokens, Duration ringDelay,
        boolean restricted, Duration maxWriteSkew, int maxValueBytes, String nodeName, boolean forceLogging,
        long redoSegmentBytes, long queueBufferBytes, int captureParallelism, Duration idempotencyWindow,
        int replicationFactor, boolean replicated, String raftHost, int raftPort, String nativeHost, int nativePort, long maxDiskBytes,
        long memtableBytes, Path tlsCert, Path tlsKey, Path tlsClientCa, Path zookeeperAuthFile,
        dev.tributary.node.auth.AccessControl.Mode authenticator, boolean zookeeperTls, Path superuserPasswordFile,
        boolean insecure, String metricsHost, int metricsPort) {

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
    public static final Duration DEFAULT_SYNC_PERIOD = Duration.ofSeconds(10);
    public static final int DEFAULT_NUM_TOKENS = 256;
    public static final Duration DEFAULT_RING_DELAY = Duration.ofSeconds(60);
    public static final int DEFAULT_MAX_VALUE_BYTES = 16 * 1024 * 1024;
    public static final long DEFAULT_REDO_SEGMENT_BYTES = 64L * 1024 * 1024;
    /**
     * Per queue, in the heap: a slow subscriber fills it before capture pauses, so with the
     * launcher's fixed heap 64 MB per queue was too much for a node with more than a few queues.
     */
    public static final long DEFAULT_QUEUE_BUFFER_BYTES = 16L * 1024 * 1024;
    public static final long DEFAULT_MEMTABLE_BYTES = dev.tributary.node.storage.NodeStore.DEFAULT_MEMTABLE_BYTES;
    /** How long a write's idempotency key is kept: longer than any client's retries of one request. */
    public static final Duration DEFAULT_IDEMPOTENCY_WINDOW = Duration.ofMinutes(10);
    /** The largest --max-value-bytes: a gRPC message must still hold one value and its request. */
    public static final int MAX_VALUE_BYTES_LIMIT = 1 << 30;
    private static final java.util.regex.Pattern DURATION =
            java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    /** Every option: name, argument, default, meaning. Drives parsing and --help alike. */
    public static final List<String[]> OPTIONS = List.of(
            new String[] {"data-dir", "DIR", DEFAULT_DATA_DIR, "where RocksDB (and the embedded ZooKeeper) keep their files"},
            new String[] {"listen", "HOST:PORT", DEFAULT_LISTEN, "the gRPC endpoint clients and peers connect to"},
            new String[] {"native-listen", "HOST:PORT|none", DEFAULT_NATIVE_LISTEN, "the CQL native protocol (v4) endpoint drivers connect to; none serves none"},
            new String[] {"metrics-listen", "HOST:PORT|none", DEFAULT_METRICS_LISTEN, "Prometheus' text format at /metrics "
                    + "(docs/OPERATIONS.md lists the metrics); none serves none"},
            new String[] {"zookeeper", "embedded[:PORT] | HOST:PORT[,...]", DEFAULT_ZOOKEEPER, "ZooKeeper: an in-process server, or an external ensemble"},
            new String[] {"cluster", "NAME", DEFAULT_CLUSTER, "the cluster name (the source database name of its LCRs)"},
            new String[] {"commitlog-sync", "batch|periodic", "batch", "batch: fsync before acknowledging; periodic: fsync every period"},
            new String[] {"commitlog-sync-period", "DURATION", "10s", "fsync period in periodic mode"},
            new String[] {"num-tokens", "N", Integer.toString(DEFAULT_NUM_TOKENS), "vnodes of this node"},
            new String[] {"ring-delay", "DURATION", "60s", "how far in the future a new generation starts"},
            new String[] {"restricted", "", "false", "start in restricted session (no captures start)"},
            new String[] {"force-logging", "", "false", "log every change to the redo, also of tables with logging = false"},
            new String[] {"max-write-skew", "DURATION", "the ring delay", "how far a USING TIMESTAMP may be from the node's clock"},
            new String[] {"max-value-bytes", "N", Integer.toString(DEFAULT_MAX_VALUE_BYTES), "largest value a write may carry"},
            new String[] {"name", "NAME", "node1", "the node's display name"},
            new String[] {"redo-segment-bytes", "N", Long.toString(DEFAULT_REDO_SEGMENT_BYTES), "size at which the online redo log switches (archived_log)"},
            new String[] {"queue-buffer-bytes", "N", Long.toString(DEFAULT_QUEUE_BUFFER_BYTES), "memory bound of each buffered queue; a full one pauses capture (flow control)"},
            new String[] {"capture-parallelism", "N", "1", "preparer threads of the implicit CDC capture (as a capture process's parallelism parameter)"},
            new String[] {"idempotency-window", "DURATION", "10m", "how long a write's idempotency key is kept: a retry within it applies nothing again"},
            new String[] {"replication-factor", "N", "1", "replicas of each node's redo thread, rows and logs (docs/REPLICATION.md); "
                    + "above 1 each node runs a Raft server and its instance fails over to a replica"},
            new String[] {"replication", "raft|none", "none (raft with a --replication-factor above 1)", "raft: the node keeps its data in a "
                    + "Raft replica group whose size follows the keyspaces' replication_factor (at least --replication-factor); "
                    + "local-cluster starts its nodes so. Needs a ZooKeeper outside the nodes"},
            new String[] {"max-disk-bytes", "N", "0", "space the node's SST files may take (0: no limit); beyond it writes fail "
                    + "with RESOURCE_EXHAUSTED and reads go on, until it is raised (ALTER SYSTEM SET max_disk_bytes) or space is freed"},
            new String[] {"memtable-bytes", "N", Long.toString(DEFAULT_MEMTABLE_BYTES), "size at which a column family's memtable "
                    + "is flushed to an SST file (how far --max-disk-bytes may be overshot, per column family); all memtables "
                    + "together are held to the larger of 64 MB and 4 times this"},
            new String[] {"tls-cert", "FILE", "", "PEM certificate (chain) of this node: TLS on every port it serves and "
                    + "dials (gRPC, CQL native, peers, log transport); when dialing it trusts --tls-client-ca, else this chain"},
            new String[] {"tls-key", "FILE", "", "PEM private key (PKCS#8) of --tls-cert"},
            new String[] {"tls-client-ca", "FILE", "", "PEM CA certificates: clients (and peers) must present a certificate "
                    + "one of them signed"},
            new String[] {"authenticator", "allow-all|password", "allow-all", "password: clients log in as a role "
                    + "(the first start creates superuser cassandra, its password from --superuser-password-file or "
                    + "generated and printed once); allow-all: anyone may do anything"},
            new String[] {"superuser-password-file", "FILE", "", "with --authenticator password: the first line of FILE is "
                    + "superuser cassandra's password on the cluster's first start (read then only)"},
            new String[] {"insecure", "", "false", "serve a non-loopback address with neither TLS nor the password "
                    + "authenticator (else the node refuses to start): anyone who reaches it may do anything"},
            new String[] {"zookeeper-tls", "true|false", "false", "TLS to ZooKeeper too, with the node's --tls-cert, "
                    + "--tls-key and --tls-client-ca (the ensemble's secureClientPort; an embedded server serves TLS only)"},
            new String[] {"zookeeper-auth-file", "FILE", "", "a file holding USER:PASSWORD: the node authenticates to "
                    + "ZooKeeper with it (digest) and creates the cluster's znodes readable and writable by that user only"},
            new String[] {"raft-listen", "HOST:PORT", "the listen host, a port picked once and kept", "the Raft endpoint of replication"},
            new String[] {"config", "FILE", "", "a properties file with any of these options"});

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
        return new NodeConfig(instanceDir, listenHost, 0, zookeeper, clusterName, commitlogSync, commitlogSyncPeriod,
                numTokens, ringDelay, restricted, maxWriteSkew, maxValueBytes, nodeName, forceLogging, redoSegmentBytes,
                queueBufferBytes, captureParallelism, idempotencyWindow, replicationFactor, replicated, raftHost, raftPort, nativeHost, 0,
                maxDiskBytes, memtableBytes, tlsCert, tlsKey, tlsClientCa, zookeeperAuthFile,
                authenticator, zookeeperTls, superuserPasswordFile, insecure, metricsHost, metricsPort);
    }

    public static NodeConfig defaults() {
        return parse(new String[0]);
    }

    /** Parses command-line options; a bad option or value throws IllegalArgumentException naming it. */
    public static NodeConfig parse(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                rest.add(a);
                continue;
            }
            String name = a.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            String[] spec = spec(name);
            if (spec[1].isEmpty()) {
                opts.put(name, value == null ? "true" : value);
            } else {
                if (value == null) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("option --" + name + " needs a value (" + spec[1] + ")");
                    }
                    value = args[++i];
                }
                opts.put(name, value);
            }
        }
        if (!rest.isEmpty()) {
            throw new IllegalArgumentException("unexpected argument '" + rest.get(0) + "'");
        }
        Map<String, String> all = new LinkedHashMap<>();
        if (opts.containsKey("config")) {
            all.putAll(readFile(Path.of(opts.get("config"))));
        }
        all.putAll(opts);
        return fromMap(all);
    }

    private static String[] spec(String name) {
        for (String[] s : OPTIONS) {
            if (s[0].equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown option --" + name);
    }

    private static Map<String, String> readFile(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("--config: cannot read config file " + file + ": " + e.getMessage());
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String k : p.stringPropertyNames()) {
            try {
                spec(k);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage() + " in config file " + file);
            }
            if (k.equals("config")) {
                throw new IllegalArgumentException("--config cannot be set in config file " + file);
            }
            out.put(k, p.getProperty(k).trim());
        }
        return out;
    }

    private static NodeConfig fromMap(Map<String, String> m) {
        String listen = m.getOrDefault("listen", DEFAULT_LISTEN);
        int colon = listen.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("--listen must be HOST:PORT, got '" + listen + "'");
        }
        Duration ringDelay = duration("ring-delay", m.getOrDefault("ring-delay", "60s"));
        String sync = m.getOrDefault("commitlog-sync", "batch").toLowerCase(Locale.ROOT);
        SyncMode mode = switch (sync) {
            case "batch" -> SyncMode.BATCH;
            case "periodic" -> SyncMode.PERIODIC;
            default -> throw new IllegalArgumentException("--commitlog-sync must be batch or periodic, got '" + sync + "'");
        };
        String zk = zookeeper(m.getOrDefault("zookeeper", DEFAULT_ZOOKEEPER));
        String raft = m.getOrDefault("raft-listen", listen.substring(0, colon) + ":0");
        int replicationFactor = integer("replication-factor", m.getOrDefault("replication-factor", "1"));
        int raftColon = raft.lastIndexOf(':');
        if (raftColon <= 0) {
            throw new IllegalArgumentException("--raft-listen must be HOST:PORT, got '" + raft + "'");
        }
        HostPort metrics = hostPortOrNone("metrics-listen", m.getOrDefault("metrics-listen", DEFAULT_METRICS_LISTEN), METRICS_NONE);
        HostPort nativeListen = hostPortOrNone("native-listen", m.getOrDefault("native-listen", DEFAULT_NATIVE_LISTEN), NATIVE_NONE);
        return new NodeConfig(Path.of(nonEmpty("data-dir", m.getOrDefault("data-dir", DEFAULT_DATA_DIR))),
                listen.substring(0, colon), port("listen", listen.substring(colon + 1)), zk,
                nonEmpty("cluster", m.getOrDefault("cluster", DEFAULT_CLUSTER)), mode,
                duration("commitlog-sync-period", m.getOrDefault("commitlog-sync-period", "10s")),
                integer("num-tokens", m.getOrDefault("num-tokens", Integer.toString(DEFAULT_NUM_TOKENS))), ringDelay,
                bool("restricted", m.getOrDefault("restricted", "false")),
                m.containsKey("max-write-skew") ? duration("max-write-skew", m.get("max-write-skew")) : ringDelay,
                integer("max-value-bytes", m.getOrDefault("max-value-bytes", Integer.toString(DEFAULT_MAX_VALUE_BYTES))),
                nonEmpty("name", m.getOrDefault("name", "node1")),
                bool("force-logging", m.getOrDefault("force-logging", "false")),
                longValue("redo-segment-bytes", m.getOrDefault("redo-segment-bytes", Long.toString(DEFAULT_REDO_SEGMENT_BYTES))),
                longValue("queue-buffer-bytes", m.getOrDefault("queue-buffer-bytes", Long.toString(DEFAULT_QUEUE_BUFFER_BYTES))),
                integer("capture-parallelism", m.getOrDefault("capture-parallelism", "1")),
                duration("idempotency-window", m.getOrDefault("idempotency-window", "10m")),
                replicationFactor, replication(m.getOrDefault("replication", "none"), replicationFactor),
                raft.substring(0, raftColon), port("raft-listen", raft.substring(raftColon + 1)), nativeListen.host(), nativeListen.port(),
                longValue("max-disk-bytes", m.getOrDefault("max-disk-bytes", "0")),
                longValue("memtable-bytes", m.getOrDefault("memtable-bytes", Long.toString(DEFAULT_MEMTABLE_BYTES))),
                path(m.get("tls-cert")), path(m.get("tls-key")), path(m.get("tls-client-ca")), path(m.get("zookeeper-auth-file")),
                dev.tributary.node.auth.AccessControl.Mode.parse(m.getOrDefault("authenticator", "allow-all").trim()),
                bool("zookeeper-tls", m.getOrDefault("zookeeper-tls", "false")), path(m.get("superuser-password-file")),
                bool("insecure", m.getOrDefault("insecure", "false")), metrics.host(), metrics.port());
    }

    /** An endpoint option's value; a null host when it is {@code none}. */
    private record HostPort(String host, int port) {
    }

    /** {@code HOST:PORT}, or {@code none} (any case) for no endpoint. */
    private static HostPort hostPortOrNone(String option, String value, String none) {
        String v = value.trim();
        if (v.equalsIgnoreCase(none)) {
            return new HostPort(null, 0);
        }
        int colon = v.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("--" + option + " must be HOST:PORT or " + none + ", got '" + v + "'");
        }
        return new HostPort(v.substring(0, colon), port(option, v.substring(colon + 1)));
    }

    private static Path path(String value) {
        return value == null || value.isBlank() ? null : Path.of(value.trim());
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

    /** {@code embedded}, {@code embedded:PORT} or {@code HOST:PORT[,HOST:PORT...]}. */
    private static String zookeeper(String zk) {
        if (zk.equals("embedded")) {
            return zk;
        }
        if (zk.startsWith("embedded:")) {
            port("zookeeper", zk.substring("embedded:".length()));
            return zk;
        }
        for (String server : zk.split(",", -1)) {
            int colon = server.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("--zookeeper must be embedded[:PORT] or HOST:PORT[,HOST:PORT...], got '"
                        + zk + "'");
            }
            port("zookeeper", server.substring(colon + 1));
        }
        return zk;
    }

    private static int port(String option, String v) {
        int port = integer(option, v);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--" + option + " port out of range: " + port);
        }
        return port;
    }

    private static String nonEmpty(String option, String v) {
        if (v.isBlank()) {
            throw new IllegalArgumentException("--" + option + " must not be empty");
        }
        return v;
    }

    private static boolean bool(String option, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("--" + option + " expects true or false, got '" + v + "'");
        };
    }

    private static long longValue(String option, String v) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + option + " expects a number, got '" + v + "'");
        }
    }

    /** {@code --replication}: raft or none; a --replication-factor above 1 needs (and implies) raft. */
    private static boolean replication(String value, int factor) {
        return switch (value) {
            case "raft" -> true;
            case "none" -> factor > 1;
            default -> throw new IllegalArgumentException("--replication must be raft or none, got '" + value + "'");
        };
    }

    private static int integer(String option, String v) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + option + " expects a number, got '" + v + "'");
        }
    }

    /**
     * Parses {@code 500ms}, {@code 3s}, {@code 1.5s}, {@code 1m}, {@code 2h} (to the millisecond).
     *
     * @throws IllegalArgumentException naming {@code --option} for anything else, a negative
     *         duration included
     */
    public static Duration duration(String option, String v) {
        java.util.regex.Matcher d = DURATION.matcher(v.trim().toLowerCase(Locale.ROOT));
        if (d.matches()) {
            long unitMillis = switch (d.group(2)) {
                case "ms" -> 1;
                case "s" -> 1_000;
                case "m" -> 60_000;
                default -> 3_600_000;
            };
            java.math.BigDecimal millis = new java.math.BigDecimal(d.group(1))
                    .multiply(java.math.BigDecimal.valueOf(unitMillis))
                    .setScale(0, java.math.RoundingMode.HALF_UP);
            if (millis.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
                return Duration.ofMillis(millis.longValueExact());
            }
        }
        throw new IllegalArgumentException("--" + option + " expects a duration such as 500ms, 3s or 1m, got '" + v + "'");
    }
}
