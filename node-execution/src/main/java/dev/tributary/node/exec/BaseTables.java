package dev.tributary.node.exec;

import com.google.common.collect.Iterators;
import dev.tributary.dictionary.schema.ClusteringOrder;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.types.ValueCodec;
import dev.tributary.dictionary.types.ValueComparator;
import dev.tributary.generations.Murmur3Partitioner;
import dev.tributary.generations.PartitionKeys;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.storage.StoredRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.LongSupplier;
import dev.tributary.node.storage.StoreIterator;

/**
 * Reading base rows of a table from the {@code rows} column family, and the key arithmetic the
 * write path shares with it. Rows of one partition are returned in clustering order (the
 * stored keys are not: serialized values do not sort by CQL order).
 */
public final class BaseTables {
    private final NodeStore store;
    private final LongSupplier nowMillis;

    public BaseTables(NodeStore store, LongSupplier nowMillis) {
        this.store = store;
        this.nowMillis = nowMillis;
    }

    /** A partition key given as values, encoded: the bytes the token is computed from. */
    public static byte[] partitionKeyBytes(TableDef t, List<Object> values) {
        List<ColumnDef> pk = t.partitionKey();
        List<byte[]> parts = new ArrayList<>(pk.size());
        for (int i = 0; i < pk.size(); i++) {
            parts.add(ValueCodec.encode(pk.get(i).type(), values.get(i)));
        }
        return PartitionKeys.serialize(parts);
    }

