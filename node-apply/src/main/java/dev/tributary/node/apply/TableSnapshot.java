package dev.tributary.node.apply;

import com.google.common.collect.Iterators;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.exec.BaseTables;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.write.CommitPipeline;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * One table's rows as of one SCN, for dbms_streams_adm.instantiate_table and the
 * ReadTableSnapshot RPC (a change-stream reader's hand-over point). It is taken on the
 * committer thread between two commits, as a transaction of its own that writes nothing: every
 * transaction with a lower SCN is in it and none with a higher one, so a copy of it followed by
 * the changes committed after its SCN leaves no gap and no overlap.
 */
public final class TableSnapshot implements AutoCloseable {
    private final NodeStore.Snapshot snapshot;
    private final BaseTables tables;
    private final TableDef table;
    private final long scn;

    private TableSnapshot(NodeStore.Snapshot snapshot, BaseTables tables, TableDef table, long scn) {
        this.snapshot = snapshot;
        this.tables = tables;
        this.table = table;
        this.scn = scn;
    }

    /** Takes the snapshot of {@code owner.name} for instantiate_table; the caller closes it. */
    public static TableSnapshot take(CommitPipeline pipeline, NodeStore store, BaseTables tables,
            MultiversionDictionary dictionary, String owner, String name) {
        return take(pipeline, store, tables, dictionary, owner, name, "instantiate_table");
    }

    /**
     * Takes the snapshot of {@code owner.name}; the caller closes it. {@code what} names the
     * operation in the error for a table that does not exist.
     */
    public static TableSnapshot take(CommitPipeline pipeline, NodeStore store, BaseTables tables,
            MultiversionDictionary dictionary, String owner, String name, String what) {
        record Taken(NodeStore.Snapshot snapshot, TableDef table) {
        }
        CommitPipeline.Committed<Taken> c = pipeline.commit(ctx -> {
            // the table's definition as of the same instant: a column added later is not in the copy
            TableDef t = dictionary.latest().table(owner, name).orElseThrow(() -> new InvalidRequestException(
                    ErrorCode.NOT_FOUND, what + ": table " + owner + "." + name + " does not exist"));
            return new Taken(store.snapshot(), t);
        });
        return new TableSnapshot(c.result().snapshot(), tables, c.result().table(), c.scn());
    }

    /** The SCN the copy is as of: the instantiation SCN it hands over at. */
    public long scn() {
        return scn;
    }

    /** The columns, key columns first, as the destination creates them. */
    public List<CopyColumn> columns() {
        List<CopyColumn> out = new ArrayList<>();
        table.partitionKey().forEach(c -> out.add(new CopyColumn(c.name(), c.type(), CopyColumn.Kind.PARTITION_KEY)));
        table.clusteringKey().forEach(c -> out.add(new CopyColumn(c.name(), c.type(), CopyColumn.Kind.CLUSTERING)));
        table.regularColumns().forEach(c -> out.add(new CopyColumn(c.name(), c.type(), CopyColumn.Kind.REGULAR)));
        return out;
    }

    /**
     * How many live rows the copy will hold: a scan of the snapshot that decodes nothing, cheap
     * beside writing each row to the destination, so the copy can say how far it is.
     */
    public long countRows() {
        long n = 0;
        Iterator<BaseTables.KeyedRow> it = tables.scan(table, Long.MIN_VALUE, Long.MAX_VALUE, snapshot);
        while (it.hasNext()) {
            if (tables.live(it.next())) {
                n++;
            }
        }
        return n;
    }

    /** The live rows, each as its values by column name. */
    public Iterator<Map<String, Object>> rows() {
        return Iterators.transform(rowsAfter(null), TokenRow::values);
    }

    /** A live row with its token (Murmur3 of its partition key). */
    public record TokenRow(long token, Map<String, Object> values) {
    }

    /**
     * The live rows whose token is above {@code afterToken} (every row when null), in token order,
     * then partition key, then clustering order: a reader that stopped after a token goes on from
     * there.
     */
    public Iterator<TokenRow> rowsAfter(Long afterToken) {
        if (afterToken != null && afterToken == Long.MAX_VALUE) {
            return java.util.Collections.emptyIterator();
        }
        Iterator<BaseTables.KeyedRow> it = tables.scan(table, afterToken == null ? Long.MIN_VALUE : afterToken + 1,
                Long.MAX_VALUE, snapshot);
        return Iterators.transform(Iterators.filter(it, tables::live),
                r -> new TokenRow(r.key().token(), tables.view(table, r).values()));
    }

    @Override
    public void close() {
        snapshot.close();
    }
}
