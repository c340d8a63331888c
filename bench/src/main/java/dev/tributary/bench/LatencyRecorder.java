package dev.tributary.bench;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Write-to-consumer latencies in microseconds, in an HdrHistogram (3 significant digits, up to
 * one hour). Not thread-safe: each consumer thread records into its own and the run merges them
 * with {@link #add}. A negative latency (the node's clock ahead of the consumer's) counts as 0.
 */
public final class LatencyRecorder {
    private static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);
    private final Histogram histogram = new Histogram(HIGHEST_MICROS, 3);

    /** Records one latency; values beyond an hour are recorded as an hour. */
    public void recordMicros(long micros) {
        histogram.recordValue(Math.max(0, Math.min(micros, HIGHEST_MICROS)));
    }

    /**
     * Records an LCR received at {@code receivedMicros} (epoch micros) whose commit SCN is
     * {@code commitScn}: the SCN's physical part ({@code scn >>> 16}) is its commit wall time in ms.
     */
    public void recordLcr(long commitScn, long receivedMicros) {
        recordMicros(receivedMicros - (commitScn >>> 16) * 1000);
    }

    /** Adds another recorder's values into this one. */
    public void add(LatencyRecorder other) {
        histogram.add(other.histogram);
    }

    public long count() {
        return histogram.getTotalCount();
    }

    /** The latency at a percentile (0-100) in milliseconds, or 0 when nothing was recorded. */
    public double percentileMillis(double percentile) {
        return count() == 0 ? 0 : histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    public double maxMillis() {
        return count() == 0 ? 0 : histogram.getMaxValue() / 1000.0;
    }

    public double meanMillis() {
        return count() == 0 ? 0 : histogram.getMean() / 1000.0;
    }
}
