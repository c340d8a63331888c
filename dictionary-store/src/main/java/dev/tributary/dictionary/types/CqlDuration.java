package dev.tributary.dictionary.types;

/** A CQL duration: months, days and nanoseconds, each signed the same way. */
public record CqlDuration(int months, int days, long nanos) {
    public CqlDuration {
        boolean neg = months < 0 || days < 0 || nanos < 0;
        boolean pos = months > 0 || days > 0 || nanos > 0;
        if (neg && pos) {
            throw new IllegalArgumentException("duration components must all have the same sign");
        }
    }
}
