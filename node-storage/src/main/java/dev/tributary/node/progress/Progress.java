package dev.tributary.node.progress;

import java.util.Locale;
import java.util.OptionalLong;

/**
 * How far one long operation has come at one instant: {@code done} units of {@code total}
 * ({@link #UNKNOWN} while nobody knows how many), between the monotonic times {@code startedNanos}
 * and {@code nowNanos}. Immutable: {@link #advance} returns the next value, so a reader never sees
 * a count from one moment and a time from another.
 */
public record Progress(long done, long total, long startedNanos, long nowNanos) {
    /** The total of an operation that cannot count its work in advance. */
    public static final long UNKNOWN = -1;

    public Progress {
        if (done < 0 || total < UNKNOWN) {
            throw new IllegalArgumentException("progress " + done + " of " + total);
        }
    }

    public static Progress start(long total, long nowNanos) {
        return new Progress(0, total, nowNanos, nowNanos);
    }

    /** {@code n} more units done, as of {@code nowNanos}. */
    public Progress advance(long n, long nowNanos) {
        return new Progress(done + n, total, startedNanos, Math.max(this.nowNanos, nowNanos));
    }

    /** The same work, with its total known (or corrected: estimates such as RocksDB's key count are). */
    public Progress withTotal(long total) {
        return new Progress(done, total, startedNanos, nowNanos);
    }

    public double elapsedSeconds() {
        return (nowNanos - startedNanos) / 1e9;
    }

    /** Units per second since the start; 0 before any time passed. */
    public double ratePerSecond() {
        double s = elapsedSeconds();
        return s <= 0 ? 0 : done / s;
    }

    /** The fraction done in [0, 1], or empty while the total is unknown. */
    public java.util.OptionalDouble fraction() {
        if (total == UNKNOWN) {
            return java.util.OptionalDouble.empty();
        }
        return java.util.OptionalDouble.of(total == 0 ? 1 : Math.min(1, (double) done / total));
    }

    /**
     * Seconds left at the rate so far; empty while the total is unknown or nothing is done yet.
     * An estimated total the work outgrew gives 0 rather than a negative time.
     */
    public OptionalLong etaSeconds() {
        double rate = ratePerSecond();
        if (total == UNKNOWN || rate <= 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of((long) Math.ceil(Math.max(0, total - done) / rate));
    }

    /** One line for a log or a terminal: "12,000 of 50,000 rows (24%), 3,000 rows/s, ETA 13 s". */
    public String describe(String unit) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%,d", done));
        if (total != UNKNOWN) {
            b.append(String.format(Locale.ROOT, " of %,d %s (%d%%)", total, unit, (int) Math.floor(fraction().getAsDouble() * 100)));
        } else {
            b.append(' ').append(unit);
        }
        b.append(String.format(Locale.ROOT, ", %,.0f %s/s", ratePerSecond(), unit));
        etaSeconds().ifPresent(eta -> b.append(", ETA ").append(eta).append(" s"));
        return b.toString();
    }
}
