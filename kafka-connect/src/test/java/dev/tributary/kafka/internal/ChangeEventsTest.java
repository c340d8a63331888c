package dev.tributary.kafka.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.ChangeRecord;
import dev.tributary.client.CqlDuration;
import dev.tributary.client.CqlTypeName;
import dev.tributary.client.LcrPosition;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Row LCRs into Debezium's envelope: every CQL type, every op, schema versions, tombstones. */
@Timeout(30)
class ChangeEventsTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-06T00:30:00Z"), ZoneOffset.UTC);
    private static final ByteBuffer STREAM = ByteBuffer.wrap(new byte[] {(byte) 0xc7, 0x52, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
            11, 12, 13, 14});
    private static final UUID TIME = UUID.fromString("275a7360-edec-11f1-83a2-3446f5960000");
    /** A real SCN: physical millis 1,796,170,000,000 shifted left 16, logical 3. */
    private static final long SCN = (1_796_170_000_000L << 16) | 3;

    private static TableDefinition.Column col(String name, String type, TableDefinition.Kind kind) {
        return new TableDefinition.Column(name, CqlTypeName.parse(type), kind);
    }

    private static TableDefinition.Column reg(String name, String type) {
        return col(name, type, TableDefinition.Kind.REGULAR);
    }

    static ChangeRecord row(String command, Map<String, Object> oldValues, Map<String, Object> newValues) {
        return new ChangeRecord("ROW", "tributary", command, "ks", "t", null, "1.1a2344", SCN, SCN, oldValues, newValues,
                new LcrPosition(STREAM, TIME, 2), true, Map.of(), null, null, null, null, null, null);
    }

    private static Map<String, Object> values(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static final TableDefinition ALL_TYPES = new TableDefinition("ks", "t", List.of(
            col("pk", "int", TableDefinition.Kind.PARTITION_KEY),
            col("ck", "text", TableDefinition.Kind.CLUSTERING),
            reg("a_ascii", "ascii"), reg("a_text", "text"), reg("a_varchar", "varchar"), reg("a_tinyint", "tinyint"),
            reg("a_smallint", "smallint"), reg("a_int", "int"), reg("a_bigint", "bigint"), reg("a_counter", "counter"),
            reg("a_varint", "varint"), reg("a_decimal", "decimal"), reg("a_float", "float"), reg("a_double", "double"),
            reg("a_boolean", "boolean"), reg("a_timestamp", "timestamp"), reg("a_date", "date"), reg("a_time", "time"),
            reg("a_duration", "duration"), reg("a_blob", "blob"), reg("a_uuid", "uuid"), reg("a_timeuuid", "timeuuid"),
            reg("a_inet", "inet"), reg("a_list", "list<int>"), reg("a_set", "set<text>"), reg("a_map", "map<text, bigint>"),
            reg("a_frozen", "frozen<list<uuid>>")));

    private static ChangeEvents events(TableDefinition.Source source, boolean tombstones) {
        return new ChangeEvents("pre", "1.0", "ks", "t", source, tombstones, CLOCK);
    }

    private static SourceRecord one(List<SourceRecord> records) {
        assertEquals(1, records.size(), records::toString);
        return records.get(0);
    }

    @Test
    void everyCqlTypeMapsAsDebeziumsCassandraConnectorDoes() throws Exception {
        ChangeEvents ev = events((k, t) -> ALL_TYPES, true);
        UUID uuid = UUID.randomUUID();
        Map<String, Object> v = values("pk", 7, "ck", "c", "a_ascii", "asc", "a_text", "tëxt", "a_varchar", "vc",
                "a_tinyint", (byte) -3, "a_smallint", (short) 300, "a_int", 70000, "a_bigint", 1L << 40, "a_counter", 5L,
                "a_varint", new BigInteger("123456789012345678901234567890"), "a_decimal", new BigDecimal("-1.50"),
                "a_float", 1.5f, "a_double", 2.25d, "a_boolean", true,
                "a_timestamp", Instant.parse("2020-03-25T12:44:43.006Z"), "a_date", LocalDate.of(2020, 3, 25),
                "a_time", LocalTime.of(12, 44, 43, 6), "a_duration", new CqlDuration(1, 2, 3),
                "a_blob", ByteBuffer.wrap("hi".getBytes(StandardCharsets.UTF_8)).asReadOnlyBuffer(), "a_uuid", uuid,
                "a_timeuuid", TIME, "a_inet", InetAddress.getByName("10.1.2.3"), "a_list", List.of(1, 2, 2),
                "a_set", Set.of("x"), "a_map", Map.of("k", 9L), "a_frozen", List.of(uuid));
        SourceRecord rec = one(ev.convert(row("INSERT", null, v), Map.of(), Map.of(), 1234L));
        Struct after = ((Struct) rec.value()).getStruct("after");
        Schema s = after.schema();
        assertEquals(Schema.Type.STRING, s.field("a_ascii").schema().type());
        assertEquals(Schema.Type.INT8, s.field("a_tinyint").schema().type());
        assertEquals(Schema.Type.INT16, s.field("a_smallint").schema().type());
        assertEquals(Schema.Type.INT32, s.field("a_int").schema().type());
        assertEquals(Schema.Type.INT64, s.field("a_bigint").schema().type());
        assertEquals(Schema.Type.INT64, s.field("a_counter").schema().type());
        assertEquals(Schema.Type.STRING, s.field("a_varint").schema().type());
        assertEquals(Schema.Type.STRING, s.field("a_decimal").schema().type());
        assertEquals(Schema.Type.FLOAT32, s.field("a_float").schema().type());
        assertEquals(Schema.Type.FLOAT64, s.field("a_double").schema().type());
        assertEquals(Schema.Type.BOOLEAN, s.field("a_boolean").schema().type());
        assertEquals(CqlSchemas.TIMESTAMP, s.field("a_timestamp").schema().name());
        assertEquals(CqlSchemas.DATE, s.field("a_date").schema().name());
        assertEquals(Schema.Type.INT32, s.field("a_date").schema().type());
        assertEquals(CqlSchemas.NANO_TIME, s.field("a_time").schema().name());
        assertEquals(CqlSchemas.NANO_DURATION, s.field("a_duration").schema().name());
        assertEquals(Schema.Type.BYTES, s.field("a_blob").schema().type());
        assertEquals(CqlSchemas.UUID_NAME, s.field("a_uuid").schema().name());
        assertEquals(CqlSchemas.UUID_NAME, s.field("a_timeuuid").schema().name());
        assertEquals(Schema.Type.STRING, s.field("a_inet").schema().type());
        assertEquals(Schema.Type.ARRAY, s.field("a_list").schema().type());
        assertEquals(Schema.Type.INT32, s.field("a_list").schema().valueSchema().type());
        assertEquals(Schema.Type.ARRAY, s.field("a_set").schema().type());
        assertEquals(Schema.Type.MAP, s.field("a_map").schema().type());
        assertEquals(Schema.Type.INT64, s.field("a_map").schema().valueSchema().type());
        assertEquals(CqlSchemas.UUID_NAME, s.field("a_frozen").schema().valueSchema().name());

        assertEquals(7, after.get("pk"));
        assertEquals("tëxt", after.get("a_text"));
        assertEquals((byte) -3, after.get("a_tinyint"));
        assertEquals((short) 300, after.get("a_smallint"));
        assertEquals(1L << 40, after.get("a_bigint"));
        assertEquals("123456789012345678901234567890", after.get("a_varint"));
        assertEquals("-1.50", after.get("a_decimal"));
        assertEquals(1.5f, after.get("a_float"));
        assertEquals(2.25d, after.get("a_double"));
        assertEquals(true, after.get("a_boolean"));
        assertEquals(Instant.parse("2020-03-25T12:44:43.006Z").toEpochMilli(), after.get("a_timestamp"));
        assertEquals((int) LocalDate.of(2020, 3, 25).toEpochDay(), after.get("a_date"));
        assertEquals(LocalTime.of(12, 44, 43, 6).toNanoOfDay(), after.get("a_time"));
        long month = (long) (365.25 / 12 * 86_400_000_000_000L);
        assertEquals(month + 2 * 86_400_000_000_000L + 3, after.get("a_duration"));
        assertArrayEquals("hi".getBytes(StandardCharsets.UTF_8), (byte[]) after.get("a_blob"));
        assertEquals(uuid.toString(), after.get("a_uuid"));
        assertEquals(TIME.toString(), after.get("a_timeuuid"));
        assertEquals("10.1.2.3", after.get("a_inet"));
        assertEquals(List.of(1, 2, 2), after.get("a_list"));
        assertEquals(List.of("x"), after.get("a_set"));
        assertEquals(Map.of("k", 9L), after.get("a_map"));
        assertEquals(List.of(uuid.toString()), after.get("a_frozen"));
        after.validate();
        ((Struct) rec.value()).validate();

        // the JSON converter takes the schema and value as they are
        JsonConverter json = new JsonConverter();
        json.configure(Map.of("schemas.enable", "true"), false);
        String text = new String(json.fromConnectData(rec.topic(), rec.valueSchema(), rec.value()), StandardCharsets.UTF_8);
        assertTrue(text.contains("\"a_varint\":\"123456789012345678901234567890\""), text);
        assertTrue(text.contains("\"name\":\"io.debezium.time.Timestamp\""), text);
        Object back = json.toConnectData(rec.topic(), text.getBytes(StandardCharsets.UTF_8)).value();
        assertEquals("10.1.2.3", ((Struct) back).getStruct("after").get("a_inet"));
    }

    @Test
    void insertUpdateDeleteAndTheirEnvelopes() {
        TableDefinition d = new TableDefinition("ks", "t", List.of(col("pk", "int", TableDefinition.Kind.PARTITION_KEY),
                col("ck", "int", TableDefinition.Kind.CLUSTERING), reg("v", "text")));
        ChangeEvents ev = events((k, t) -> d, true);
        Map<String, ?> partition = Offsets.partition("ks.t", STREAM);
        Map<String, ?> offset = Offsets.offset(new LcrPosition(STREAM, TIME, 2));

        SourceRecord c = one(ev.convert(row("INSERT", null, values("pk", 1, "ck", 2, "v", "a")), partition, offset, 99L));
        assertEquals("pre.ks.t", c.topic());
        assertEquals(partition, c.sourcePartition());
        assertEquals(offset, c.sourceOffset());
        Struct key = (Struct) c.key();
        assertEquals("pre.ks.t.Key", c.keySchema().name());
        assertEquals(List.of("pk", "ck"), c.keySchema().fields().stream().map(f -> f.name()).toList());
        assertEquals(1, key.get("pk"));
        assertEquals(2, key.get("ck"));
        Struct value = (Struct) c.value();
        assertEquals("pre.ks.t.Envelope", c.valueSchema().name());
        assertEquals("c", value.get("op"));
        assertNull(value.get("before"));
        assertEquals("a", value.getStruct("after").get("v"));
        assertEquals(CLOCK.millis(), value.get("ts_ms"));
        Struct source = value.getStruct("source");
        assertEquals("tributary", source.get("connector"));
        assertEquals("pre", source.get("name"));
        assertEquals("1.0", source.get("version"));
        assertEquals(1_796_170_000_000L, source.get("ts_ms"), "the commit SCN's physical time");
        assertEquals(1_796_170_000_000L, c.timestamp());
        assertEquals("ks", source.get("keyspace"));
        assertEquals("t", source.get("table"));
        assertEquals(SCN, source.get("scn"));
        assertEquals(SCN, source.get("commit_scn"));
        assertEquals("1.1a2344", source.get("txId"));
        assertEquals("0xc7520102030405060708090a0b0c0d0e", source.get("stream_id"));
        assertEquals(99L, source.get("generation"));
        assertEquals(TIME.toString(), source.get("time"));
        assertEquals(2, source.get("batch_seq_no"));
        Struct tx = value.getStruct("transaction");
        assertEquals("1.1a2344", tx.get("id"));
        assertEquals(3L, tx.get("total_order"));

        SourceRecord u = one(ev.convert(row("UPDATE", values("pk", 1, "ck", 2, "v", "a"), values("pk", 1, "ck", 2, "v", "b")),
                partition, offset, 99L));
        Struct uv = (Struct) u.value();
        assertEquals("u", uv.get("op"));
        assertEquals("a", uv.getStruct("before").get("v"));
        assertEquals("b", uv.getStruct("after").get("v"));

        List<SourceRecord> del = ev.convert(row("DELETE", values("pk", 1, "ck", 2, "v", "b"), null), partition, offset, 99L);
        assertEquals(2, del.size(), "the delete event, then its tombstone");
        Struct dv = (Struct) del.get(0).value();
        assertEquals("d", dv.get("op"));
        assertEquals("b", dv.getStruct("before").get("v"));
        assertNull(dv.get("after"));
        assertEquals(del.get(0).key(), del.get(1).key());
        assertNull(del.get(1).value());
        assertNull(del.get(1).valueSchema());
        assertEquals(offset, del.get(1).sourceOffset());

        for (String lob : List.of("LOB WRITE", "LOB ERASE", "LOB TRIM")) {
            assertEquals("u", ((Struct) one(ev.convert(row(lob, null, values("pk", 1, "ck", 2)), partition, offset, null))
                    .value()).get("op"));
        }
    }

    @Test
    void withoutTombstonesADeleteIsOneRecord() {
        TableDefinition d = new TableDefinition("ks", "t", List.of(col("pk", "int", TableDefinition.Kind.PARTITION_KEY)));
        ChangeEvents ev = events((k, t) -> d, false);
        assertEquals("d", ((Struct) one(ev.convert(row("DELETE", values("pk", 1), null), Map.of(), Map.of(), null)).value())
                .get("op"));
    }

    @Test
    void aPartitionDeleteHasNoClusteringValue() {
        TableDefinition d = new TableDefinition("ks", "t", List.of(col("pk", "int", TableDefinition.Kind.PARTITION_KEY),
                col("ck", "int", TableDefinition.Kind.CLUSTERING), reg("v", "int")));
        ChangeEvents ev = events((k, t) -> d, false);
        Struct key = (Struct) one(ev.convert(row("DELETE", values("pk", 4), null), Map.of(), Map.of(), null)).key();
        assertEquals(4, key.get("pk"));
        assertNull(key.get("ck"));
    }

    @Test
    void anAddedColumnGivesTheNextSchemaVersionAndADroppedOneStays() {
        AtomicReference<TableDefinition> def = new AtomicReference<>(new TableDefinition("ks", "t",
                List.of(col("pk", "int", TableDefinition.Kind.PARTITION_KEY), reg("a", "int"))));
        AtomicInteger loads = new AtomicInteger();
        ChangeEvents ev = events((k, t) -> {
            loads.incrementAndGet();
            return def.get();
        }, false);
        SourceRecord v1 = one(ev.convert(row("INSERT", null, values("pk", 1, "a", 1)), Map.of(), Map.of(), null));
        assertEquals(1, v1.valueSchema().version());
        assertEquals(1, loads.get(), "a known column needs no new look at the dictionary");

        def.set(new TableDefinition("ks", "t", List.of(col("pk", "int", TableDefinition.Kind.PARTITION_KEY),
                reg("b", "text"))));
        SourceRecord v2 = one(ev.convert(row("INSERT", null, values("pk", 2, "b", "x")), Map.of(), Map.of(), null));
        assertEquals(2, v2.valueSchema().version());
        assertEquals("x", ((Struct) v2.value()).getStruct("after").get("b"));
        assertEquals(List.of("pk", "a", "b"), ev.columnNames(), "the dropped column a stays, optional");
        assertNull(((Struct) v2.value()).getStruct("after").get("a"));
        // an event of the old shape reads with the new schema
        SourceRecord old = one(ev.convert(row("INSERT", null, values("pk", 3, "a", 3)), Map.of(), Map.of(), null));
        assertEquals(2, old.valueSchema().version());

        ev.definitionChanged();
        assertEquals(2, ev.schemaVersion(), "the same columns again: no new version");
    }

    @Test
    void aDdlLcrIsASchemaChangeEventWithTheVersionItLeadsTo() {
        AtomicReference<TableDefinition> def = new AtomicReference<>(new TableDefinition("ks", "t",
                List.of(col("pk", "int", TableDefinition.Kind.PARTITION_KEY), reg("a", "int"))));
        ChangeEvents ev = events((k, t) -> def.get(), false);
        def.set(new TableDefinition("ks", "t", List.of(col("pk", "int", TableDefinition.Kind.PARTITION_KEY),
                reg("a", "int"), reg("b", "text"))));
        ChangeRecord alter = new ChangeRecord("DDL", "tributary", "ALTER TABLE", "ks", "t", null, "1.1a2345", SCN, SCN,
                null, null, new LcrPosition(STREAM, TIME, 0), true, Map.of(), "TABLE", "ALTER TABLE ks.t ADD b text",
                null, null, null, null);
        SourceRecord change = ev.schemaChange(alter, "pre", Map.of("table", "ks.t"), Map.of("time", TIME.toString()), 42L);
        assertEquals("pre", change.topic(), "Debezium's schema-change topic: the prefix");
        assertEquals("ks", ((Struct) change.key()).getString("keyspace"));
        Struct v = (Struct) change.value();
        assertEquals("ALTER TABLE", v.getString("command_type"));
        assertEquals("ALTER TABLE ks.t ADD b text", v.getString("ddl"));
        assertEquals("t", v.getString("table"));
        assertEquals(2, v.getInt32("schema_version"), "the column added: the next version, before any row has it");
        assertEquals(2, ev.schemaVersion());
        assertEquals(SCN, v.getStruct("source").getInt64("commit_scn"));
        assertEquals(42L, v.getStruct("source").getInt64("generation"));
        assertEquals(Map.of("table", "ks.t"), change.sourcePartition());
        // readable by the JSON converter as the worker writes it
        JsonConverter json = new JsonConverter();
        json.configure(Map.of("schemas.enable", "true"), false);
        byte[] bytes = json.fromConnectData("pre", change.valueSchema(), change.value());
        assertEquals(v, json.toConnectData("pre", bytes).value());
        assertThrows(DataException.class, () -> ev.schemaChange(row("INSERT", null, values("pk", 1)), "pre", null, null,
                null));
    }

    @Test
    void errorsNameTheTableThePositionAndTheColumn() {
        TableDefinition d = new TableDefinition("ks", "t", List.of(col("pk", "int", TableDefinition.Kind.PARTITION_KEY),
                reg("v", "int")));
        ChangeEvents ev = events((k, t) -> d, false);
        DataException unknown = assertThrows(DataException.class,
                () -> ev.convert(row("INSERT", null, values("pk", 1, "zz", 2)), Map.of(), Map.of(), null));
        assertTrue(unknown.getMessage().contains("ks.t") && unknown.getMessage().contains("[zz]"), unknown.getMessage());
        DataException noKey = assertThrows(DataException.class,
                () -> ev.convert(row("UPDATE", null, values("v", 2)), Map.of(), Map.of(), null));
        assertTrue(noKey.getMessage().contains("partition key column pk"), noKey.getMessage());
        DataException type = assertThrows(DataException.class,
                () -> ev.convert(row("INSERT", null, values("pk", 1, "v", "text")), Map.of(), Map.of(), null));
        assertTrue(type.getMessage().contains("column v of type int"), type.getMessage());
        assertThrows(DataException.class, () -> ev.convert(row("MERGE", null, values("pk", 1)), Map.of(), Map.of(), null));
        List<String> ops = new ArrayList<>();
        for (String cmd : List.of("INSERT", "UPDATE", "DELETE")) {
            ops.add(ChangeEvents.op(cmd));
        }
        assertEquals(List.of("c", "u", "d"), ops);
    }

    @Test
    void aUserDefinedTypeIsRefusedWithItsName() {
        TableDefinition d = new TableDefinition("ks", "t", List.of(col("pk", "int", TableDefinition.Kind.PARTITION_KEY),
                reg("addr", "frozen<address>")));
        DataException e = assertThrows(DataException.class, () -> events((k, t) -> d, false));
        assertTrue(e.getMessage().contains("address"), e.getMessage());
    }

    @Test
    @DisplayName("a snapshot row as Debezium's read event: op r, no before, the SCN it was read at, the snapshot marker; "
            + "a column added since gives the next schema version; the token of an LCR's key as Cassandra's")
    void snapshotRead() {
        List<TableDefinition.Column> columns = new java.util.ArrayList<>(List.of(col("pk", "int", TableDefinition.Kind.PARTITION_KEY),
                col("ck", "int", TableDefinition.Kind.CLUSTERING), reg("v", "text")));
        ChangeEvents ev = events((k, t) -> new TableDefinition("ks", "t", columns), true);
        Map<String, ?> partition = Offsets.snapshotPartition("ks.t");
        Map<String, Object> offset = Map.of("snapshot_progress", "h/1/5:7", "snapshot_done", false);
        SourceRecord r = ev.snapshotRead(values("pk", 1, "ck", 2, "v", "x"), SCN, "first", partition, offset);
        assertEquals("pre.ks.t", r.topic());
        assertEquals(partition, r.sourcePartition());
        assertEquals(offset, r.sourceOffset());
        Struct key = (Struct) r.key();
        assertEquals(1, key.get("pk"));
        assertEquals(2, key.get("ck"));
        Struct value = (Struct) r.value();
        value.validate();
        assertEquals("r", value.getString("op"));
        assertEquals(null, value.get("before"));
        assertEquals("x", value.getStruct("after").getString("v"));
        assertEquals(null, value.get("transaction"));
        Struct source = value.getStruct("source");
        assertEquals("first", source.getString("snapshot"));
        assertEquals(SCN, source.getInt64("scn"));
        assertEquals(SCN, source.getInt64("commit_scn"));
        assertEquals(1_796_170_000_000L, source.getInt64("ts_ms"));
        assertEquals(null, source.get("stream_id"));
        assertEquals(1_796_170_000_000L, r.timestamp());

        // read back through the JSON converter, as a sink would
        JsonConverter json = new JsonConverter();
        json.configure(Map.of("schemas.enable", "true"), false);
        byte[] bytes = json.fromConnectData(r.topic(), r.valueSchema(), r.value());
        Struct back = (Struct) json.toConnectData(r.topic(), bytes).value();
        assertEquals("r", back.getString("op"));
        assertEquals("first", back.getStruct("source").getString("snapshot"));

        // a column the schema does not know yet (added since): the definition is read again
        columns.add(reg("w", "int"));
        SourceRecord r2 = ev.snapshotRead(values("pk", 1, "ck", 3, "v", "y", "w", 9), SCN, "true", partition, offset);
        assertEquals(2, ev.schemaVersion());
        assertEquals(9, ((Struct) r2.value()).getStruct("after").get("w"));
        DataException noKey = assertThrows(DataException.class,
                () -> ev.snapshotRead(values("ck", 3, "v", "y"), SCN, "true", partition, offset));
        assertTrue(noKey.getMessage().contains("pk") && noKey.getMessage().contains("ks.t"), noKey.getMessage());

        // the token of an LCR's partition key, which the hand-over asks when a node was read in pieces
        assertEquals(java.util.OptionalLong.of(-4069959284402364209L),
                ev.token(row("UPDATE", values("pk", 1, "ck", 2), values("pk", 1, "ck", 2, "v", "z"))));
    }
}
