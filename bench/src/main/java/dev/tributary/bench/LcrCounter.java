package dev.tributary.bench;

import dev.tributary.client.ChangeRecord;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * A consumer thread's sink: counts each row LCR into the shared {@link DeliveryProgress} and
 * records the write-to-consumer latency of the measured ones (INSERT, or UPDATE with
 * {@code --updates}) in its own {@link LatencyRecorder}. DDL LCRs are ignored. Not thread-safe:
 * one per consumer thread.
 */
final class LcrCounter implements Consumer<ChangeRecord> {
    private final String measuredCommand;
    private final DeliveryProgress progress;
    private final LatencyRecorder latency = new LatencyRecorder();
    private final long lcrsPerSecond;
    private Pacer pacer; // from the first measured LCR on
    private long paced;

    /** @param lcrsPerSecond the most measured LCRs it takes per second (a slow consumer), 0 for no limit */
    LcrCounter(String measuredCommand, DeliveryProgress progress, long lcrsPerSecond) {
        this.measuredCommand = measuredCommand;
        this.progress = progress;
        this.lcrsPerSecond = lcrsPerSecond;
    }

    @Override
    public void accept(ChangeRecord r) {
        if (!r.isRow()) {
            return;
        }
        Instant now = Instant.now();
        long commitMillis = r.commitScn() >>> 16;
        if (!progress.measuring()) {
            progress.preload(commitMillis);
        } else if (measuredCommand.equals(r.commandType())) {
            if (lcrsPerSecond > 0) {
                if (pacer == null) {
                    pacer = new Pacer(System.nanoTime(), lcrsPerSecond);
                }
                pacer.awaitUnit(++paced);
                now = Instant.now();
            }
            latency.recordLcr(r.commitScn(), now.getEpochSecond() * 1_000_000 + now.getNano() / 1000);
            progress.measured(commitMillis, System.nanoTime());
        } else {
            progress.countOther();
        }
    }

    LatencyRecorder latency() {
        return latency;
    }
}
