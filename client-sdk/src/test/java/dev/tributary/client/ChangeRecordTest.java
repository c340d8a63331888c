package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.client.errors.ValueConversionException;
import dev.tributary.client.internal.JsonReader;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.NamedValue;
import dev.tributary.protocol.v1.Value;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ChangeRecordTest {
    static final String TIME = "e7cd2a10-6e1a-11ea-bc55-0242ac130003";

    static NamedValue nv(String name, String type, Value v) {
        return NamedValue.newBuilder().setName(name).setType(type).setValue(v).build();
    }

    static Lcr rowLcr(String command, int seq) {
        return Lcr.newBuilder()
                .setLcr("ROW").setSourceDatabaseName("TRIB").setCommandType(command)
                .setObjectOwner("hr").setObjectName("employees")
                .setTransactionId("3.17.42").setScn(100 + seq).setCommitScn(200)
                .setHasOldValues(command.equals("UPDATE"))
                .addOldValues(nv("id", "int", Value.newBuilder().setInteger(1).build()))
                .addOldValues(nv("salary", "decimal", Value.newBuilder().setDecimal("10.50").build()))
                .setHasNewValues(true)
                .addNewValues(nv("id", "int", Value.newBuilder().setInteger(1).build()))
                .addNewValues(nv("salary", "decimal", Value.newBuilder().setDecimal("11.00").build()))
                .addNewValues(nv("photo", "blob", Value.getDefaultInstance()))
                .setPosition(dev.tributary.protocol.v1.LcrPosition.newBuilder()
                        .setStreamId(ByteString.copyFrom(new byte[] {0x0a, 0x0b})).setTime(TIME).setBatchSeqNo(seq))
                .setEndOfBatch(seq == 1)
                .build();
    }

    @Test
    @DisplayName("CAP-LCR-2 CAP-LCR-3 a row LCR carries its attributes; an INSERT has no old values")
    void rowRecordFromTheWire() {
        ChangeRecord r = Lcrs.toRecord(rowLcr("INSERT", 0));
        assertTrue(r.isRow());
        assertFalse(r.isDdl());
        assertEquals("TRIB", r.sourceDatabaseName());
        assertEquals("INSERT", r.commandType());
        assertEquals("hr", r.objectOwner());
        assertEquals("employees", r.objectName());
        assertNull(r.tag());
        assertEquals("3.17.42", r.transactionId());
        assertEquals(100, r.scn());
        assertEquals(200, r.commitScn());
        assertNull(r.oldValues());
        assertEquals(List.of("id", "salary", "photo"), new ArrayList<>(r.newValues().keySet()));
        assertEquals(new java.math.BigDecimal("11.00"), r.newValues().get("salary"));
        assertNull(r.newValues().get("photo"));
        assertEquals(LcrPosition.of(new byte[] {0x0a, 0x0b}, UUID.fromString(TIME), 0), r.position());
        assertEquals(Map.of(), r.extra());
        assertNull(r.ddlText());
    }

    @Test
    @DisplayName("CAP-LCR-2 CAP-LCR-6 the JSON form of a row LCR (INTERFACE.md section 5)")
    void rowJson() {
        Lcr l = rowLcr("UPDATE", 1).toBuilder().setHasTag(true).setTag(ByteString.copyFrom(new byte[] {0x1d}))
                .addExtra(nv("username", "text", Value.newBuilder().setText("ALICE").build()))
                .addExtra(nv("session#", "bigint", Value.newBuilder().setInteger(77).build()))
                .build();
        String json = Lcrs.toRecord(l).toJson();
        assertEquals("{\"lcr\":\"ROW\",\"source_database_name\":\"TRIB\",\"command_type\":\"UPDATE\","
                + "\"object_owner\":\"hr\",\"object_name\":\"employees\",\"tag\":\"0x1d\",\"transaction_id\":\"3.17.42\","
                + "\"scn\":101,\"commit_scn\":200,"
                + "\"old_values\":{\"id\":1,\"salary\":\"10.50\"},"
                + "\"new_values\":{\"id\":1,\"salary\":\"11.00\",\"photo\":null},"
                + "\"stream_id\":\"0x0a0b\",\"time\":\"" + TIME + "\",\"batch_seq_no\":1,\"end_of_batch\":true,"
                + "\"extra\":{\"username\":\"ALICE\",\"session#\":77}}", json);
        assertTrue(JsonReader.parse(json) instanceof Map);
    }

    @Test
    @DisplayName("CAP-LCR-3 a DELETE has old values and null new values")
    void deleteJsonHasNullNewValues() {
        Lcr l = rowLcr("DELETE", 0).toBuilder().setHasOldValues(true).setHasNewValues(false).clearNewValues().build();
        @SuppressWarnings("unchecked")
        Map<String, Object> parsed = (Map<String, Object>) JsonReader.parse(Lcrs.toRecord(l).toJson());
        assertNull(parsed.get("new_values"));
        assertTrue(parsed.containsKey("new_values"));
        assertEquals(Map.of("id", 1L, "salary", "10.50"), parsed.get("old_values"));
    }

    @Test
    @DisplayName("CAP-LCR-5 the JSON form of a DDL LCR")
    void ddlJson() {
        Lcr l = Lcr.newBuilder().setLcr("DDL").setSourceDatabaseName("TRIB").setCommandType("CREATE TABLE")
                .setObjectOwner("hr").setObjectName("jobs").setObjectType("TABLE")
                .setDdlText("CREATE TABLE hr.jobs (id int PRIMARY KEY)").setLogonUser("ALICE").setCurrentSchema("hr")
                .setTransactionId("1.2.3").setScn(500).setCommitScn(500).build();
        ChangeRecord r = Lcrs.toRecord(l);
        assertTrue(r.isDdl());
        assertEquals("{\"lcr\":\"DDL\",\"source_database_name\":\"TRIB\",\"command_type\":\"CREATE TABLE\","
                + "\"object_owner\":\"hr\",\"object_name\":\"jobs\",\"object_type\":\"TABLE\","
                + "\"ddl_text\":\"CREATE TABLE hr.jobs (id int PRIMARY KEY)\",\"logon_user\":\"ALICE\","
                + "\"current_schema\":\"hr\",\"base_table_owner\":null,\"base_table_name\":null,\"tag\":null,"
                + "\"transaction_id\":\"1.2.3\",\"scn\":500,\"commit_scn\":500,\"stream_id\":null,\"time\":null,"
                + "\"batch_seq_no\":null,\"end_of_batch\":false,\"extra\":{}}", r.toJson());
    }

    @Test
    void theTagIsCopiedAndHandedOutReadOnly() {
        ByteBuffer tag = ByteBuffer.wrap(new byte[] {1, 2});
        ChangeRecord r = Lcrs.toRecord(rowLcr("INSERT", 0).toBuilder().setHasTag(true)
                .setTag(ByteString.copyFrom(new byte[] {1, 2})).build());
        assertEquals(tag, r.tag());
        ByteBuffer view = r.tag();
        assertTrue(view.isReadOnly());
        view.get();
        assertEquals(2, r.tag().remaining());
        assertEquals(Lcrs.toRecord(rowLcr("INSERT", 0)), Lcrs.toRecord(rowLcr("INSERT", 0)));
    }

    @Test
    void aMalformedPositionTimeIsReported() {
        Lcr bad = rowLcr("INSERT", 0).toBuilder().setPosition(dev.tributary.protocol.v1.LcrPosition.newBuilder().setTime("later")).build();
        ValueConversionException e = assertThrows(ValueConversionException.class, () -> Lcrs.toRecord(bad));
        assertTrue(e.getMessage().contains("'later'"), e.getMessage());
    }

    @Test
    void positionsRoundTripToTheWire() {
        LcrPosition p = LcrPosition.of(new byte[] {9, 8}, UUID.fromString(TIME), 3);
        assertEquals(p, Lcrs.toPosition(Lcrs.toWire(p), "x"));
        assertEquals("LcrPosition[0x0908, " + TIME + ", 3]", p.toString());
        byte[] bytes = p.streamIdBytes();
        bytes[0] = 0;
        assertEquals(9, p.streamIdBytes()[0]);
    }
}
