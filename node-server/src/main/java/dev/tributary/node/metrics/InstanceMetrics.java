package dev.tributary.node.metrics;

import java.util.List;

/**
 * What one node instance shows on {@code /metrics}, read from the state its parts already keep
 * (capture and apply workers, queues, the commit pipeline, ZooKeeper, RocksDB) when Prometheus
 * scrapes. Each method is called on the scraping thread and must not block for long; a method
 * that fails leaves its metric out of that scrape.
 */
public interface InstanceMetrics {
    /** The instance's host id: the {@code node} label of everything it reports. */
    String hostId();

    /** Its lifecycle state, lower case (starting, serving, draining, stopped). */
    String state();

    /** Whether its ZooKeeper session is lost (it refuses writes meanwhile). */
    boolean zookeeperSessionLost();

    /** Transactions queued for the committer. */
    int commitQueueDepth();

    List<Capture> captures();

    List<Apply> applies();

    List<Queue> queues();

    List<ConsumerGroup> consumerGroups();

    /** ReadStream and ReadStreams calls open on this instance. */
    int changeStreamReaders();

    /** When the newest CDC generation it knows starts, in epoch millis, or 0 for none. */
    long generationMillis();

    /** When the newest tablet set of any tablet table changed, in epoch millis, or 0 for none. */
    long tabletSetMillis();

    Store store();

    /** Writes and reads this instance forwarded to the node owning their partitions. */
    long forwardedWrites();

    long forwardedReads();

    /**
     * A capture process (the implicit CDC capture included): lag against the redo written and
     * durable. A stopped one has no state (null) and no totals, and lags from its checkpoint.
     */
    record Capture(String name, String state, long lagScn, double lagSeconds, long lcrsEnqueued, long redoScanned,
            long lcrsFiltered, long flowControlPauses) {
    }

    /**
     * An apply process: lag against what its queue's capture has enqueued. One that is not running
     * has no state (null), lag or totals, only its aborts.
     */
    record Apply(String name, String state, long lagScn, double lagSeconds, long transactionsApplied, long errorTransactions,
            long aborts) {
    }

    record Queue(String name, long bufferedBytes, int subscribers) {
    }

    /** A consumer group: how far its slowest member's watermark is behind now. */
    record ConsumerGroup(String name, String log, int members, double lagSeconds) {
    }

    /** RocksDB's own counters for the instance's store. */
    /** @param maxDiskBytes the space the SST files may take, 0 for no limit (--max-disk-bytes) */
    record Store(long memtableBytes, long pendingCompactionBytes, long runningCompactions, long sstBytes, long maxDiskBytes) {
    }
}
