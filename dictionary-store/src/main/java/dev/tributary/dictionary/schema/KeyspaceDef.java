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
}
