package dev.tributary.capture.apply;

/**
 * Where an apply process writes: one connection to a destination database. The apply's progress
 * lives in the destination and moves in the same destination transaction as the data it covers,
 * so after any failure the destination itself says which transactions it holds: each is applied
 * exactly once. The progress is a low watermark plus the transactions committed above it (those
 * that ran beside earlier ones); {@link #open} takes the apply over with a new epoch, and a write
 * under an older epoch is refused with {@link DestinationUnavailableException}.
 */
public interface ApplyDestination extends AutoCloseable {
    /** Takes the apply over at this destination (a new epoch) and returns its progress. */
    ApplyProgress open(String apply);

    /**
     * Applies the transaction's LCRs and records it as applied, in one destination transaction.
     *
     * @param lowWatermark every earlier transaction is applied: the transaction becomes the low
     *                     watermark, rather than one recorded above it
     * @throws ApplyErrorException the destination cannot take it (nothing of it was committed)
     * @throws DestinationUnavailableException the connection failed, or the epoch is not the
     *                     destination's any more; the commit may or may not have happened
     */
    void apply(String apply, long epoch, ApplyTransaction tx, ApplyPolicy policy, boolean lowWatermark);

    /** Puts the whole transaction in the error queue with its error and records it, in one destination transaction. */
    void recordError(String apply, long epoch, ApplyTransaction tx, ApplyErrorException error, boolean lowWatermark);

    /** Moves the low watermark up to {@code to} (never back) and folds in the transactions recorded at or below it. */
    void advance(String apply, long epoch, ApplyPosition to);

    @Override
    void close();
}
