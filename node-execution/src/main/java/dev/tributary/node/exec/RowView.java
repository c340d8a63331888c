package dev.tributary.node.exec;

import java.util.Map;

/**
 * One row as a query sees it: values by column name (NULL columns absent or null), the write
 * time and remaining TTL of regular cells, and the partition's token.
 */
public record RowView(Map<String, Object> values, Map<String, Long> writeTimes, Map<String, Integer> ttls, long token) {
    public Object get(String column) {
        return values.get(column);
    }
}
