package dev.tributary.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The parsed options of {@code tributary bench capture}. Immutable; {@link #parse} validates
 * every value, so a constructed instance is always runnable.
 *
 * @param rows           rows written in the measured phase (each gives one LCR)
 * @param rowBytes       bytes of the {@code v} blob of each row
 * @param clients        writer threads
 * @param batch          rows per batch (one transaction: one WriteBatch, one redo record)
 * @param nodes          in-process nodes (1 unless several are asked for)
 * @param parallelism    the in-process nodes' capture parallelism (preparer threads of the CDC capture); also the
 *                       poll consumer's threads per node, each following its share of the log's streams
 * @param json           print one JSON object with all figures as the last line
 * @param connect        HOST:PORT of a running node, or null to start nodes in-process
 * @param durability     the node's commitlog sync mode, and the baseline's sync policy
 * @param updates        preload the rows, then measure one UPDATE of each (read-before-write, old values)
 * @param subsetPercent  with a value, also run a rule-based capture whose subset rule keeps that
 *                       percent of the rows, and time it; null for none
 * @param warmupRows     rows written and consumed before the measured phase (other keys, not
 *                       measured), so the JIT is warm when measuring starts
 * @param rate           rows per second the writers are held to, 0 for as fast as they can
 * @param consumerRate   LCRs per second each consumer thread takes at most, 0 for as fast as it can
 *                       (a slow consumer: the node must hold it back by flow control, not buffer for it)
 * @param numTokens      vnodes per in-process node (so CDC streams per generation)
 * @param nodePid        the pid of the node process for its RSS when connecting, or null
 * @param dataDir        where the temporary node and baseline directories go, or null for java.io.tmpdir
 * @param baseline       whether to run the RocksDB baseline
 * @param help           print the usage and do nothing else
 * @param consumer       how the consumers read the CDC log
 */
public record CaptureOptions(long rows, int rowBytes, int clients, int batch, int nodes, int parallelism, boolean json,
        String connect, Durability durability, boolean updates, Integer subsetPercent, long warmupRows, long rate,
        long consumerRate, int numTokens, Long nodePid, Path dataDir, boolean baseline, boolean help, Consumer consumer,
        int replicationFactor) {

    /** How the bench's consumers read the CDC log. */
    public enum Consumer {
        /** One subscription per node (ChangeStreamService.Subscribe). */
        LIVE,
        /** Threads per node re-reading their share of the streams with ReadChanges. */
        POLL,
        /** One SDK ChangeConsumer for the cluster: every node's streams merged by safe time, as an application reads. */
        SDK
    }


    public static final long DEFAULT_ROWS = 1_000_000;
    public static final int DEFAULT_ROW_BYTES = 200;
    public static final int DEFAULT_CLIENTS = 4;
    public static final int DEFAULT_BATCH = 100;
    public static final int DEFAULT_NUM_TOKENS = 256;
    /** A BEGIN BATCH larger than this is one very large gRPC message and redo record: refuse it up front. */
    public static final int MAX_BATCH = 10_000;
    public static final int MAX_ROW_BYTES = 1 << 20;
    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[^:\\s]+):(\\d{1,5})");

    public static final String USAGE = """
            usage: tributary bench capture [--rows N] [--row-bytes B] [--clients C] [--batch K]
                                           [--nodes 1] [--parallelism P] [--consumer live|poll|sdk] [--json] [--connect HOST:PORT]
                                           [--commitlog-sync batch|periodic] [--updates] [--subset-percent X]
                                           [--warmup-rows W] [--rate ROWS_PER_S] [--consumer-rate LCRS_PER_S]
                                           [--num-tokens N] [--node-pid PID] [--data-dir DIR] [--no-baseline]
                                           [--replication-factor R]

            End-to-end capture benchmark. Starts a node in-process (temporary data directory, embedded
            ZooKeeper, --ring-delay 1s) unless --connect names a running one, creates a CDC table
            bench.capture_<id> (pk bigint PRIMARY KEY, bucket int, v blob), writes N rows from C client
            threads through the SDK in batches of K, and reads the table's CDC log through the SDK's
            change reader until all N LCRs arrived. Then, in the same run, a baseline writes the same
            records (base row, redo record, CDC log entry per row, same WriteBatch sizes and sync policy)
            straight into RocksDB from one thread. Progress goes to stderr.

            options:
              --rows N               rows in the measured phase (default 1000000)
              --row-bytes B          bytes of each row's blob value (default 200)
              --clients C            writer threads (default 4)
              --batch K              rows per batch, one transaction each (default 100)
              --nodes N              in-process nodes sharing one embedded ZooKeeper (default 1)
              --parallelism P        capture parallelism of in-process nodes (--capture-parallelism), and the poll
                                     consumer's threads per node, each following 1/P of the streams (default 1)
              --consumer live|poll|sdk
                                     live: one subscription per node (ChangeStreamService.Subscribe, default);
                                     poll: re-read each stream with ReadChanges; sdk: one ChangeConsumer
                                     (the SDK's, as applications and 'tributary tail' read) for the cluster
              --json                 end with one line: a JSON object holding every figure
              --connect HOST:PORT    use a running node instead of starting one; say its mode with
                                     --commitlog-sync, and give --node-pid for its RSS
              --commitlog-sync M     batch (default: fsync before acknowledging) or periodic
              --updates              preload the N rows, then measure one UPDATE of each row
              --subset-percent X     also run a capture process whose subset rule keeps X% of the rows
                                     (bucket < X) and time how long it takes to enqueue them
              --warmup-rows W        first write and consume W other rows, unmeasured (default 0)
              --rate R               hold the writers to R rows/s (default 0: as fast as they go);
                                     latency targets are measured at half the maximum rate
              --consumer-rate R      each consumer thread takes at most R LCRs/s (default 0: as fast as it
                                     can); a slow consumer, to check that memory stays bounded
              --num-tokens N         vnodes of an in-process node, so CDC streams (default 256)
              --node-pid PID         with --connect: the node's pid, whose /proc status gives its RSS
              --replication-factor R with --connect: the bench keyspace (bench_rfR) asks R copies (default 1); the
                                     cluster's nodes must be replicated (local-cluster's are)
              --data-dir DIR         where the temporary node and baseline directories go (default
                                     the system temporary directory; put it on the disk you measure)
              --no-baseline          skip the RocksDB baseline (no ratio is reported)
              -h, --help             print this help
            """;

    public CaptureOptions {
        if (rows < 1) {
            throw new IllegalArgumentException("--rows must be at least 1, got " + rows);
        }
    }

    /** Whether the run starts its own nodes. */
    public boolean inProcess() {
        return connect == null;
    }

    /** The measured command type of the LCRs: INSERT, or UPDATE with {@code --updates}. */
    public String measuredCommand() {
        return updates ? "UPDATE" : "INSERT";
    }

    /**
     * Parses the arguments after {@code capture}.
     *
     * @throws BenchUsageException naming the option whose value is missing, malformed or out of range
     */
    public static CaptureOptions parse(List<String> args) throws BenchUsageException {
        long rows = DEFAULT_ROWS;
        int rowBytes = DEFAULT_ROW_BYTES;
        int clients = DEFAULT_CLIENTS;
        int batch = DEFAULT_BATCH;
        int nodes = 1;
        int parallelism = 1;
        boolean json = false;
        String connect = null;
        Durability durability = Durability.BATCH;
        boolean updates = false;
        Integer subset = null;
        long rate = 0;
        long consumerRate = 0;
        long warmup = 0;
        int numTokens = DEFAULT_NUM_TOKENS;
        Long nodePid = null;
        int replicationFactor = 1;
        Path dataDir = null;
        boolean baseline = true;
        boolean help = false;
        Consumer consumer = Consumer.LIVE;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String name = arg;
            String inline = null;
            if (arg.startsWith("--") && arg.contains("=")) {
                name = arg.substring(0, arg.indexOf('='));
                inline = arg.substring(arg.indexOf('=') + 1);
            }
            switch (name) {
                case "-h", "--help" -> help = true;
                case "--json" -> json = flag(name, inline);
                case "--updates" -> updates = flag(name, inline);
                case "--no-baseline" -> baseline = !flag(name, inline);
                case "--rows" -> rows = number(name, inline != null ? inline : value(args, ++i, name), 1, Long.MAX_VALUE);
                case "--row-bytes" -> rowBytes = (int) number(name, inline != null ? inline : value(args, ++i, name), 1, MAX_ROW_BYTES);
                case "--clients" -> clients = (int) number(name, inline != null ? inline : value(args, ++i, name), 1, 1024);
                case "--batch" -> batch = (int) number(name, inline != null ? inline : value(args, ++i, name), 1, MAX_BATCH);
                case "--nodes" -> nodes = (int) number(name, inline != null ? inline : value(args, ++i, name), 1, 16);
                case "--parallelism" -> parallelism = (int) number(name, inline != null ? inline : value(args, ++i, name), 1, 64);
                case "--subset-percent" -> subset = (int) number(name, inline != null ? inline : value(args, ++i, name), 0, 100);
                case "--warmup-rows" -> warmup = number(name, inline != null ? inline : value(args, ++i, name), 0, Long.MAX_VALUE / 4);
                case "--rate" -> rate = number(name, inline != null ? inline : value(args, ++i, name), 0, Long.MAX_VALUE);
                case "--consumer-rate" -> consumerRate = number(name, inline != null ? inline : value(args, ++i, name), 0,
                        Long.MAX_VALUE);
                case "--num-tokens" -> numTokens = (int) number(name, inline != null ? inline : value(args, ++i, name), 1, 4096);
                case "--replication-factor" -> replicationFactor = (int) number(name,
                        inline != null ? inline : value(args, ++i, name), 1, 7);
                case "--node-pid" -> nodePid = number(name, inline != null ? inline : value(args, ++i, name), 1, Long.MAX_VALUE);
                case "--data-dir" -> {
                    String v = inline != null ? inline : value(args, ++i, name);
                    if (v.isBlank()) {
                        throw new BenchUsageException("--data-dir wants a directory");
                    }
                    dataDir = Path.of(v);
                }
                case "--connect" -> {
                    String v = (inline != null ? inline : value(args, ++i, name)).trim();
                    if (!HOST_PORT.matcher(v).matches() || Integer.parseInt(v.substring(v.lastIndexOf(':') + 1)) < 1
                            || Integer.parseInt(v.substring(v.lastIndexOf(':') + 1)) > 65535) {
                        throw new BenchUsageException("--connect wants HOST:PORT (e.g. 127.0.0.1:9160), got '" + v + "'");
                    }
                    connect = v;
                }
                case "--consumer" -> {
                    String v = inline != null ? inline : value(args, ++i, name);
                    consumer = switch (v) {
                        case "live" -> Consumer.LIVE;
                        case "poll" -> Consumer.POLL;
                        case "sdk" -> Consumer.SDK;
                        default -> throw new BenchUsageException("--consumer wants live, poll or sdk, got '" + v + "'");
                    };
                }
                case "--commitlog-sync" -> {
                    String v = inline != null ? inline : value(args, ++i, name);
                    try {
                        durability = Durability.parse(v);
                    } catch (IllegalArgumentException e) {
                        throw new BenchUsageException(e.getMessage());
                    }
                }
                default -> throw new BenchUsageException(arg.startsWith("-") ? "unknown option '" + arg + "'"
                        : "unexpected argument '" + arg + "'");
            }
        }
        if (connect != null && nodes != 1) {
            throw new BenchUsageException("--nodes starts in-process nodes; it cannot be combined with --connect");
        }
        if (connect == null && replicationFactor != 1) {
            throw new BenchUsageException("--replication-factor is for --connect: in-process nodes run without replication");
        }
        if (connect == null && nodePid != null) {
            throw new BenchUsageException("--node-pid is for --connect; an in-process node's RSS is the bench's own");
        }
        if (batch > rows) {
            throw new BenchUsageException("--batch " + batch + " is larger than --rows " + rows);
        }
        return new CaptureOptions(rows, rowBytes, clients, batch, nodes, parallelism, json, connect, durability, updates,
                subset, warmup, rate, consumerRate, numTokens, nodePid, dataDir, baseline, help, consumer, replicationFactor);
    }

    private static boolean flag(String name, String inline) throws BenchUsageException {
        if (inline == null) {
            return true;
        }
        return switch (inline.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new BenchUsageException(name + " takes no value (or =true/=false), got '" + inline + "'");
        };
    }

    private static String value(List<String> args, int i, String option) throws BenchUsageException {
        if (i >= args.size()) {
            throw new BenchUsageException(option + " needs a value");
        }
        return args.get(i);
    }

    /** A whole number, with an optional k/m suffix (200k = 200000), within [min, max]. */
    private static long number(String option, String text, long min, long max) throws BenchUsageException {
        String t = text.trim().toLowerCase(Locale.ROOT).replace("_", "");
        long factor = 1;
        if (t.endsWith("k")) {
            factor = 1_000;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            factor = 1_000_000;
            t = t.substring(0, t.length() - 1);
        }
        long n;
        try {
            n = Math.multiplyExact(Long.parseLong(t), factor);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new BenchUsageException(option + " wants a whole number, got '" + text + "'");
        }
        if (n < min || n > max) {
            throw new BenchUsageException(option + " must be " + (max == Long.MAX_VALUE ? "at least " + min
                    : "between " + min + " and " + max) + ", got " + n);
        }
        return n;
    }
}
