package dev.tributary.cql.ast;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code CREATE TABLE [IF NOT EXISTS] [ks.]t (col type [STATIC] [PRIMARY KEY], ...,
 * [PRIMARY KEY ((p1, p2), c1, c2)]) [WITH CLUSTERING ORDER BY (c1 DESC) AND prop = value ...]}.
 *
 * <p>The parser guarantees: column names are distinct; exactly one primary key was given and each
 * key column is defined; {@link #partitionKey()} is not empty; static columns are not key columns
 * and exist only when there are clustering columns. {@link #clusteringOrder()} holds every
 * clustering column, in clustering order, with its effective order ({@code ASC} unless
 * {@code CLUSTERING ORDER BY} said otherwise). {@link #properties()} are the other {@code WITH}
 * options (lowercased names, in the order written), e.g. {@code cdc} and {@code tablets}.
 */
public record CreateTable(boolean ifNotExists, QualifiedName name, List<ColumnSpec> columns,
                          List<String> partitionKey, List<String> clusteringKey, Map<String, Order> clusteringOrder,
                          Map<String, Term> properties) implements Statement {
    public CreateTable {
        Objects.requireNonNull(name, "name");
        columns = List.copyOf(columns);
        partitionKey = List.copyOf(partitionKey);
        clusteringKey = List.copyOf(clusteringKey);
        clusteringOrder = Properties.copy(clusteringOrder);
        properties = Properties.copy(properties);
    }
}
