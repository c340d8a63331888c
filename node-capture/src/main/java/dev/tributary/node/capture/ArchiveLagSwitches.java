package dev.tributary.node.capture;

import dev.tributary.capture.ArchiveLagTarget;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Switches this node's online redo log once it has been open for the cluster's
 * {@code archive_lag_target} ({@link ArchiveLagTarget} decides). Run from the node's log thread,
 * about once a second; the target is read from the cluster's settings at most every
 * {@link #REREAD_MILLIS}, and while they cannot be read the last value known stays in force, so
 * a ZooKeeper outage neither stops the switches nor floods the log with warnings. Not
 * thread-safe: one caller.
 */
public final class ArchiveLagSwitches implements Runnable {
    static final long REREAD_MILLIS = 2_000;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ArchiveLagSwitches.class);

    private final RedoSegments segments;
    private final Supplier<ArchiveLagTarget> settings;
    private final Runnable archive;
    private final LongSupplier clock;
    private ArchiveLagTarget target = ArchiveLagTarget.OFF;
    private long readAt = Long.MIN_VALUE;

    /**
     * @param settings reads the cluster's target (may throw while the settings are unreachable)
     * @param archive  archives the online log at an SCN of its own ({@link RedoSegments#archiveCurrent})
     */
    public ArchiveLagSwitches(RedoSegments segments, Supplier<ArchiveLagTarget> settings, Runnable archive, LongSupplier clock) {
        this.segments = segments;
        this.settings = settings;
        this.archive = archive;
        this.clock = clock;
    }

    @Override
    public void run() {
        long now = clock.getAsLong();
        if (readAt == Long.MIN_VALUE || now - readAt >= REREAD_MILLIS) {
            try {
                target = settings.get();
            } catch (RuntimeException e) {
                LOG.debug("archive_lag_target unreadable; keeping {} s", target.seconds(), e);
            }
            readAt = now;
        }
        if (segments.lagSwitchDue(target, now)) {
            archive.run();
        }
    }
}
