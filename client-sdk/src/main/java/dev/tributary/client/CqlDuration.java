package dev.tributary.client;

/**
 * A CQL {@code duration}: months, days and nanoseconds, kept apart because a month has no fixed
 * number of days and a day no fixed number of nanoseconds (daylight saving). All three components
 * carry the same sign. Immutable.
 *
 * <p>{@link #toString()} writes the CQL duration literal ({@code 1y2mo3d4h5m6s7ms8us9ns},
 * {@code -3d}, {@code 0s}), which is also its JSON form.
 */
public record CqlDuration(int months, int days, long nanos) {
    private static final long NANOS_PER_MICRO = 1_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NANOS_PER_MINUTE = 60 * NANOS_PER_SECOND;
    private static final long NANOS_PER_HOUR = 60 * NANOS_PER_MINUTE;

    public CqlDuration {
        boolean negative = months < 0 || days < 0 || nanos < 0;
        boolean positive = months > 0 || days > 0 || nanos > 0;
        if (negative && positive) {
            throw new IllegalArgumentException("duration components must all have the same sign, got months="
                    + months + " days=" + days + " nanos=" + nanos);
        }
    }

    public boolean isNegative() {
        return months < 0 || days < 0 || nanos < 0;
    }

    @Override
    public String toString() {
        if (months == 0 && days == 0 && nanos == 0) {
            return "0s";
        }
        StringBuilder sb = new StringBuilder();
        if (isNegative()) {
            sb.append('-');
        }
        long m = Math.abs((long) months);
        long d = Math.abs((long) days);
        append(sb, m / 12, "y");
        append(sb, m % 12, "mo");
        append(sb, d, "d");
        if (nanos != 0) {
            // Divide the signed value and take each quotient's magnitude: Math.abs(Long.MIN_VALUE)
            // would overflow, a quotient never does.
            long rest = nanos;
            append(sb, Math.abs(rest / NANOS_PER_HOUR), "h");
            rest %= NANOS_PER_HOUR;
            append(sb, Math.abs(rest / NANOS_PER_MINUTE), "m");
            rest %= NANOS_PER_MINUTE;
            append(sb, Math.abs(rest / NANOS_PER_SECOND), "s");
            rest %= NANOS_PER_SECOND;
            append(sb, Math.abs(rest / NANOS_PER_MILLI), "ms");
            rest %= NANOS_PER_MILLI;
            append(sb, Math.abs(rest / NANOS_PER_MICRO), "us");
            rest %= NANOS_PER_MICRO;
            append(sb, Math.abs(rest), "ns");
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, long amount, String unit) {
        if (amount != 0) {
            sb.append(amount).append(unit);
        }
    }
}
