package dev.tributary.client;

import static dev.tributary.client.TestNode.column;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.errors.UnknownColumnException;
import dev.tributary.client.errors.ValueConversionException;
import dev.tributary.client.internal.JsonReader;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.NamedValue;
import dev.tributary.protocol.v1.UdtValue;
import dev.tributary.protocol.v1.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RowTest {
    private static final UUID U = UUID.fromString("e7cd2a10-6e1a-11ea-bc55-0242ac130003");

    /** One row holding a value of every type, built as the server would send it. */
    private static Row everyType() throws Exception {
        Object[][] cols = {
            {"t", "text", "x"},
            {"a", "ascii", "y"},
            {"ti", "tinyint", (byte) 1},
            {"si", "smallint", (short) 2},
            {"i", "int", 3},
            {"bi", "bigint", 4L},
            {"c", "counter", 5L},
            {"vi", "varint", new BigInteger("6")},
            {"de", "decimal", new BigDecimal("7.5")},
            {"f", "float", 8.5f},
            {"d", "double", 9.25},
            {"b", "boolean", true},
            {"ts", "timestamp", Instant.parse("2020-03-25T12:44:43.006Z")},
            {"dt", "date", LocalDate.of(2020, 3, 25)},
            {"tm", "time", LocalTime.of(12, 44, 43, 6_000_000)},
            {"du", "duration", new CqlDuration(1, 2, 3)},
            {"bl", "blob", ByteBuffer.wrap(new byte[] {(byte) 0xca, (byte) 0xfe})},
            {"u", "uuid", U},
            {"tu", "timeuuid", U},
            {"ip", "inet", InetAddress.getByName("127.0.0.1")},
            {"l", "list<int>", List.of(1, 2)},
            {"s", "set<text>", Set.of("only")},
            {"m", "map<text, int>", Map.of("k", 1)},
            {"n", "int", null},
            {"cdc$stream_id", "blob", ByteBuffer.wrap(new byte[] {1})},
            {"Mixed", "int", 10},
        };
        ExecuteResponse.Builder r = ExecuteResponse.newBuilder().setHasRows(true);
        dev.tributary.protocol.v1.Row.Builder row = dev.tributary.protocol.v1.Row.newBuilder();
        for (Object[] c : cols) {
            r.addColumns(column((String) c[0], (String) c[1]));
            row.addValues(ValueCodec.encode(c[2], CqlTypeName.parse((String) c[1]), (String) c[0]));
        }
        r.addColumns(column("addr", "frozen<address>"));
        row.addValues(Value.newBuilder().setUdt(UdtValue.newBuilder()
                .addFields(NamedValue.newBuilder().setName("city").setType("text").setValue(Value.newBuilder().setText("Oslo")))
                .addFields(NamedValue.newBuilder().setName("zip").setType("int"))));
        return ResultSet.of(r.addRows(row).build()).one();
    }

    @Test
    void typedGettersByNameAndIndex() throws Exception {
        Row row = everyType();
        assertEquals("x", row.getString("t"));
        assertEquals("x", row.getString(0));
        assertEquals("y", row.getString("a"));
        assertEquals(1, row.getByte("ti"));
        assertEquals(2, row.getShort("si"));
        assertEquals(3, row.getInt("i"));
        assertEquals(4L, row.getLong("bi"));
        assertEquals(5L, row.getLong("c"));
        assertEquals(new BigInteger("6"), row.getVarint("vi"));
        assertEquals(new BigDecimal("7.5"), row.getDecimal("de"));
        assertEquals(8.5f, row.getFloat("f"));
        assertEquals(9.25, row.getDouble("d"));
        assertTrue(row.getBoolean("b"));
        assertEquals(Instant.parse("2020-03-25T12:44:43.006Z"), row.getInstant("ts"));
        assertEquals(LocalDate.of(2020, 3, 25), row.getLocalDate("dt"));
        assertEquals(LocalTime.of(12, 44, 43, 6_000_000), row.getLocalTime("tm"));
        assertEquals(new CqlDuration(1, 2, 3), row.getDuration("du"));
        assertEquals(ByteBuffer.wrap(new byte[] {(byte) 0xca, (byte) 0xfe}), row.getBytes("bl"));
        assertEquals(U, row.getUuid("u"));
        assertEquals(U, row.getUuid("tu"));
        assertEquals(InetAddress.getByName("127.0.0.1"), row.getInetAddress("ip"));
        assertEquals(List.of(1, 2), row.getList("l", Integer.class));
        assertEquals(Set.of("only"), row.getSet("s", String.class));
        assertEquals(Map.of("k", 1), row.getMap("m", String.class, Integer.class));
        Map<String, Object> addr = new LinkedHashMap<>();
        addr.put("city", "Oslo");
        addr.put("zip", null);
        assertEquals(addr, row.getUdt("addr"));
        assertEquals(1, row.getObject("cdc$stream_id") instanceof ByteBuffer b ? b.remaining() : -1);
    }

    @Test
    void widerIntegerAndFloatingGettersAcceptNarrowerColumns() throws Exception {
        Row row = everyType();
        assertEquals(1, row.getInt("ti"));
        assertEquals(3L, row.getLong("i"));
        assertEquals(8.5, row.getDouble("f"));
        assertThrows(ValueConversionException.class, () -> row.getInt("bi"));
        assertThrows(ValueConversionException.class, () -> row.getFloat("d"));
    }

    @Test
    void aWrongGetterNamesTheColumnAndItsType() throws Exception {
        Row row = everyType();
        ValueConversionException e = assertThrows(ValueConversionException.class, () -> row.getString("i"));
        assertEquals("column 'i' is of type int (java.lang.Integer); getString reads text, ascii or varchar", e.getMessage());
        assertThrows(ValueConversionException.class, () -> row.getInstant("dt"));
        assertThrows(ValueConversionException.class, () -> row.getList("l", String.class));
        assertThrows(ValueConversionException.class, () -> row.getMap("addr", String.class, Object.class));
        assertThrows(ValueConversionException.class, () -> row.getUdt("m"));
    }

    @Test
    void nullsAreNullForObjectsAndRefusedForPrimitives() throws Exception {
        Row row = everyType();
        assertTrue(row.isNull("n"));
        assertFalse(row.isNull("i"));
        assertNull(row.getObject("n"));
        ValueConversionException e = assertThrows(ValueConversionException.class, () -> row.getInt("n"));
        assertTrue(e.getMessage().contains("column 'n' is NULL"), e.getMessage());
    }

    @Test
    void emptyCollectionsForNullCollectionColumns() {
        ExecuteResponse r = ExecuteResponse.newBuilder().setHasRows(true).addColumns(column("l", "list<int>"))
                .addRows(dev.tributary.protocol.v1.Row.newBuilder().addValues(Value.getDefaultInstance())).build();
        Row row = ResultSet.of(r).one();
        assertEquals(List.of(), row.getList("l", Integer.class));
        assertTrue(row.isNull("l"));
    }

    @Test
    void unknownColumnsListTheColumns() throws Exception {
        Row row = everyType();
        UnknownColumnException e = assertThrows(UnknownColumnException.class, () -> row.getInt("nope"));
        assertTrue(e.getMessage().startsWith("no column 'nope'; the columns are [t, a, ti"), e.getMessage());
        assertThrows(UnknownColumnException.class, () -> row.getObject(99));
        assertThrows(UnknownColumnException.class, () -> row.getObject(-1));
    }

    @Test
    void namesMatchExactlyThenIgnoringCase() throws Exception {
        Row row = everyType();
        assertEquals(10, row.getInt("Mixed"));
        assertEquals(10, row.getInt("mixed"));
        assertEquals(10, row.getInt("\"Mixed\""));
        assertEquals(3, row.getInt("I"));
    }

    @Test
    void twoColumnsDifferingOnlyInCaseNeedTheExactName() {
        ExecuteResponse r = ExecuteResponse.newBuilder().setHasRows(true)
                .addColumns(column("Ab", "int")).addColumns(column("aB", "int"))
                .addRows(dev.tributary.protocol.v1.Row.newBuilder()
                        .addValues(Value.newBuilder().setInteger(1)).addValues(Value.newBuilder().setInteger(2)))
                .build();
        Row row = ResultSet.of(r).one();
        assertEquals(1, row.getInt("Ab"));
        assertEquals(2, row.getInt("aB"));
        UnknownColumnException e = assertThrows(UnknownColumnException.class, () -> row.getInt("ab"));
        assertTrue(e.getMessage().contains("ambiguous"), e.getMessage());
    }

    @Test
    void blobsAreReadOnlyAndFreshEachTime() throws Exception {
        Row row = everyType();
        ByteBuffer b = row.getBytes("bl");
        assertTrue(b.isReadOnly());
        b.get();
        assertEquals(2, row.getBytes("bl").remaining());
    }

    @Test
    void toJsonRendersEveryTypeKeyedByColumnName() throws Exception {
        String json = everyType().toJson();
        assertEquals("{\"t\":\"x\",\"a\":\"y\",\"ti\":1,\"si\":2,\"i\":3,\"bi\":4,\"c\":5,\"vi\":\"6\",\"de\":\"7.5\","
                + "\"f\":8.5,\"d\":9.25,\"b\":true,\"ts\":\"2020-03-25T12:44:43.006Z\",\"dt\":\"2020-03-25\","
                + "\"tm\":\"12:44:43.006000000\",\"du\":\"1mo2d3ns\",\"bl\":\"0xcafe\","
                + "\"u\":\"e7cd2a10-6e1a-11ea-bc55-0242ac130003\",\"tu\":\"e7cd2a10-6e1a-11ea-bc55-0242ac130003\","
                + "\"ip\":\"127.0.0.1\",\"l\":[1,2],\"s\":[\"only\"],\"m\":{\"k\":1},\"n\":null,"
                + "\"cdc$stream_id\":\"0x01\",\"Mixed\":10,\"addr\":{\"city\":\"Oslo\",\"zip\":null}}", json);
        assertTrue(JsonReader.parse(json) instanceof Map);
    }

    @Test
    void aRowWithTheWrongNumberOfValuesIsRefused() {
        ExecuteResponse r = ExecuteResponse.newBuilder().setHasRows(true).addColumns(column("a", "int"))
                .addRows(dev.tributary.protocol.v1.Row.newBuilder()).build();
        assertThrows(ValueConversionException.class, () -> ResultSet.of(r));
    }
}
