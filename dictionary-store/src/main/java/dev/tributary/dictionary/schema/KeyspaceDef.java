package dev.tributary.dictionary.schema;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A keyspace: its replication options as written ({@code 'class': 'SimpleStrategy', ...}, order
 * kept) and whether its tables use tablets (ScyllaDB) rather than vnodes. Immutable.
 */
public record KeyspaceDef(String name, Map<String, String> replication, boolean tabletsEnabled) {
    public KeyspaceDef {
        SchemaRules.requireName("keyspace", name);
        replication = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(replication, "replication")));
    }

    /**
     * The number of replicas the keyspace asks for: {@code replication_factor} (SimpleStrategy, or
     * NetworkTopologyStrategy's shorthand), else the largest per-data-center factor (the cluster is
     * one data center), else 1.
     *
     * @throws IllegalArgumentException when a factor is not a whole number from 1 up
     */
    public int replicationFactor() {
        String rf = replication.get("replication_factor");
        if (rf != null) {
            return parseFactor("replication_factor", rf);
        }
        int max = 0;
        for (Map.Entry<String, String> e : replication.entrySet()) {
            if (!e.getKey().equals("class")) {
                max = Math.max(max, parseFactor(e.getKey(), e.getValue()));
            }
        }
        return max == 0 ? 1 : max;
    }

    private int parseFactor(String option, String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below says what was expected
        }
        throw new IllegalArgumentException("keyspace " + name + ": replication option '" + option
                + "' must be a whole number from 1 up, got '" + value + "'");
    }
}
