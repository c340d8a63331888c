package dev.tributary.client.internal;

import java.time.Duration;
import java.util.Objects;

/** The checks of the builders' duration settings, with one wording for every setting. */
public final class DurationArguments {
    private DurationArguments() {
    }

    /**
     * @param param the parameter's name, as a null is reported
     * @param what  the setting, as its error message names it ("the request timeout")
     * @throws IllegalArgumentException unless {@code d} is above zero
     */
    public static Duration positive(Duration d, String param, String what) {
        Objects.requireNonNull(d, param);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + d);
        }
        return d;
    }

    /**
     * @param param the parameter's name, as a null is reported
     * @param what  the setting, as its error message names it ("the failover window")
     * @throws IllegalArgumentException when {@code d} is below zero
     */
    public static Duration notNegative(Duration d, String param, String what) {
        Objects.requireNonNull(d, param);
        if (d.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative, got " + d);
        }
        return d;
    }
}
