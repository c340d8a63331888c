package dev.tributary.client;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link ChangeConsumer} takes part in a consumer group.
 *
 * @param name           the group's name
 * @param lease          how long the member stays in the group without a heartbeat; zero for the node's default (10 s)
 * @param commitInterval how often handled positions and the low watermark are committed (and the
 *                       group's positions fetched again)
 */
record GroupSettings(String name, Duration lease, Duration commitInterval) {
    static final Duration DEFAULT_COMMIT_INTERVAL = Duration.ofMillis(750);

    GroupSettings {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.contains("/")) {
            throw new IllegalArgumentException("a group name must be non-empty and without '/', got '" + name + "'");
        }
        if (lease.isNegative() || commitInterval.isNegative() || commitInterval.isZero()) {
            throw new IllegalArgumentException("lease must not be negative and the commit interval must be positive");
        }
    }
}
