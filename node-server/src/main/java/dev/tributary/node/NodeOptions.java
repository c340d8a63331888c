package dev.tributary.node;

import dev.tributary.node.auth.AccessControl;
import dev.tributary.node.cli.CommandLines;
import dev.tributary.node.cli.FlagConverter;
import dev.tributary.node.cli.SizeConverter;
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
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The option table of {@code tributary node}: each option once, with its name, type, default and
 * meaning; picocli reads the command line (and a {@code --config} properties file, whose values
 * stand in for the defaults) into it and writes {@code --help} from it. {@link #toConfig} turns
 * what was read into the immutable {@link NodeConfig}.
 */
@Command(name = "tributary node", synopsisHeading = "usage: ", customSynopsis = "tributary node [options]%n",
        description = {"Runs one node in the foreground until SIGTERM or SIGINT. With no options it is a working",
            "single-node cluster: data in ./data/node, embedded ZooKeeper, listening on 127.0.0.1:9160."},
        optionListHeading = "%noptions:%n", showDefaultValues = true, sortOptions = false)
final class NodeOptions {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help", showDefaultValue = CommandLine.Help.Visibility.NEVER)
    boolean help;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = NodeConfig.DEFAULT_DATA_DIR,
            description = "where RocksDB (and the embedded ZooKeeper) keep their files")
    String dataDir;

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = NodeConfig.DEFAULT_LISTEN,
            description = "the gRPC endpoint clients and peers connect to")
    String listen;

    @Option(names = "--native-listen", paramLabel = "HOST:PORT|none", defaultValue = NodeConfig.DEFAULT_NATIVE_LISTEN,
            description = "the CQL native protocol (v4) endpoint drivers connect to; none serves none")
    String nativeListen;

    @Option(names = "--metrics-listen", paramLabel = "HOST:PORT|none", defaultValue = NodeConfig.DEFAULT_METRICS_LISTEN,
            description = "Prometheus' text format at /metrics (docs/OPERATIONS.md lists the metrics); none serves none")
    String metricsListen;

    @Option(names = "--zookeeper", paramLabel = "embedded[:PORT] | HOST:PORT[,...]", defaultValue = NodeConfig.DEFAULT_ZOOKEEPER,
            description = "ZooKeeper: an in-process server, or an external ensemble")
    String zookeeper;

    @Option(names = "--cluster", paramLabel = "NAME", defaultValue = NodeConfig.DEFAULT_CLUSTER,
            description = "the cluster name (the source database name of its LCRs)")
    String cluster;

    @Option(names = "--commitlog-sync", paramLabel = "batch|periodic", defaultValue = "batch",
            description = "batch: fsync before acknowledging; periodic: fsync every period")
    String commitlogSync;

    @Option(names = "--commitlog-sync-period", paramLabel = "DURATION", defaultValue = NodeConfig.SYNC_PERIOD,
            description = "fsync period in periodic mode")
    Duration commitlogSyncPeriod;

    @Option(names = "--num-tokens", paramLabel = "N", defaultValue = "" + NodeConfig.DEFAULT_NUM_TOKENS,
            description = "vnodes of this node")
    int numTokens;

    @Option(names = "--ring-delay", paramLabel = "DURATION", defaultValue = NodeConfig.RING_DELAY,
            description = "how far in the future a new generation starts")
    Duration ringDelay;

    @Option(names = "--restricted", arity = "0..1", fallbackValue = "true", defaultValue = "false",
            converter = FlagConverter.class,
            description = "start in restricted session (no captures start)")
    boolean restricted;

    @Option(names = "--force-logging", arity = "0..1", fallbackValue = "true", defaultValue = "false",
            converter = FlagConverter.class,
            description = "log every change to the redo, also of tables with logging = false")
    boolean forceLogging;

    @Option(names = "--max-write-skew", paramLabel = "DURATION",
            description = "how far a USING TIMESTAMP may be from the node's clock (default: the ring delay)")
    Duration maxWriteSkew;

    @Option(names = "--max-value-bytes", paramLabel = "SIZE", defaultValue = "" + NodeConfig.DEFAULT_MAX_VALUE_BYTES,
            converter = SizeConverter.class, description = "largest value a write may carry")
    long maxValueBytes;

    @Option(names = "--name", paramLabel = "NAME", defaultValue = "node1", description = "the node's display name")
    String name;

    @Option(names = "--redo-segment-bytes", paramLabel = "SIZE", defaultValue = "" + NodeConfig.DEFAULT_REDO_SEGMENT_BYTES,
            converter = SizeConverter.class, description = "size at which the online redo log switches (archived_log)")
    long redoSegmentBytes;

    @Option(names = "--queue-buffer-bytes", paramLabel = "SIZE", defaultValue = "" + NodeConfig.DEFAULT_QUEUE_BUFFER_BYTES,
            converter = SizeConverter.class,
            description = "memory bound of each buffered queue; a full one pauses capture (flow control)")
    long queueBufferBytes;

    @Option(names = "--capture-parallelism", paramLabel = "N", defaultValue = "1",
            description = "preparer threads of the implicit CDC capture (as a capture process's parallelism parameter)")
    int captureParallelism;

    @Option(names = "--idempotency-window", paramLabel = "DURATION", defaultValue = NodeConfig.IDEMPOTENCY_WINDOW,
            description = "how long a write's idempotency key is kept: a retry within it applies nothing again")
    Duration idempotencyWindow;

    @Option(names = "--forward-timeout", paramLabel = "DURATION", defaultValue = NodeConfig.FORWARD_TIMEOUT,
            description = "how long the node waits for a peer it sent a request on to (a write to its partitions' owner, "
                    + "a read); a client's shorter gRPC deadline shortens it. A write whose forward times out ends TIMEOUT, "
                    + "its outcome unknown")
    Duration forwardTimeout;

    @Option(names = "--replication-factor", paramLabel = "N", defaultValue = "1",
            description = "replicas of each node's redo thread, rows and logs (docs/REPLICATION.md); above 1 each node "
                    + "runs a Raft server and its instance fails over to a replica")
    int replicationFactor;

    @Option(names = "--replication", paramLabel = "raft|none", defaultValue = "none",
            description = "raft: the node keeps its data in a Raft replica group whose size follows the keyspaces' "
                    + "replication_factor (at least --replication-factor); local-cluster starts its nodes so. Needs a "
                    + "ZooKeeper outside the nodes. none (the default) means raft with a --replication-factor above 1")
    String replication;

    @Option(names = "--max-disk-bytes", paramLabel = "SIZE", defaultValue = "0", converter = SizeConverter.class,
            description = "space the node's SST files may take (0: no limit); beyond it writes fail with "
                    + "RESOURCE_EXHAUSTED and reads go on, until it is raised (ALTER SYSTEM SET max_disk_bytes) or space is freed")
    long maxDiskBytes;

    @Option(names = "--memtable-bytes", paramLabel = "SIZE", defaultValue = "" + NodeConfig.DEFAULT_MEMTABLE_BYTES,
            converter = SizeConverter.class,
            description = "size at which a column family's memtable is flushed to an SST file (how far --max-disk-bytes "
                    + "may be overshot, per column family); all memtables together are held to the larger of 64 MB and 4 "
                    + "times this")
    long memtableBytes;

    @Option(names = "--tls-cert", paramLabel = "FILE",
            description = "PEM certificate (chain) of this node: TLS on every port it serves and dials (gRPC, CQL native, "
                    + "peers, log transport); when dialing it trusts --tls-client-ca, else this chain")
    String tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "PEM private key (PKCS#8) of --tls-cert")
    String tlsKey;

    @Option(names = "--tls-client-ca", paramLabel = "FILE",
            description = "PEM CA certificates: clients (and peers) must present a certificate one of them signed")
    String tlsClientCa;

    @Option(names = "--authenticator", paramLabel = "allow-all|password", defaultValue = "allow-all",
            description = "password: clients log in as a role (the first start creates superuser cassandra, its password "
                    + "from --superuser-password-file or generated and printed once); allow-all: anyone may do anything")
    String authenticator;

    @Option(names = "--superuser-password-file", paramLabel = "FILE",
            description = "with --authenticator password: the first line of FILE is superuser cassandra's password on "
                    + "the cluster's first start (read then only)")
    String superuserPasswordFile;

    @Option(names = "--insecure", arity = "0..1", fallbackValue = "true", defaultValue = "false",
            converter = FlagConverter.class,
            description = "serve a non-loopback address with neither TLS nor the password authenticator (else the node "
                    + "refuses to start): anyone who reaches it may do anything")
    boolean insecure;

    @Option(names = "--zookeeper-tls", paramLabel = "true|false", arity = "1", defaultValue = "false",
            description = "TLS to ZooKeeper too, with the node's --tls-cert, --tls-key and --tls-client-ca (the "
                    + "ensemble's secureClientPort; an embedded server serves TLS only)")
    boolean zookeeperTls;

    @Option(names = "--zookeeper-auth-file", paramLabel = "FILE",
            description = "a file holding USER:PASSWORD: the node authenticates to ZooKeeper with it (digest) and creates "
                    + "the cluster's znodes readable and writable by that user only")
    String zookeeperAuthFile;

    @Option(names = "--raft-listen", paramLabel = "HOST:PORT",
            description = "the Raft endpoint of replication (default: the listen host, a port picked once and kept)")
    String raftListen;

    @Option(names = "--config", paramLabel = "FILE", description = "a properties file with any of these options "
            + "(name=value, names without the leading --); the command line wins")
    String config;

    /**
     * Reads a node's command line, and the properties file it names with {@code --config}.
     *
     * @throws IllegalArgumentException naming the option whose value is missing, malformed or out of range
     */
    static NodeOptions parse(List<String> args) {
        NodeOptions given = new NodeOptions();
        CommandLines.parse(CommandLines.of(given), args);
        if (given.config == null || given.help) {
            return given;
        }
        // the file's values stand in for the defaults, so anything on the command line wins wherever it stands
        Map<String, String> file = readFile(Path.of(given.config));
        NodeOptions merged = new NodeOptions();
        CommandLine cl = CommandLines.of(merged);
        cl.setDefaultValueProvider(arg -> arg instanceof OptionSpec o ? file.get(o.longestName().substring(2)) : null);
        CommandLines.parse(cl, args);
        return merged;
    }

    /** The generated {@code --help}. */
    static String usage() {
        return CommandLines.usage(CommandLines.of(new NodeOptions()));
    }

    /** Every option as name, argument, default and meaning, read from the table (for the docs' tests). */
    static List<String[]> table() {
        List<String[]> rows = new ArrayList<>();
        for (OptionSpec o : CommandLines.of(new NodeOptions()).getCommandSpec().options()) {
            if (!o.usageHelp()) {
                rows.add(new String[] {o.longestName().substring(2), CommandLines.isFlag(o) ? "" : o.paramLabel(),
                    o.defaultValue() == null ? "" : o.defaultValue(), String.join(" ", o.description())});
            }
        }
        return List.copyOf(rows);
    }

    private static Map<String, String> readFile(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("--config: cannot read config file " + file + ": " + e.getMessage());
        }
        CommandLine.Model.CommandSpec spec = CommandLines.of(new NodeOptions()).getCommandSpec();
        Map<String, String> out = new LinkedHashMap<>();
        for (String k : p.stringPropertyNames()) {
            if (spec.findOption("--" + k) == null || k.equals("help")) {
                throw new IllegalArgumentException("unknown option --" + k + " in config file " + file);
            }
            if (k.equals("config")) {
                throw new IllegalArgumentException("--config cannot be set in config file " + file);
            }
            out.put(k, p.getProperty(k).trim());
        }
        return out;
    }

    /** The configuration these options describe. @throws IllegalArgumentException naming the option that is wrong */
    NodeConfig toConfig() {
        int colon = listen.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("--listen must be HOST:PORT, got '" + listen + "'");
        }
        String raft = raftListen != null ? raftListen : listen.substring(0, colon) + ":0";
        int raftColon = raft.lastIndexOf(':');
        if (raftColon <= 0) {
            throw new IllegalArgumentException("--raft-listen must be HOST:PORT, got '" + raft + "'");
        }
        if (maxValueBytes < 1 || maxValueBytes > NodeConfig.MAX_VALUE_BYTES_LIMIT) {
            throw new IllegalArgumentException("--max-value-bytes must be between 1 and " + NodeConfig.MAX_VALUE_BYTES_LIMIT
                    + ", got " + maxValueBytes);
        }
        HostPort metrics = hostPortOrNone("metrics-listen", metricsListen, NodeConfig.METRICS_NONE);
        HostPort nativeEndpoint = hostPortOrNone("native-listen", nativeListen, NodeConfig.NATIVE_NONE);
        return new NodeConfig.Builder()
                .dataDir(Path.of(nonEmpty("data-dir", dataDir)))
                .listenHost(listen.substring(0, colon)).listenPort(port("listen", listen.substring(colon + 1)))
                .zookeeper(zookeeper(zookeeper))
                .clusterName(nonEmpty("cluster", cluster))
                .commitlogSync(syncMode(commitlogSync)).commitlogSyncPeriod(commitlogSyncPeriod)
                .numTokens(numTokens).ringDelay(ringDelay).restricted(restricted)
                .maxWriteSkew(maxWriteSkew != null ? maxWriteSkew : ringDelay)
                .maxValueBytes((int) maxValueBytes)
                .nodeName(nonEmpty("name", name)).forceLogging(forceLogging)
                .redoSegmentBytes(redoSegmentBytes).queueBufferBytes(queueBufferBytes)
                .captureParallelism(captureParallelism).idempotencyWindow(idempotencyWindow)
                .replicationFactor(replicationFactor).replicated(replication(replication, replicationFactor))
                .raftHost(raft.substring(0, raftColon)).raftPort(port("raft-listen", raft.substring(raftColon + 1)))
                .nativeHost(nativeEndpoint.host()).nativePort(nativeEndpoint.port())
                .maxDiskBytes(maxDiskBytes).memtableBytes(memtableBytes)
                .tlsCert(path(tlsCert)).tlsKey(path(tlsKey)).tlsClientCa(path(tlsClientCa))
                .zookeeperAuthFile(path(zookeeperAuthFile))
                .authenticator(AccessControl.Mode.parse(authenticator.trim()))
                .zookeeperTls(zookeeperTls).superuserPasswordFile(path(superuserPasswordFile)).insecure(insecure)
                .metricsHost(metrics.host()).metricsPort(metrics.port())
                .forwardTimeout(forwardTimeout)
                .build();
    }

    private static SyncMode syncMode(String value) {
        String sync = value.toLowerCase(Locale.ROOT);
        return switch (sync) {
            case "batch" -> SyncMode.BATCH;
            case "periodic" -> SyncMode.PERIODIC;
            default -> throw new IllegalArgumentException("--commitlog-sync must be batch or periodic, got '" + sync + "'");
        };
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
        int port;
        try {
            port = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + option + " wants a port number, got '" + v + "'");
        }
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

    /** {@code --replication}: raft or none; a --replication-factor above 1 needs (and implies) raft. */
    private static boolean replication(String value, int factor) {
        return switch (value) {
            case "raft" -> true;
            case "none" -> factor > 1;
            default -> throw new IllegalArgumentException("--replication must be raft or none, got '" + value + "'");
        };
    }
}