    public static List<byte[]> clusteringBytes(TableDef t, List<Object> values) {
        List<ColumnDef> ck = t.clusteringKey();
        List<byte[]> parts = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            parts.add(ValueCodec.encode(ck.get(i).type(), values.get(i)));
        }
        return parts;
    }

    public static long token(byte[] partitionKey) {
        return Murmur3Partitioner.token(partitionKey);
    }

    /** Orders rows of a partition by their clustering values, honouring DESC columns. */
    public static Comparator<List<Object>> clusteringOrder(TableDef t) {
        List<ColumnDef> ck = t.clusteringKey();
        List<Comparator<Object>> cmps = new ArrayList<>();
        for (ColumnDef c : ck) {
            Comparator<Object> cmp = ValueComparator.of(c.type());
            cmps.add(c.order() == ClusteringOrder.DESC ? cmp.reversed() : cmp);
        }
        return (a, b) -> {
            for (int i = 0; i < cmps.size(); i++) {
                int r = cmps.get(i).compare(a.get(i), b.get(i));
                if (r != 0) {
                    return r;
                }
            }
            return 0;
        };
    }

    /** A stored row with its key decoded. */
    public record KeyedRow(Keys.RowKey key, List<Object> partitionValues, List<Object> clusteringValues, StoredRow row) {
    }

    /** The rows of one partition, in clustering order. */
    public List<KeyedRow> partition(TableDef t, byte[] partitionKey) {
        long token = token(partitionKey);
        byte[] prefix = Keys.partitionPrefix(t.objectNumber(), token, partitionKey);
        List<KeyedRow> rows = new ArrayList<>();
        try (StoreIterator it = store.iterator(NodeStore.Family.ROWS)) {
            for (it.seek(prefix); it.isValid() && Keys.hasPrefix(it.key(), prefix); it.next()) {
                Keys.RowKey k = Keys.decodeRowKey(it.key());
                if (k.partitionKey().length == partitionKey.length) {
                    rows.add(decode(t, k, StoredRow.decode(it.value())));
                }
            }
        }
        sortPartition(t, rows);
        return rows;
    }

    private static void sortPartition(TableDef t, List<KeyedRow> rows) {
        if (rows.size() > 1 && !t.clusteringKey().isEmpty()) {
            Comparator<List<Object>> cmp = clusteringOrder(t);
            rows.sort((a, b) -> cmp.compare(a.clusteringValues(), b.clusteringValues()));
        }
    }

    private static KeyedRow decode(TableDef t, Keys.RowKey k, StoredRow row) {
        return new KeyedRow(k, decodePartitionKey(t, k.partitionKey()), decodeClustering(t, k.clustering()), row);
    }

    public static List<Object> decodePartitionKey(TableDef t, byte[] pk) {
        List<ColumnDef> cols = t.partitionKey();
        List<byte[]> parts = cols.size() == 1 ? List.of(pk) : PartitionKeys.deserialize(pk, cols.size());
        List<Object> out = new ArrayList<>(cols.size());
        for (int i = 0; i < cols.size(); i++) {
            out.add(ValueCodec.decode(cols.get(i).type(), parts.get(i)));
        }
        return out;
    }

    static List<Object> decodeClustering(TableDef t, List<byte[]> parts) {
        List<ColumnDef> cols = t.clusteringKey();
        List<Object> out = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            out.add(ValueCodec.decode(cols.get(i).type(), parts.get(i)));
        }
        return out;
    }

    /** Every row of the table with a token in [min, max], partition by partition in token order. */
    public Iterator<KeyedRow> scan(TableDef t, long minToken, long maxToken) {
        return scan(t, minToken, maxToken, null);
    }

    /** {@link #scan(TableDef, long, long)} through a snapshot of the store (null: the store as it is). */
    public Iterator<KeyedRow> scan(TableDef t, long minToken, long maxToken, NodeStore.Snapshot snapshot) {
        return new Iterator<>() {
            private final StoreIterator it = snapshot == null ? store.iterator(NodeStore.Family.ROWS)
                    : store.iterator(NodeStore.Family.ROWS, snapshot.readOptions());
            private final byte[] tablePrefix = Keys.tablePrefix(t.objectNumber());
            private final List<KeyedRow> buffer = new ArrayList<>();
            private int next;
            private boolean done;

            {
                it.seek(Keys.tokenBound(t.objectNumber(), minToken));
            }

            private void fill() {
                while (next >= buffer.size() && !done) {
                    buffer.clear();
                    next = 0;
                    if (!it.isValid() || !Keys.hasPrefix(it.key(), tablePrefix)) {
                        close();
                        return;
                    }
                    Keys.RowKey first = Keys.decodeRowKey(it.key());
                    if (first.token() > maxToken) {
                        close();
                        return;
                    }
                    while (it.isValid() && Keys.hasPrefix(it.key(), tablePrefix)) {
                        Keys.RowKey k = Keys.decodeRowKey(it.key());
                        if (k.token() != first.token() || !java.util.Arrays.equals(k.partitionKey(), first.partitionKey())) {
                            break;
                        }
                        buffer.add(decode(t, k, StoredRow.decode(it.value())));
                        it.next();
                    }
                    sortPartition(t, buffer);
                }
            }

            private void close() {
                if (!done) {
                    done = true;
                    it.close();
                }
            }

            @Override
            public boolean hasNext() {
                fill();
                return next < buffer.size();
            }

            @Override
            public KeyedRow next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return buffer.get(next++);
            }
        };
    }

    /** The query view of a stored row: live values by name, write times and remaining TTLs. */
    public RowView view(TableDef t, KeyedRow r) {
        long now = nowMillis.getAsLong();
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, Long> writeTimes = new HashMap<>();
        Map<String, Integer> ttls = new HashMap<>();
        List<ColumnDef> pk = t.partitionKey();
        for (int i = 0; i < pk.size(); i++) {
            values.put(pk.get(i).name(), r.partitionValues().get(i));
        }
        List<ColumnDef> ck = t.clusteringKey();
        for (int i = 0; i < ck.size() && i < r.clusteringValues().size(); i++) {
            values.put(ck.get(i).name(), r.clusteringValues().get(i));
        }
        for (ColumnDef c : t.regularColumns()) {
            StoredRow.Cell cell = r.row().cells().get(c.columnNumber());
            if (cell != null && cell.liveAt(now) && cell.value() != null) {
                values.put(c.name(), ValueCodec.decode(c.type(), cell.value()));
                writeTimes.put(c.name(), cell.writeTime());
                if (cell.expiryMillis() != 0) {
                    ttls.put(c.name(), (int) Math.max(1, (cell.expiryMillis() - now + 999) / 1000));
                }
            }
        }
        return new RowView(values, writeTimes, ttls, r.key().token());
    }

    public boolean live(KeyedRow r) {
        return r.row().liveAt(nowMillis.getAsLong());
    }

    /** A {@link TableSource} over a base table. */
    public TableSource source(TableDef t) {
        List<ResultColumn> cols = new ArrayList<>();
        for (ColumnDef c : t.partitionKey()) {
            cols.add(new ResultColumn(c.name(), c.type()));
        }
        for (ColumnDef c : t.clusteringKey()) {
            cols.add(new ResultColumn(c.name(), c.type()));
        }
        for (ColumnDef c : t.regularColumns()) {
            cols.add(new ResultColumn(c.name(), c.type()));
        }
        List<String> pkNames = t.partitionKey().stream().map(ColumnDef::name).toList();
        List<String> ckNames = t.clusteringKey().stream().map(ColumnDef::name).toList();
        return new TableSource() {
            @Override
            public String keyspace() {
                return t.keyspace();
            }

            @Override
            public String name() {
                return t.name();
            }

            @Override
            public List<ResultColumn> columns() {
                return cols;
            }

            @Override
            public List<String> partitionKey() {
                return pkNames;
            }

            @Override
            public List<String> clusteringKey() {
                return ckNames;
            }

            @Override
            public boolean filteringAllowed() {
                return false;
            }

            @Override
            public Iterator<RowView> scan(ScanRange range) {
                if (range.byPartition()) {
                    List<RowView> out = new ArrayList<>();
                    List<byte[]> keys = new ArrayList<>();
                    for (List<Object> p : range.partitions()) {
                        keys.add(partitionKeyBytes(t, p));
                    }
                    // partitions come back in token order, as a multi-partition read does in Cassandra
                    keys.sort(Comparator.comparingLong(BaseTables::token));
                    for (byte[] k : keys) {
                        for (KeyedRow r : partition(t, k)) {
                            if (live(r)) {
                                out.add(view(t, r));
                            }
                        }
                    }
                    return out.iterator();
                }
                Iterator<KeyedRow> live = Iterators.filter(BaseTables.this.scan(t, range.minToken(), range.maxToken()),
                        BaseTables.this::live);
                return Iterators.transform(live, r -> view(t, r));
            }
        };
    }
}
