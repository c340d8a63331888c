package dev.tributary.bench;

import dev.tributary.node.cli.CommandLines;
import dev.tributary.node.cli.FlagConverter;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The option table of {@code tributary bench capture}: each option once, with its name, type,
 * default and meaning; picocli reads the command line into it and writes the help from it, and
 * {@link #toOptions} checks the ranges and combinations and makes the immutable {@link CaptureOptions}.
 */
@Command(name = "tributary bench capture", synopsisHeading = "usage: ", showDefaultValues = true, sortOptions = false,
        descriptionHeading = "%n", optionListHeading = "%noptions:%n",
        description = {"End-to-end capture benchmark. Starts a node in-process (temporary data directory, embedded",
            "ZooKeeper, --ring-delay 1s) unless --connect names a running one, creates a CDC table",
            "bench.capture_<id> (pk bigint PRIMARY KEY, bucket int, v blob), writes N rows from C client",
            "threads through the SDK in batches of K, and reads the table's CDC log through the SDK's",
            "change reader until all N LCRs arrived. Then, in the same run, a baseline writes the same",
            "records (base row, redo record, CDC log entry per row, same WriteBatch sizes and sync policy)",
            "straight into RocksDB from one thread. Progress goes to stderr. Counts take k and m (200k)."})
final class CaptureCommand {
    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[^:\\s]+):(\\d{1,5})");

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
    boolean help;

    @Option(names = "--rows", paramLabel = "N", defaultValue = "" + CaptureOptions.DEFAULT_ROWS, converter = Counts.class,
            description = "rows in the measured phase")
    long rows;

    @Option(names = "--row-bytes", paramLabel = "B", defaultValue = "" + CaptureOptions.DEFAULT_ROW_BYTES,
            converter = Counts.class, description = "bytes of each row's blob value")
    long rowBytes;

    @Option(names = "--clients", paramLabel = "C", defaultValue = "" + CaptureOptions.DEFAULT_CLIENTS, converter = Counts.class,
            description = "writer threads")
    long clients;

    @Option(names = "--batch", paramLabel = "K", defaultValue = "" + CaptureOptions.DEFAULT_BATCH, converter = Counts.class,
            description = "rows per batch, one transaction each")
    long batch;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "1", converter = Counts.class,
            description = "in-process nodes sharing one embedded ZooKeeper")
    long nodes;

    @Option(names = "--parallelism", paramLabel = "P", defaultValue = "1", converter = Counts.class,
            description = "capture parallelism of in-process nodes (--capture-parallelism), and the poll consumer's "
                    + "threads per node, each following 1/P of the streams")
    long parallelism;

    @Option(names = "--consumer", paramLabel = "live|poll|sdk", defaultValue = "live",
            description = "live: one subscription per node (ChangeStreamService.Subscribe); poll: re-read each stream with "
                    + "ReadChanges; sdk: one ChangeConsumer (the SDK's, as applications and 'tributary tail' read) for the cluster")
    String consumer;

    @Option(names = "--json", arity = "0..1", fallbackValue = "true", converter = FlagConverter.class,
            description = "end with one line: a JSON object holding every figure")
    boolean json;

    @Option(names = "--connect", paramLabel = "HOST:PORT",
            description = "use a running node instead of starting one; say its mode with --commitlog-sync, and give "
                    + "--node-pid for its RSS")
    String connect;

    @Option(names = "--commitlog-sync", paramLabel = "batch|periodic", defaultValue = "batch",
            description = "batch: fsync before acknowledging; or periodic")
    String commitlogSync;

    @Option(names = "--updates", arity = "0..1", fallbackValue = "true", converter = FlagConverter.class,
            description = "preload the N rows, then measure one UPDATE of each row")
    boolean updates;

    @Option(names = "--subset-percent", paramLabel = "X", converter = Counts.class,
            description = "also run a capture process whose subset rule keeps X%% of the rows (bucket < X) and time how "
                    + "long it takes to enqueue them")
    Long subsetPercent;

    @Option(names = "--warmup-rows", paramLabel = "W", defaultValue = "0", converter = Counts.class,
            description = "first write and consume W other rows, unmeasured")
    long warmupRows;

    @Option(names = "--rate", paramLabel = "ROWS_PER_S", defaultValue = "0", converter = Counts.class,
            description = "hold the writers to that many rows/s (0: as fast as they go); latency targets are measured at "
                    + "half the maximum rate")
    long rate;

    @Option(names = "--consumer-rate", paramLabel = "LCRS_PER_S", defaultValue = "0", converter = Counts.class,
            description = "each consumer thread takes at most that many LCRs/s (0: as fast as it can); a slow consumer, "
                    + "to check that memory stays bounded")
    long consumerRate;

    @Option(names = "--num-tokens", paramLabel = "N", defaultValue = "" + CaptureOptions.DEFAULT_NUM_TOKENS,
            converter = Counts.class, description = "vnodes of an in-process node, so CDC streams")
    long numTokens;

    @Option(names = "--node-pid", paramLabel = "PID", converter = Counts.class,
            description = "with --connect: the node's pid, whose /proc status gives its RSS")
    Long nodePid;

    @Option(names = "--replication-factor", paramLabel = "R", defaultValue = "1", converter = Counts.class,
            description = "with --connect: the bench keyspace (bench_rfR) asks R copies; the cluster's nodes must be "
                    + "replicated (local-cluster's are)")
    long replicationFactor;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "where the temporary node and baseline directories go (default the system temporary "
                    + "directory; put it on the disk you measure)")
    String dataDir;

    @Option(names = "--no-baseline", arity = "0..1", fallbackValue = "true", converter = FlagConverter.class,
            description = "skip the RocksDB baseline (no ratio is reported)")
    boolean noBaseline;

    static CommandLine commandLine(CaptureCommand options) {
        return CommandLines.of(options);
    }

    /** The generated help. */
    static String usage() {
        return CommandLines.usage(commandLine(new CaptureCommand()));
    }

    /** @throws BenchUsageException naming the option that is missing, malformed or out of range */
    static CaptureOptions parse(List<String> args) throws BenchUsageException {
        CaptureCommand c = new CaptureCommand();
        try {
            CommandLines.parse(commandLine(c), args);
        } catch (IllegalArgumentException e) {
            throw new BenchUsageException(e.getMessage());
        }
        return c.toOptions();
    }

    private CaptureOptions toOptions() throws BenchUsageException {
        long rowsChecked = range("--rows", rows, 1, Long.MAX_VALUE);
        int rowBytesChecked = (int) range("--row-bytes", rowBytes, 1, CaptureOptions.MAX_ROW_BYTES);
        int clientsChecked = (int) range("--clients", clients, 1, 1024);
        int batchChecked = (int) range("--batch", batch, 1, CaptureOptions.MAX_BATCH);
        int nodesChecked = (int) range("--nodes", nodes, 1, 16);
        int parallelismChecked = (int) range("--parallelism", parallelism, 1, 64);
        Integer subset = subsetPercent == null ? null : (int) range("--subset-percent", subsetPercent, 0, 100);
        range("--warmup-rows", warmupRows, 0, Long.MAX_VALUE / 4);
        range("--rate", rate, 0, Long.MAX_VALUE);
        range("--consumer-rate", consumerRate, 0, Long.MAX_VALUE);
        int tokens = (int) range("--num-tokens", numTokens, 1, 4096);
        int factor = (int) range("--replication-factor", replicationFactor, 1, 7);
        if (nodePid != null) {
            range("--node-pid", nodePid, 1, Long.MAX_VALUE);
        }
        if (dataDir != null && dataDir.isBlank()) {
            throw new BenchUsageException("--data-dir wants a directory");
        }
        String endpoint = connect == null ? null : connect.trim();
        if (endpoint != null && !hostPort(endpoint)) {
            throw new BenchUsageException("--connect wants HOST:PORT (e.g. 127.0.0.1:9160), got '" + endpoint + "'");
        }
        CaptureOptions.Consumer reader = switch (consumer) {
            case "live" -> CaptureOptions.Consumer.LIVE;
            case "poll" -> CaptureOptions.Consumer.POLL;
            case "sdk" -> CaptureOptions.Consumer.SDK;
            default -> throw new BenchUsageException("--consumer wants live, poll or sdk, got '" + consumer + "'");
        };
        Durability durability;
        try {
            durability = Durability.parse(commitlogSync);
        } catch (IllegalArgumentException e) {
            throw new BenchUsageException(e.getMessage());
        }
        if (endpoint != null && nodesChecked != 1) {
            throw new BenchUsageException("--nodes starts in-process nodes; it cannot be combined with --connect");
        }
        if (endpoint == null && factor != 1) {
            throw new BenchUsageException("--replication-factor is for --connect: in-process nodes run without replication");
        }
        if (endpoint == null && nodePid != null) {
            throw new BenchUsageException("--node-pid is for --connect; an in-process node's RSS is the bench's own");
        }
        if (batchChecked > rowsChecked) {
            throw new BenchUsageException("--batch " + batchChecked + " is larger than --rows " + rowsChecked);
        }
        return new CaptureOptions(rowsChecked, rowBytesChecked, clientsChecked, batchChecked, nodesChecked, parallelismChecked,
                json, endpoint, durability, updates, subset, warmupRows, rate, consumerRate, tokens, nodePid,
                dataDir == null ? null : Path.of(dataDir), !noBaseline, help, reader, factor);
    }

    private static boolean hostPort(String v) {
        if (!HOST_PORT.matcher(v).matches()) {
            return false;
        }
        int port = Integer.parseInt(v.substring(v.lastIndexOf(':') + 1));
        return port >= 1 && port <= 65535;
    }

    private static long range(String option, long n, long min, long max) throws BenchUsageException {
        if (n < min || n > max) {
            throw new BenchUsageException(option + " must be " + (max == Long.MAX_VALUE ? "at least " + min
                    : "between " + min + " and " + max) + ", got " + n);
        }
        return n;
    }
}
