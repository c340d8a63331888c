package dev.tributary.dictionary.schema;

/** The order rows are kept in within a partition, per clustering column. */
public enum ClusteringOrder {
    ASC, DESC
}
