package dev.tributary.client;

import java.time.Duration;

/**
 * How long to wait before calling a node again after its call failed: doubling from {@code initial}
 * up to {@code max}, back to {@code initial} once the node answers. A value, so that the policy
 * can be tested without a clock or a channel.
 *
 * @param delay   the wait before the next attempt
 * @param initial the wait after the first failure, and after a success
 * @param max     the longest wait: a node back from a restart is read again within it
 */
record Backoff(Duration delay, Duration initial, Duration max) {
    /** The consumer's per-node reconnects: quick after a blip, at most 5 s behind a restarted node. */
    static final Backoff READS = start(Duration.ofMillis(200), Duration.ofSeconds(5));

    Backoff {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0 || delay.compareTo(max) > 0) {
            throw new IllegalArgumentException("need 0 < initial <= max and delay <= max, got " + initial + ", " + max
                    + ", " + delay);
        }
    }

    static Backoff start(Duration initial, Duration max) {
        return new Backoff(initial, initial, max);
    }

    /** The backoff after another failure. */
    Backoff next() {
        Duration doubled = delay.multipliedBy(2);
        return new Backoff(doubled.compareTo(max) > 0 ? max : doubled, initial, max);
    }

    /** The backoff after a success. */
    Backoff reset() {
        return new Backoff(initial, initial, max);
    }
}
