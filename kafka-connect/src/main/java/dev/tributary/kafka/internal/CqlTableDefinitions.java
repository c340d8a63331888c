package dev.tributary.kafka.internal;

import dev.tributary.client.CqlTypeName;
import dev.tributary.client.Row;
import dev.tributary.client.TributaryClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Table definitions from {@code system_schema.columns} (Cassandra 3.0's shape, as drivers read
 * it), through the SDK. Thread-safe as the client is.
 */
public final class CqlTableDefinitions implements TableDefinition.Source {
    private final TributaryClient client;

    public CqlTableDefinitions(TributaryClient client) {
        this.client = client;
    }

    @Override
    public TableDefinition load(String keyspace, String table) {
        List<Row> rows = client.execute("SELECT column_name, kind, position, type FROM system_schema.columns "
                + "WHERE keyspace_name = ? AND table_name = ?", keyspace, table).all();
        if (rows.isEmpty()) {
            throw new ConnectException("table " + keyspace + "." + table + " does not exist (no columns in "
                    + "system_schema.columns)");
        }
        record Entry(String name, TableDefinition.Kind kind, int position, CqlTypeName type) {
        }
        List<Entry> entries = new ArrayList<>();
        for (Row r : rows) {
            TableDefinition.Kind kind = switch (r.getString("kind")) {
                case "partition_key" -> TableDefinition.Kind.PARTITION_KEY;
                case "clustering" -> TableDefinition.Kind.CLUSTERING;
                default -> TableDefinition.Kind.REGULAR; // regular and static
            };
            entries.add(new Entry(r.getString("column_name"), kind, r.getInt("position"),
                    CqlTypeName.parse(r.getString("type"))));
        }
        entries.sort(Comparator.comparing(Entry::kind).thenComparingInt(Entry::position).thenComparing(Entry::name));
        List<TableDefinition.Column> columns = new ArrayList<>();
        for (Entry e : entries) {
            columns.add(new TableDefinition.Column(e.name(), e.type(), e.kind()));
        }
        return new TableDefinition(keyspace, table, columns);
    }
}
