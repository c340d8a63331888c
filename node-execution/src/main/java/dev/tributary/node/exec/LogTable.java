package dev.tributary.node.exec;

import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;

/**
 * A virtual table over a log (a CDC log or a queue): partitioned by {@code cdc$stream_id},
 * clustered by {@code cdc$time} and {@code cdc$batch_seq_no}, read in log order.
 */
record LogTable(String keyspace, String name, List<ResultColumn> columns, Supplier<Iterator<RowView>> rows)
        implements TableSource {
    @Override
    public List<String> partitionKey() {
        return List.of("cdc$stream_id");
    }

    @Override
    public List<String> clusteringKey() {
        return List.of("cdc$time", "cdc$batch_seq_no");
    }

    @Override
    public Iterator<RowView> scan(ScanRange range) {
        return rows.get();
    }
}
