package dev.tributary.dictionary.schema;

import dev.tributary.dictionary.errors.AlreadyExistsException;
import dev.tributary.dictionary.errors.InvalidSchemaException;
import dev.tributary.dictionary.errors.UnknownColumnException;
import dev.tributary.dictionary.types.CqlType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One version of a table's definition, as the data dictionary keeps it. Redo records name the
 * table by its {@link #objectNumber()} and columns by their {@link ColumnDef#columnNumber()};
 * numbers are never reused, so a record is decoded correctly with the version in force when it
 * was written even after columns were dropped and added.
 *
 * <p>Immutable and thread-safe; the {@code with...} methods return a new version. It is a final
 * class with record-style accessors rather than a record so that the key lists and the
 * name / number indexes are computed once, not on every lookup of the write path. Equality is by
 * the six components.
 *
 * <p>The constructor checks the invariants (names and numbers unique, numbers below
 * {@code nextColumnNumber}, key positions 0..n-1, at least one partition key column, key and
 * counter rules) and throws {@link InvalidSchemaException} naming the table.
 */
public final class TableDef {
    private final String keyspace;
    private final String name;
    private final long objectNumber;
    private final List<ColumnDef> columns;
    private final TableOptions options;
    private final int nextColumnNumber;

    private final List<ColumnDef> partitionKey;
    private final List<ColumnDef> clusteringKey;
    private final List<ColumnDef> regularColumns;
    private final List<ColumnDef> staticColumns;
    private final List<ColumnDef> primaryKeyColumns;
    private final Map<String, ColumnDef> byName;
    private final ColumnDef[] byNumber;
    private final boolean counterTable;

    /**
     * @param columns in definition order (the order of {@code CREATE TABLE}, added columns last)
     * @param nextColumnNumber the number the next added column gets; above every number ever used
     */
    public TableDef(String keyspace, String name, long objectNumber, List<ColumnDef> columns, TableOptions options,
            int nextColumnNumber) {
        SchemaRules.requireName("keyspace", keyspace);
        SchemaRules.requireName("table", name);
        this.keyspace = keyspace;
        this.name = name;
        this.objectNumber = objectNumber;
        this.columns = List.copyOf(columns);
        this.options = Objects.requireNonNull(options, "options");
        this.nextColumnNumber = nextColumnNumber;
        String table = keyspace + "." + name;
        if (objectNumber < 0) {
            throw new InvalidSchemaException("table " + table + ": negative object number " + objectNumber);
        }

        Map<String, ColumnDef> names = new HashMap<>();
        ColumnDef[] numbers = new ColumnDef[Math.max(nextColumnNumber, 0)];
        List<ColumnDef> pk = new ArrayList<>();
        List<ColumnDef> ck = new ArrayList<>();
        List<ColumnDef> regular = new ArrayList<>();
        List<ColumnDef> statics = new ArrayList<>();
        for (ColumnDef c : this.columns) {
            if (names.putIfAbsent(c.name(), c) != null) {
                throw new InvalidSchemaException("duplicate column '" + c.name() + "' in table " + table);
            }
            if (c.columnNumber() >= nextColumnNumber) {
                throw new InvalidSchemaException("column '" + c.name() + "' of table " + table + " has number "
                        + c.columnNumber() + ", not below the next column number " + nextColumnNumber);
            }
            if (numbers[c.columnNumber()] != null) {
                throw new InvalidSchemaException("columns '" + numbers[c.columnNumber()].name() + "' and '" + c.name()
                        + "' of table " + table + " share column number " + c.columnNumber());
            }
            numbers[c.columnNumber()] = c;
            switch (c.kind()) {
                case PARTITION_KEY -> pk.add(c);
                case CLUSTERING -> ck.add(c);
                case REGULAR -> regular.add(c);
                case STATIC -> statics.add(c);
            }
            SchemaRules.checkColumnType("column '" + c.name() + "' of table " + table, c.type(), c.kind());
        }
        if (pk.isEmpty()) {
            throw new InvalidSchemaException("table " + table + " has no partition key column");
        }
        pk.sort((a, b) -> Integer.compare(a.keyPosition(), b.keyPosition()));
        ck.sort((a, b) -> Integer.compare(a.keyPosition(), b.keyPosition()));
        requirePositions(table, "partition key", pk);
        requirePositions(table, "clustering key", ck);
        if (!statics.isEmpty() && ck.isEmpty()) {
            throw new InvalidSchemaException("table " + table + " has static column '" + statics.get(0).name()
                    + "' but no clustering column; static columns need a clustering key");
        }
        boolean counters = false;
        String nonCounter = null;
        for (ColumnDef c : this.columns) {
            if (!c.isPrimaryKey()) {
                if (SchemaRules.isCounter(c.type())) {
                    counters = true;
                } else if (nonCounter == null) {
                    nonCounter = c.name();
                }
            }
        }
        if (counters && nonCounter != null) {
            throw new InvalidSchemaException("table " + table + " mixes counter and non-counter columns ('"
                    + nonCounter + "' is not a counter); a counter table holds only counters besides its key");
        }
        if (counters && options.cdc().enabled()) {
            throw new InvalidSchemaException("table " + table + ": CDC is not supported on a counter table");
        }
        this.counterTable = counters;
        this.partitionKey = Collections.unmodifiableList(pk);
        this.clusteringKey = Collections.unmodifiableList(ck);
        this.regularColumns = Collections.unmodifiableList(regular);
        this.staticColumns = Collections.unmodifiableList(statics);
        List<ColumnDef> all = new ArrayList<>(pk);
        all.addAll(ck);
        this.primaryKeyColumns = Collections.unmodifiableList(all);
        this.byName = names;
        this.byNumber = numbers;
    }

    private static void requirePositions(String table, String what, List<ColumnDef> key) {
        for (int i = 0; i < key.size(); i++) {
            if (key.get(i).keyPosition() != i) {
                throw new InvalidSchemaException("table " + table + ": " + what + " positions must be 0.."
                        + (key.size() - 1) + ", column '" + key.get(i).name() + "' has " + key.get(i).keyPosition());
            }
        }
    }

    /**
     * Builds a new table from a {@code CREATE TABLE}: columns are numbered 0..n-1 in the order
     * given; key columns take their kind and position from the key lists; {@code orders} gives
     * clustering orders (ASC when absent).
     *
     * @throws UnknownColumnException if a key column or an ordered column is not among the columns
     * @throws InvalidSchemaException for a duplicate column, a column twice in the key, no
     *         partition key, an ordered column that is not a clustering column, a static key
     *         column, or a type not allowed where it is used
     */
    public static TableDef create(String keyspace, String name, long objectNumber, List<ColumnSpec> columns,
            List<String> partitionKeyNames, List<String> clusteringKeyNames, Map<String, ClusteringOrder> orders,
            TableOptions options) {
        String table = keyspace + "." + name;
        Map<String, ColumnSpec> specs = new HashMap<>();
        for (ColumnSpec s : columns) {
            if (specs.putIfAbsent(s.name(), s) != null) {
                throw new InvalidSchemaException("duplicate column '" + s.name() + "' in table " + table);
            }
        }
        if (partitionKeyNames.isEmpty()) {
            throw new InvalidSchemaException("table " + table + " has no partition key column");
        }
        Map<String, Integer> pkPos = positions(keyspace, name, specs, partitionKeyNames, new HashSet<>());
        Set<String> inKey = new HashSet<>(pkPos.keySet());
        Map<String, Integer> ckPos = positions(keyspace, name, specs, clusteringKeyNames, inKey);
        for (Map.Entry<String, ClusteringOrder> o : orders.entrySet()) {
            if (!specs.containsKey(o.getKey())) {
                throw new UnknownColumnException(keyspace, name, o.getKey());
            }
            if (!ckPos.containsKey(o.getKey())) {
                throw new InvalidSchemaException("column '" + o.getKey() + "' of table " + table
                        + " has a clustering order but is not a clustering column");
            }
        }
        List<ColumnDef> defs = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            ColumnSpec s = columns.get(i);
            Integer p = pkPos.get(s.name());
            Integer c = ckPos.get(s.name());
            if (s.isStatic() && (p != null || c != null)) {
                throw new InvalidSchemaException("column '" + s.name() + "' of table " + table
                        + " is in the primary key and cannot be static");
            }
            ColumnDef d;
            if (p != null) {
                d = new ColumnDef(s.name(), s.type(), ColumnKind.PARTITION_KEY, p, i, ClusteringOrder.ASC);
            } else if (c != null) {
                d = new ColumnDef(s.name(), s.type(), ColumnKind.CLUSTERING, c, i,
                        orders.getOrDefault(s.name(), ClusteringOrder.ASC));
            } else {
                d = new ColumnDef(s.name(), s.type(), s.isStatic() ? ColumnKind.STATIC : ColumnKind.REGULAR, -1, i,
                        ClusteringOrder.ASC);
            }
            defs.add(d);
        }
        return new TableDef(keyspace, name, objectNumber, defs, options, columns.size());
    }

    private static Map<String, Integer> positions(String keyspace, String name, Map<String, ColumnSpec> specs,
            List<String> keyNames, Set<String> alreadyInKey) {
        Map<String, Integer> pos = new HashMap<>();
        for (int i = 0; i < keyNames.size(); i++) {
            String k = keyNames.get(i);
            if (!specs.containsKey(k)) {
                throw new UnknownColumnException(keyspace, name, k);
            }
            if (!alreadyInKey.add(k) || pos.putIfAbsent(k, i) != null) {
                throw new InvalidSchemaException("column '" + k + "' appears twice in the primary key of table "
                        + keyspace + "." + name);
            }
        }
        return pos;
    }

    // ---------------------------------------------------------------- components

    public String keyspace() {
        return keyspace;
    }

    public String name() {
        return name;
    }

    /** The table's number in redo records; never reused by another table. */
    public long objectNumber() {
        return objectNumber;
    }

    /** Every column, in definition order. */
    public List<ColumnDef> columns() {
        return columns;
    }

    public TableOptions options() {
        return options;
    }

    /** The number the next added column gets. */
    public int nextColumnNumber() {
        return nextColumnNumber;
    }

    // ---------------------------------------------------------------- derived

    /** {@code keyspace.name}. */
    public String qualifiedName() {
        return keyspace + "." + name;
    }

    /** Partition key columns by key position. */
    public List<ColumnDef> partitionKey() {
        return partitionKey;
    }

    /** Clustering columns by key position. */
    public List<ColumnDef> clusteringKey() {
        return clusteringKey;
    }

    /** Partition key then clustering key. */
    public List<ColumnDef> primaryKeyColumns() {
        return primaryKeyColumns;
    }

    /** Regular (non-key, non-static) columns in definition order. */
    public List<ColumnDef> regularColumns() {
        return regularColumns;
    }

    /** Static columns in definition order. */
    public List<ColumnDef> staticColumns() {
        return staticColumns;
    }

    /** True if the non-key columns are counters. */
    public boolean isCounterTable() {
        return counterTable;
    }

    public Optional<ColumnDef> column(String columnName) {
        return Optional.ofNullable(byName.get(columnName));
    }

    /** @throws UnknownColumnException if the table has no such column */
    public ColumnDef requireColumn(String columnName) {
        ColumnDef c = byName.get(columnName);
        if (c == null) {
            throw new UnknownColumnException(keyspace, name, columnName);
        }
        return c;
    }

    /** The live column with that internal number; empty for a dropped or never-used number. */
    public Optional<ColumnDef> columnByNumber(int columnNumber) {
        return columnNumber >= 0 && columnNumber < byNumber.length ? Optional.ofNullable(byNumber[columnNumber])
                : Optional.empty();
    }

    // ---------------------------------------------------------------- changes

    /** {@code ALTER TABLE ADD name type}: a regular column with the next column number. */
    public TableDef withColumnAdded(String columnName, CqlType type) {
        return withColumnAdded(columnName, type, false);
    }

    /**
     * {@code ALTER TABLE ADD name type [static]}: the column gets {@link #nextColumnNumber()}.
     *
     * @throws AlreadyExistsException if the table has a column of that name
     * @throws InvalidSchemaException if the type is not allowed (a counter in a non-counter table
     *         or the reverse, a static column without clustering key, ...)
     */
    public TableDef withColumnAdded(String columnName, CqlType type, boolean isStatic) {
        if (byName.containsKey(columnName)) {
            throw AlreadyExistsException.column(keyspace, name, columnName);
        }
        if (nextColumnNumber == Integer.MAX_VALUE) {
            throw new InvalidSchemaException("table " + qualifiedName() + " has used every column number");
        }
        List<ColumnDef> next = new ArrayList<>(columns);
        next.add(new ColumnDef(columnName, type, isStatic ? ColumnKind.STATIC : ColumnKind.REGULAR, -1,
                nextColumnNumber, ClusteringOrder.ASC));
        return new TableDef(keyspace, name, objectNumber, next, options, nextColumnNumber + 1);
    }

    /**
     * {@code ALTER TABLE DROP name}. The column's number stays used: {@link #nextColumnNumber()}
     * does not go back, so a column added later gets another number.
     *
     * @throws UnknownColumnException if the table has no such column
     * @throws InvalidSchemaException for a primary key column
     */
    public TableDef withColumnDropped(String columnName) {
        ColumnDef c = requireColumn(columnName);
        if (c.isPrimaryKey()) {
            throw new InvalidSchemaException("cannot drop primary key column '" + columnName + "' of table "
                    + qualifiedName());
        }
        List<ColumnDef> next = new ArrayList<>(columns.size() - 1);
        for (ColumnDef d : columns) {
            if (d != c) {
                next.add(d);
            }
        }
        return new TableDef(keyspace, name, objectNumber, next, options, nextColumnNumber);
    }

    /** {@code ALTER TABLE WITH ...}. */
    public TableDef withOptions(TableOptions newOptions) {
        return new TableDef(keyspace, name, objectNumber, columns, newOptions, nextColumnNumber);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableDef t && objectNumber == t.objectNumber && nextColumnNumber == t.nextColumnNumber
                && keyspace.equals(t.keyspace) && name.equals(t.name) && columns.equals(t.columns)
                && options.equals(t.options);
    }

    @Override
    public int hashCode() {
        return Objects.hash(keyspace, name, objectNumber, columns, options, nextColumnNumber);
    }

    @Override
    public String toString() {
        return "TableDef[" + qualifiedName() + " #" + objectNumber + ", columns=" + columns + ", options=" + options
                + ", nextColumnNumber=" + nextColumnNumber + "]";
    }
}
