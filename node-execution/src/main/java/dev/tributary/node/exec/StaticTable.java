package dev.tributary.node.exec;

import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;

/** A virtual table whose rows are computed on each read (system tables). */
public record StaticTable(String keyspace, String name, List<ResultColumn> columns, List<String> partitionKey,
        List<String> clusteringKey, Supplier<List<RowView>> rows) implements TableSource {
    @Override
    public Iterator<RowView> scan(ScanRange range) {
        return rows.get().iterator();
    }
}
