package dev.tributary.capture;

/**
 * The memory a node's buffered queues may hold together (Oracle's Streams pool): a base, plus
 * {@link #BYTES_PER_PARALLELISM} for each unit of parallelism of the capture processes running
 * there — the seed's rule, "increase the Streams pool by 10 MB for each capture process
 * parallelism" (a capture of parallelism 4 and one of 1 add 50 MB). Immutable.
 *
 * @param baseBytes        the pool with no capture running (and the bound of any one queue)
 * @param totalParallelism the sum of the parallelism of the running captures
 */
public record StreamsPool(long baseBytes, int totalParallelism) {
    public static final long BYTES_PER_PARALLELISM = 10L << 20;

    public StreamsPool {
        if (baseBytes <= 0) {
            throw new IllegalArgumentException("the Streams pool's base must be positive, got " + baseBytes);
        }
        if (totalParallelism < 0) {
            throw new IllegalArgumentException("total parallelism cannot be negative, got " + totalParallelism);
        }
    }

    public long budgetBytes() {
        return baseBytes + BYTES_PER_PARALLELISM * totalParallelism;
    }

    public StreamsPool withTotalParallelism(int total) {
        return new StreamsPool(baseBytes, total);
    }
}
