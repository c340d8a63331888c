package dev.tributary.dictionary.schema;

/** The role of a column in its table. */
public enum ColumnKind {
    PARTITION_KEY, CLUSTERING, REGULAR, STATIC;

    /** Partition key or clustering column. */
    public boolean isPrimaryKey() {
        return this == PARTITION_KEY || this == CLUSTERING;
    }
}
