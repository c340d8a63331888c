package dev.tributary.capture.apply;

/**
 * Where an apply process writes: one connection to a destination database. The apply's progress
 * lives in the destination and moves in the same destination transaction as the data it covers,
 * so after any failure the destination itself says which transactions it holds: each is applied
 * exactly once. Every write names the progress it expects to replace; a destination whose
 * progress is elsewhere (another process applied meanwhile) refuses with
 * {@link DestinationUnavailableException}, and the apply reads the progress again.
 */
public interface ApplyDestination extends AutoCloseable {
    /** The position of the last transaction the apply committed here, {@link ApplyPosition#START} if none. */
    ApplyPosition progress(String apply);

    /**
     * Applies the transaction's LCRs and moves the progress from {@code previous} to the
     * transaction's position, in one destination transaction.
     *
     * @throws ApplyErrorException the destination cannot take it (nothing of it was committed)
     * @throws DestinationUnavailableException the connection failed; the commit may or may not have happened
     */
    void apply(String apply, ApplyPosition previous, ApplyTransaction tx, ApplyPolicy policy);

    /** Puts the whole transaction in the error queue with its error and moves the progress, in one destination transaction. */
    void recordError(String apply, ApplyPosition previous, ApplyTransaction tx, ApplyErrorException error);

    @Override
    void close();
}
