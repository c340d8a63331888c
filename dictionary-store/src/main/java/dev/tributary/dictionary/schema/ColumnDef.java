package dev.tributary.dictionary.schema;

import dev.tributary.dictionary.types.CqlType;
import java.util.Objects;

/**
 * A column of a table version.
 *
 * @param keyPosition index within the partition key or the clustering key; -1 for regular and
 *        static columns
 * @param columnNumber the internal number redo records use for the column: given once, when the
 *        column is created, and never reused by the table, even after the column is dropped
 * @param order the clustering order; always {@link ClusteringOrder#ASC} for columns that are not
 *        clustering columns
 */
public record ColumnDef(String name, CqlType type, ColumnKind kind, int keyPosition, int columnNumber,
        ClusteringOrder order) {
    public ColumnDef {
        SchemaRules.requireName("column", name);
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(order, "order");
        if (kind.isPrimaryKey() ? keyPosition < 0 : keyPosition != -1) {
            throw new IllegalArgumentException("column '" + name + "': key position " + keyPosition
                    + " does not fit a " + kind + " column");
        }
        if (columnNumber < 0) {
            throw new IllegalArgumentException("column '" + name + "': negative column number " + columnNumber);
        }
        if (kind != ColumnKind.CLUSTERING && order != ClusteringOrder.ASC) {
            throw new IllegalArgumentException("column '" + name + "': only clustering columns have a DESC order");
        }
    }

    /** A regular column. */
    public static ColumnDef regular(String name, CqlType type, int columnNumber) {
        return new ColumnDef(name, type, ColumnKind.REGULAR, -1, columnNumber, ClusteringOrder.ASC);
    }

    public boolean isPrimaryKey() {
        return kind.isPrimaryKey();
    }
}
