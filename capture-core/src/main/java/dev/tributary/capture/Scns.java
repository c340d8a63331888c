package dev.tributary.capture;

/**
 * SCN arithmetic shared with the node's hybrid logical clock: an SCN is
 * {@code physicalMillis << 16 | logical}.
 */
public final class Scns {
    public static final int LOGICAL_BITS = 16;

    private Scns() {
    }

    public static long millis(long scn) {
        return scn >>> LOGICAL_BITS;
    }

    /** The write time in microseconds an SCN stands for (the logical part, capped, orders writes within a millisecond). */
    public static long micros(long scn) {
        return millis(scn) * 1000 + Math.min(scn & ((1L << LOGICAL_BITS) - 1), 999);
    }
}
