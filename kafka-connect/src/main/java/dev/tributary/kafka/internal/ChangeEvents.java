package dev.tributary.kafka.internal;

import dev.tributary.client.ChangeRecord;
import dev.tributary.client.LcrPosition;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Turns one table's row LCRs into Kafka Connect records in Debezium's change-event envelope:
 * key = the primary key, value = {@code before}, {@code after}, {@code source}, {@code op},
 * {@code ts_ms}, {@code transaction}; a delete is followed by a tombstone when asked. The Connect
 * schemas come from the table's definition. A column the schema does not know yet (an
 * {@code ALTER TABLE ... ADD} since) makes it read the definition again and build the next
 * schema version; columns are never taken out of the schema, so every version reads the ones
 * before it (a dropped column is null from then on). Not thread-safe: one per table per task,
 * used on the consumer's worker thread.
 */
public final class ChangeEvents {
    public static final String CONNECTOR = "tributary";
    public static final String SOURCE_SCHEMA_NAME = "dev.tributary.kafka.Source";
    public static final String TRANSACTION_SCHEMA_NAME = "event.block";
    static final Schema TRANSACTION_SCHEMA = SchemaBuilder.struct().name(TRANSACTION_SCHEMA_NAME).version(1).optional()
            .field("id", Schema.STRING_SCHEMA)
            .field("total_order", Schema.INT64_SCHEMA)
            .field("data_collection_order", Schema.INT64_SCHEMA)
            .build();
    static final Schema SOURCE_SCHEMA = SchemaBuilder.struct().name(SOURCE_SCHEMA_NAME).version(1)
            .field("version", Schema.STRING_SCHEMA)
            .field("connector", Schema.STRING_SCHEMA)
            .field("name", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .field("snapshot", Schema.OPTIONAL_STRING_SCHEMA)
            .field("db", Schema.OPTIONAL_STRING_SCHEMA)
            .field("keyspace", Schema.STRING_SCHEMA)
            .field("table", Schema.STRING_SCHEMA)
            .field("scn", Schema.INT64_SCHEMA)
            .field("commit_scn", Schema.INT64_SCHEMA)
            .field("txId", Schema.OPTIONAL_STRING_SCHEMA)
            .field("stream_id", Schema.OPTIONAL_STRING_SCHEMA)
            .field("generation", Schema.OPTIONAL_INT64_SCHEMA)
            .field("time", Schema.OPTIONAL_STRING_SCHEMA)
            .field("batch_seq_no", Schema.OPTIONAL_INT32_SCHEMA)
            .build();

    public static final String SCHEMA_CHANGE_KEY_NAME = "dev.tributary.kafka.SchemaChangeKey";
    public static final String SCHEMA_CHANGE_VALUE_NAME = "dev.tributary.kafka.SchemaChangeValue";
    static final Schema SCHEMA_CHANGE_KEY = SchemaBuilder.struct().name(SCHEMA_CHANGE_KEY_NAME).version(1)
            .field("keyspace", Schema.STRING_SCHEMA)
            .build();
    static final Schema SCHEMA_CHANGE_VALUE = SchemaBuilder.struct().name(SCHEMA_CHANGE_VALUE_NAME).version(1)
            .field("source", SOURCE_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .field("keyspace", Schema.STRING_SCHEMA)
            .field("table", Schema.STRING_SCHEMA)
            .field("command_type", Schema.STRING_SCHEMA)
            .field("ddl", Schema.OPTIONAL_STRING_SCHEMA)
            .field("schema_version", Schema.INT32_SCHEMA)
            .build();

    private final String topicPrefix;
    private final String version;
    private final String keyspace;
    private final String table;
    private final String topic;
    private final TableDefinition.Source definitions;
    private final boolean tombstones;
    private final Clock clock;
    private final List<TableDefinition.Column> columns = new ArrayList<>();
    private final Set<String> known = new HashSet<>();
    private int schemaVersion;
    private Schema keySchema;
    private Schema rowSchema;
    private Schema envelopeSchema;

    public ChangeEvents(String topicPrefix, String connectorVersion, String keyspace, String table,
            TableDefinition.Source definitions, boolean tombstones, Clock clock) {
        this(topicPrefix, connectorVersion, keyspace, table, definitions, tombstones, clock,
                topicPrefix + "." + keyspace + "." + table);
    }

    /** @param topic where the events go: a queue's tables share {@code <prefix>.<queue>}, each with its own schemas */
    public ChangeEvents(String topicPrefix, String connectorVersion, String keyspace, String table,
            TableDefinition.Source definitions, boolean tombstones, Clock clock, String topic) {
        this.topicPrefix = topicPrefix;
        this.version = connectorVersion;
        this.keyspace = keyspace;
        this.table = table;
        this.topic = topic;
        this.definitions = definitions;
        this.tombstones = tombstones;
        this.clock = clock;
        merge(definitions.load(keyspace, table));
    }

    public String topic() {
        return topic;
    }

    public int schemaVersion() {
        return schemaVersion;
    }

    public Schema keySchema() {
        return keySchema;
    }

    public Schema envelopeSchema() {
        return envelopeSchema;
    }

    /** A DDL LCR of the table went by: read its definition again (a new schema version if columns came). */
    public void definitionChanged() {
        merge(definitions.load(keyspace, table));
    }

    /**
     * A DDL LCR of this table as Debezium's schema-change event, on {@code schemaTopic}: the
     * statement, and the version of the table's value schema from here on, so a consumer can tell
     * which events the change concerns. The definition is read again first (an ALTER TABLE ADD gives
     * the next version now, not at the next row); not after a DROP TABLE, which has none to read.
     * Keyed by keyspace, as Debezium keys by database: one partition keeps a keyspace's DDL in order.
     */
    public SourceRecord schemaChange(ChangeRecord ddl, String schemaTopic, Map<String, ?> sourcePartition,
            Map<String, ?> sourceOffset, Long generationMillis) {
        if (!ddl.isDdl()) {
            throw new DataException("not a DDL LCR: " + ddl.lcr() + " " + ddl.commandType());
        }
        if (!"DROP TABLE".equals(ddl.commandType())) {
            definitionChanged();
        }
        Struct value = new Struct(SCHEMA_CHANGE_VALUE)
                .put("source", source(ddl, generationMillis))
                .put("ts_ms", clock.millis())
                .put("keyspace", keyspace)
                .put("table", table)
                .put("command_type", ddl.commandType() == null ? "DDL" : ddl.commandType())
                .put("ddl", ddl.ddlText())
                .put("schema_version", schemaVersion);
        return new SourceRecord(sourcePartition, sourceOffset, schemaTopic, null, SCHEMA_CHANGE_KEY,
                new Struct(SCHEMA_CHANGE_KEY).put("keyspace", keyspace), SCHEMA_CHANGE_VALUE, value, commitMillis(ddl));
    }

    /**
     * The records of one row LCR of this table: its change event, and after a delete its
     * tombstone when tombstones are on.
     *
     * @param generationMillis the stream set timestamp of the LCR's stream, or null when not known
     */
    public List<SourceRecord> convert(ChangeRecord r, Map<String, ?> sourcePartition, Map<String, ?> sourceOffset,
            Long generationMillis) {
        if (!r.isRow()) {
            throw new DataException("not a row LCR: " + r.lcr() + " " + r.commandType());
        }
        String op = op(r.commandType());
        if (hasUnknownColumn(r.oldValues()) || hasUnknownColumn(r.newValues())) {
            definitionChanged();
            // still unknown: a column added and dropped again since this LCR; it cannot be typed
            if (hasUnknownColumn(r.oldValues()) || hasUnknownColumn(r.newValues())) {
                throw new DataException(table() + ": the LCR at " + r.position() + " has a column the table's "
                        + "definition does not know: " + unknown(r));
            }
        }
        Map<String, Object> keyValues = r.newValues() != null ? r.newValues() : r.oldValues();
        if (keyValues == null) {
            throw new DataException(table() + ": the LCR at " + r.position() + " has neither old nor new values");
        }
        Struct key = key(keyValues, r);
        Struct value = new Struct(envelopeSchema)
                .put("before", row(r.oldValues()))
                .put("after", row(r.newValues()))
                .put("source", source(r, generationMillis))
                .put("op", op)
                .put("ts_ms", clock.millis())
                .put("transaction", transaction(r));
        List<SourceRecord> out = new ArrayList<>(2);
        long commitMillis = commitMillis(r);
        out.add(new SourceRecord(sourcePartition, sourceOffset, topic, null, keySchema, key, envelopeSchema, value,
                commitMillis));
        if ("d".equals(op) && tombstones) {
            out.add(new SourceRecord(sourcePartition, sourceOffset, topic, null, keySchema, key, null, null, commitMillis));
        }
        return out;
    }

    /**
     * A row of the table's initial snapshot as Debezium's read event: {@code op} r, {@code before}
     * null, {@code after} the row, {@code source.snapshot} the marker Debezium uses ("first",
     * "true", "last"), {@code source.scn} and {@code commit_scn} the SCN the row was read at, its
     * physical part as {@code source.ts_ms}; no transaction, stream or position.
     */
    public SourceRecord snapshotRead(Map<String, Object> values, long scn, String snapshotMarker,
            Map<String, ?> sourcePartition, Map<String, ?> sourceOffset) {
        if (hasUnknownColumn(values)) {
            definitionChanged(); // a column added since the schema was built
            if (hasUnknownColumn(values)) {
                throw new DataException(table() + ": a snapshot row read at SCN " + scn + " has a column the table's "
                        + "definition does not know: " + values.keySet());
            }
        }
        Struct key = new Struct(keySchema);
        for (TableDefinition.Column c : columns) {
            if (c.primaryKey()) {
                Object v = values.get(c.name());
                if (v == null) {
                    throw new DataException(table() + ": a snapshot row read at SCN " + scn + " has no value for key column "
                            + c.name());
                }
                key.put(c.name(), CqlSchemas.valueOf(c.type(), v, c.name()));
            }
        }
        long millis = scn >>> 16;
        Struct source = new Struct(SOURCE_SCHEMA)
                .put("version", version)
                .put("connector", CONNECTOR)
                .put("name", topicPrefix)
                .put("ts_ms", millis)
                .put("snapshot", snapshotMarker)
                .put("keyspace", keyspace)
                .put("table", table)
                .put("scn", scn)
                .put("commit_scn", scn);
        Struct value = new Struct(envelopeSchema)
                .put("before", null)
                .put("after", row(values))
                .put("source", source)
                .put("op", "r")
                .put("ts_ms", clock.millis());
        return new SourceRecord(sourcePartition, sourceOffset, topic, null, keySchema, key, envelopeSchema, value, millis);
    }

    /**
     * The token of a row LCR's partition key (what the hand-over needs when a node's rows were read
     * in several pieces), or empty when the SDK cannot serialize a key component.
     */
    public java.util.OptionalLong token(ChangeRecord r) {
        Map<String, Object> values = r.newValues() != null ? r.newValues() : r.oldValues();
        if (values == null) {
            return java.util.OptionalLong.empty();
        }
        List<dev.tributary.client.CqlTypeName> types = new ArrayList<>();
        List<Object> key = new ArrayList<>();
        for (TableDefinition.Column c : columns) {
            if (c.kind() == TableDefinition.Kind.PARTITION_KEY) {
                types.add(c.type());
                key.add(values.get(c.name()));
            }
        }
        return dev.tributary.client.RoutingKeys.token(types, key);
    }

    /** Debezium's op codes: c create, u update, d delete (r, a snapshot read, comes from no LCR). */
    static String op(String commandType) {
        if (commandType == null) {
            throw new DataException("a row LCR without a command type");
        }
        return switch (commandType) {
            case "INSERT" -> "c";
            case "UPDATE", "LOB WRITE", "LOB ERASE", "LOB TRIM" -> "u";
            case "DELETE" -> "d";
            default -> throw new DataException("unknown row LCR command type " + commandType);
        };
    }

    /** The commit time: an SCN is the hybrid logical clock's {@code physical millis << 16 | logical}. */
    static long commitMillis(ChangeRecord r) {
        return (r.commitScn() != 0 ? r.commitScn() : r.scn()) >>> 16;
    }

    private String table() {
        return keyspace + "." + table;
    }

    private boolean hasUnknownColumn(Map<String, Object> values) {
        if (values == null) {
            return false;
        }
        for (String c : values.keySet()) {
            if (!known.contains(c)) {
                return true;
            }
        }
        return false;
    }

    private List<String> unknown(ChangeRecord r) {
        Set<String> all = new java.util.LinkedHashSet<>();
        if (r.oldValues() != null) {
            all.addAll(r.oldValues().keySet());
        }
        if (r.newValues() != null) {
            all.addAll(r.newValues().keySet());
        }
        all.removeAll(known);
        return List.copyOf(all);
    }

    /** Adds the definition's new columns; a new schema version when there were any. */
    private void merge(TableDefinition d) {
        boolean changed = false;
        for (TableDefinition.Column c : d.columns()) {
            if (known.add(c.name())) {
                columns.add(c);
                changed = true;
            }
        }
        if (!changed) {
            return;
        }
        schemaVersion++;
        String base = topicPrefix + "." + keyspace + "." + table;
        SchemaBuilder k = SchemaBuilder.struct().name(base + ".Key").version(1);
        SchemaBuilder v = SchemaBuilder.struct().name(base + ".Value").version(schemaVersion).optional();
        for (TableDefinition.Column c : columns) {
            if (c.primaryKey()) {
                // a partition delete or a range delete names no clustering columns
                k.field(c.name(), CqlSchemas.schemaOf(c.type(), c.kind() == TableDefinition.Kind.CLUSTERING));
            }
            v.field(c.name(), CqlSchemas.schemaOf(c.type(), true));
        }
        keySchema = k.build();
        rowSchema = v.build();
        envelopeSchema = SchemaBuilder.struct().name(base + ".Envelope").version(schemaVersion)
                .field("before", rowSchema)
                .field("after", rowSchema)
                .field("source", SOURCE_SCHEMA)
                .field("op", Schema.STRING_SCHEMA)
                .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
                .field("transaction", TRANSACTION_SCHEMA)
                .build();
    }

    private Struct key(Map<String, Object> values, ChangeRecord r) {
        Struct key = new Struct(keySchema);
        for (TableDefinition.Column c : columns) {
            if (!c.primaryKey()) {
                continue;
            }
            Object v = values.get(c.name());
            if (v == null && c.kind() == TableDefinition.Kind.PARTITION_KEY) {
                throw new DataException(table() + ": the LCR at " + r.position() + " has no value for partition key "
                        + "column " + c.name());
            }
            key.put(c.name(), CqlSchemas.valueOf(c.type(), v, c.name()));
        }
        return key;
    }

    private Struct row(Map<String, Object> values) {
        if (values == null) {
            return null;
        }
        Struct row = new Struct(rowSchema);
        for (TableDefinition.Column c : columns) {
            row.put(c.name(), CqlSchemas.valueOf(c.type(), values.get(c.name()), c.name()));
        }
        return row;
    }

    private Struct source(ChangeRecord r, Long generationMillis) {
        LcrPosition p = r.position();
        return new Struct(SOURCE_SCHEMA)
                .put("version", version)
                .put("connector", CONNECTOR)
                .put("name", topicPrefix)
                .put("ts_ms", commitMillis(r))
                .put("snapshot", "false")
                .put("db", r.sourceDatabaseName())
                .put("keyspace", keyspace)
                .put("table", table)
                .put("scn", r.scn())
                .put("commit_scn", r.commitScn())
                .put("txId", r.transactionId())
                .put("stream_id", p == null ? null : Offsets.hex(p.streamIdBytes()))
                .put("generation", generationMillis)
                .put("time", p == null ? null : p.time().toString())
                .put("batch_seq_no", p == null ? null : p.batchSeqNo());
    }

    /** Debezium's transaction block; the order is the LCR's place in its transaction's batch on its stream. */
    private static Struct transaction(ChangeRecord r) {
        if (r.transactionId() == null) {
            return null;
        }
        long order = r.position() == null ? 1 : r.position().batchSeqNo() + 1L;
        return new Struct(TRANSACTION_SCHEMA).put("id", r.transactionId()).put("total_order", order)
                .put("data_collection_order", order);
    }

    /** For tests and logs: the columns in schema order. */
    public List<String> columnNames() {
        List<String> out = new ArrayList<>();
        for (TableDefinition.Column c : columns) {
            out.add(c.name());
        }
        return out;
    }
}
