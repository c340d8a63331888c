package dev.tributary.cql.plan;

import dev.tributary.dictionary.schema.TableDef;
import java.util.List;
import java.util.Map;

/**
 * One modification statement, resolved and typed against the schema before it is committed.
 *
 * @param table          the table as resolved (the committer checks it still exists)
 * @param partitionKey   partition key values, in key order
 * @param clustering     clustering values: the full key for a row write, a prefix for a delete
 * @param rangeBound     for a clustering-range delete: the restriction on the next clustering column
 * @param cells          regular-column operations by column name (empty for row/partition deletes)
 * @param rowMarker      INSERT writes a row marker (the row exists even if all columns are NULL)
 * @param deleteRows     a row, partition or range delete
 * @param timestampMicros USING TIMESTAMP, or {@link Long#MIN_VALUE} for the commit time
 * @param ttlSeconds     USING TTL, 0 for none
 */
public record PlannedWrite(TableDef table, List<Object> partitionKey, List<Object> clustering, List<RangeBound> rangeBound,
        Map<String, CellOp> cells, boolean rowMarker, boolean deleteRows, long timestampMicros, int ttlSeconds) {

    /** A bound on one clustering column in a range delete, e.g. {@code ck > 3}. */
    public record RangeBound(int column, dev.tributary.cql.ast.Operator op, Object value) {
    }
}
