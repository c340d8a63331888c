package dev.tributary.capture;

/**
 * Oracle's {@code ARCHIVE_LAG_TARGET}: the longest a redo thread's online log may stay open
 * before it is switched (archived), in seconds; 0 turns it off. A downstream capture merges the
 * source's threads in SCN order and cannot go past the end of any thread's newest archived log,
 * so a thread that is switched only by size or by hand holds every other thread back; with a
 * target, each thread's archived logs reach to within that many seconds of now.
 *
 * <p>An online log is due once its oldest change is that old; one holding no change, once it was
 * opened that long ago: a quiet thread's empty log still says "nothing here up to this SCN",
 * which is what lets the merge go on. Immutable.
 *
 * @param seconds 0 (off) or 1 to {@link #MAX_SECONDS}. Oracle's lowest non-zero value is 60;
 *                shorter targets are allowed here for small setups and tests
 */
public record ArchiveLagTarget(long seconds) {
    /** Oracle's highest value: two hours. */
    public static final long MAX_SECONDS = 7200;
    public static final ArchiveLagTarget OFF = new ArchiveLagTarget(0);

    public ArchiveLagTarget {
        if (seconds < 0 || seconds > MAX_SECONDS) {
            throw new IllegalArgumentException("archive_lag_target must be 0 (off) or 1 to " + MAX_SECONDS + " seconds, got "
                    + seconds);
        }
    }

    /**
     * The target as ALTER SYSTEM SET gives it.
     *
     * @throws IllegalArgumentException naming the value and what is expected
     */
    public static ArchiveLagTarget parse(String value) {
        String v = value.trim();
        if (!v.matches("[0-9]{1,9}")) {
            throw new IllegalArgumentException("archive_lag_target must be a whole number of seconds (0 = off, 1 to "
                    + MAX_SECONDS + "), got '" + value + "'");
        }
        return new ArchiveLagTarget(Long.parseLong(v));
    }

    public boolean off() {
        return seconds == 0;
    }

    /**
     * Whether an online log is due to be switched at {@code nowMillis}, given {@code sinceScn}:
     * the SCN of its oldest change, or where it begins when it holds none (an SCN's physical part
     * is the wall-clock millisecond it was taken at).
     */
    public boolean switchDue(long sinceScn, long nowMillis) {
        return !off() && nowMillis - Scns.millis(sinceScn) >= seconds * 1000;
    }
}
