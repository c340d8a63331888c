package dev.tributary.node.exec;

import java.util.Iterator;
import java.util.List;

/**
 * Something SELECT can read: a base table or a virtual table (system tables, CDC logs).
 * {@link #scan(ScanRange)} returns rows in the table's natural order (token, then clustering).
 */
public interface TableSource {
    String keyspace();

    String name();

    List<ResultColumn> columns();

    List<String> partitionKey();

    List<String> clusteringKey();

    /** Whether any WHERE restriction may be used without ALLOW FILTERING (virtual tables). */
    default boolean filteringAllowed() {
        return true;
    }

    Iterator<RowView> scan(ScanRange range);

    default ResultColumn column(String name) {
        for (ResultColumn c : columns()) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }
}
