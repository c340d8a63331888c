package dev.tributary.deploy;

import dev.tributary.node.cli.DurationConverter;
import dev.tributary.node.cli.Durations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The option table of {@code tributary local-cluster}: picocli reads the command line into it
 * and writes the help from it. The node options (TLS, credentials, authenticator, cluster name)
 * are handed to every node the cluster starts.
 */
@Command(name = "tributary local-cluster", synopsisHeading = "usage: ", sortOptions = false, showDefaultValues = true,
        optionListHeading = "%noptions:%n",
        customSynopsis = {"tributary local-cluster up --nodes N --base-dir DIR [options]",
            "       tributary local-cluster add|status|down --base-dir DIR",
            "       tributary local-cluster kill|restart --node ID --base-dir DIR"},
        descriptionHeading = "%n", description = {
            "  up        start a ZooKeeper server and N nodes (ports P, P+1, ... of --base-port; CQL native",
            "            ports and Prometheus /metrics ports likewise from their bases) and write",
            "            DIR/cluster.json; returns once every node is ready. Every node keeps its data in a Raft",
            "            replica group as large as the keyspaces' replication_factor asks (a keyspace of factor 3",
            "            survives the loss of a node and its disk); --replication-factor is a floor every",
            "            keyspace gets at least (docs/REPLICATION.md)",
            "  add       bootstrap one more node into the running cluster",
            "            The TLS, ZooKeeper credentials and superuser password files, --authenticator and",
            "            --cluster (the global name) go to every node, also to those 'add' and 'restart' start",
            "            (node options, see 'tributary node --help')",
            "  kill      SIGKILL one node",
            "  restart   start a node again on its data dir (it keeps its tokens and data)",
            "  status    list the nodes and whether their processes are alive",
            "  down      stop every node cleanly (SIGTERM), then ZooKeeper"})
final class LocalClusterOptions {
    /** Beyond the 16 nodes a cluster may have, so the metrics ports never meet the gRPC ones. */
    static final int METRICS_PORT_OFFSET = 20;

    @Parameters(index = "0", paramLabel = "up|add|kill|restart|status|down", hidden = true)
    String action;

    @Option(names = "--base-dir", paramLabel = "DIR", description = "where the cluster's files, data and logs are")
    String baseDir;

    @Option(names = "--nodes", paramLabel = "N", description = "up: how many nodes (1 to 16)")
    Integer nodes;

    @Option(names = "--node", paramLabel = "ID", description = "kill, restart: which node (node1 is 1)")
    Integer node;

    @Option(names = "--base-port", paramLabel = "P", defaultValue = "9160", description = "the first node's gRPC port")
    int basePort;

    @Option(names = "--base-native-port", paramLabel = "Q", defaultValue = "9042",
            description = "the first node's CQL native protocol port")
    int baseNativePort;

    @Option(names = "--base-metrics-port", paramLabel = "M",
            description = "the first node's Prometheus /metrics port (default: P+" + METRICS_PORT_OFFSET
                    + ", so 9180 as ScyllaDB's, and two clusters with their own P do not collide)")
    Integer baseMetricsPort;

    @Option(names = "--ring-delay", paramLabel = "DURATION", defaultValue = "5s", converter = DurationConverter.class,
            description = "the nodes' --ring-delay")
    Duration ringDelay;

    @Option(names = "--num-tokens", paramLabel = "T", description = "the nodes' --num-tokens (default: the node's)")
    Integer numTokens;

    @Option(names = "--replication-factor", paramLabel = "R", defaultValue = "1",
            description = "the nodes' --replication-factor: the least copies of every keyspace")
    int replicationFactor;

    @Option(names = "--tls-cert", paramLabel = "F", description = "the nodes' --tls-cert")
    String tlsCert;

    @Option(names = "--tls-key", paramLabel = "F", description = "the nodes' --tls-key")
    String tlsKey;

    @Option(names = "--tls-client-ca", paramLabel = "F", description = "the nodes' --tls-client-ca")
    String tlsClientCa;

    @Option(names = "--zookeeper-auth-file", paramLabel = "F", description = "the nodes' --zookeeper-auth-file")
    String zookeeperAuthFile;

    @Option(names = "--authenticator", paramLabel = "allow-all|password", description = "the nodes' --authenticator")
    String authenticator;

    @Option(names = "--superuser-password-file", paramLabel = "F",
            description = "the nodes' --superuser-password-file (without it the first node prints a generated password "
                    + "to its log, DIR/node1.log)")
    String superuserPasswordFile;

    @Option(names = "--cluster", paramLabel = "NAME", description = "the nodes' --cluster, the global name: two local "
            + "clusters can run side by side")
    String cluster;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
    boolean help;

    static final String USAGE = DeployCli.usage(new LocalClusterOptions());

    /** @throws UsageException naming the option that is malformed */
    static LocalClusterOptions parse(List<String> args) throws UsageException {
        LocalClusterOptions o = new LocalClusterOptions();
        DeployCli.parse(o, args);
        return o;
    }

    /** @throws IllegalArgumentException naming the option when it is not given */
    static <T> T required(T value, String option) {
        if (value == null) {
            throw new IllegalArgumentException(option + " is required");
        }
        return value;
    }

    int metricsPort() {
        return baseMetricsPort != null ? baseMetricsPort : basePort + METRICS_PORT_OFFSET;
    }

    /** The --ring-delay the nodes are given, as they read it. */
    String ringDelayText() {
        return Durations.format(ringDelay);
    }

    /**
     * --tls-cert, --tls-key, --tls-client-ca, --zookeeper-auth-file and --superuser-password-file (as
     * absolute paths), --authenticator and --cluster, for every node.
     *
     * @throws IllegalArgumentException naming the option whose value is wrong
     */
    List<String> nodeOptions() {
        List<String> out = new ArrayList<>();
        if (cluster != null) {
            if (!cluster.matches("[A-Za-z][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("--cluster must be a name (letters, digits, _), got '" + cluster + "'");
            }
            out.addAll(List.of("--cluster", cluster));
        }
        if (authenticator != null) {
            if (!authenticator.equals("allow-all") && !authenticator.equals("password")) {
                throw new IllegalArgumentException("--authenticator must be allow-all or password, got '" + authenticator + "'");
            }
            out.addAll(List.of("--authenticator", authenticator));
        }
        file(out, "--tls-cert", tlsCert);
        file(out, "--tls-key", tlsKey);
        file(out, "--tls-client-ca", tlsClientCa);
        file(out, "--zookeeper-auth-file", zookeeperAuthFile);
        file(out, "--superuser-password-file", superuserPasswordFile);
        return out;
    }

    private static void file(List<String> out, String option, String value) {
        if (value != null) {
            Path p = Path.of(value).toAbsolutePath();
            if (!Files.isReadable(p)) {
                throw new IllegalArgumentException(option + ": cannot read " + p);
            }
            out.addAll(List.of(option, p.toString()));
        }
    }
}
