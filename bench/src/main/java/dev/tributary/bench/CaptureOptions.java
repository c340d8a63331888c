package dev.tributary.bench;

import java.nio.file.Path;
import java.util.List;

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

    /** The help, generated from the option table ({@link CaptureCommand}). */
    public static final String USAGE = CaptureCommand.usage();

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
        return CaptureCommand.parse(args);
    }
}
