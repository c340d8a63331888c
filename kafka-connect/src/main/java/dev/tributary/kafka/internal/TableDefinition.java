package dev.tributary.kafka.internal;

import dev.tributary.client.CqlTypeName;
import java.util.List;
import java.util.Objects;

/**
 * A table's columns as the dictionary has them: primary key columns first (partition key, then
 * clustering, each in key order), then the regular columns. Immutable.
 */
public record TableDefinition(String keyspace, String table, List<Column> columns) {
    public TableDefinition {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
    }

    public enum Kind { PARTITION_KEY, CLUSTERING, REGULAR }

    public record Column(String name, CqlTypeName type, Kind kind) {
        public Column {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(kind, "kind");
        }

        public boolean primaryKey() {
            return kind != Kind.REGULAR;
        }
    }

    public String qualifiedName() {
        return keyspace + "." + table;
    }

    /** Where a table's current definition comes from; thread-safe. */
    @FunctionalInterface
    public interface Source {
        /** The table's latest definition; throws when the table does not exist or cannot be read. */
        TableDefinition load(String keyspace, String table);
    }
}
