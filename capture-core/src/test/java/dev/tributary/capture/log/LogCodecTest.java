package dev.tributary.capture.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.dictionary.io.CorruptRecordException;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlDuration;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.dictionary.types.ValueCodec;
import dev.tributary.dictionary.types.Values;
import dev.tributary.generations.StreamId;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(30)
class LogCodecTest {
    private static final LogPosition POS = new LogPosition(new StreamId(-77L, 0x1234L), TimeUuids.of(1_700_000_000_000_001L, 5), 3);

    private static CqlType t(String cql) {
        return CqlType.parse(cql);
    }

    private static final CqlType.UserType ADDRESS = new CqlType.UserType("ks", "address",
            List.of(new CqlType.Field("street", t("text")), new CqlType.Field("zip", t("int")),
                    new CqlType.Field("tags", t("frozen<set<text>>"))), true);

    private static InetAddress inet(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** One column of every type of the value model (docs/ARCHITECTURE.md), plus NULL. */
    static List<LcrColumn> everyType() {
        Map<String, Object> address = new LinkedHashMap<>();
        address.put("street", "1 Main St");
        address.put("zip", 12345);
        address.put("tags", Set.of("home", "work"));
        Map<String, Object> partialAddress = new LinkedHashMap<>();
        partialAddress.put("street", null);
        partialAddress.put("zip", 1);
        partialAddress.put("tags", null);
        Object[][] spec = {
            {"ascii", "ascii", "abc"}, {"text", "text", "héllo ✓"}, {"varchar", "varchar", ""},
            {"tinyint", "tinyint", (byte) -128}, {"smallint", "smallint", (short) 32767}, {"int", "int", Integer.MIN_VALUE},
            {"bigint", "bigint", Long.MAX_VALUE}, {"counter", "counter", -5L},
            {"varint", "varint", new BigInteger("-123456789012345678901234567890")},
            {"decimal", "decimal", new BigDecimal("-1234.56789000")}, {"float", "float", 1.5f},
            {"float_nan", "float", Float.NaN}, {"double", "double", -0.0d}, {"boolean", "boolean", true},
            {"timestamp", "timestamp", Instant.parse("2020-03-25T12:44:43.006Z")},
            {"date", "date", LocalDate.of(-5, 1, 1)}, {"time", "time", LocalTime.of(23, 59, 59, 999_999_999)},
            {"duration", "duration", new CqlDuration(1, -0, 3_600_000_000_000L)},
            {"blob", "blob", Blob.of(new byte[] {0, 1, (byte) 0xFF})}, {"uuid", "uuid", UUID.fromString("123e4567-e89b-42d3-a456-556642440000")},
            {"timeuuid", "timeuuid", TimeUuids.of(1_600_000_000_000_000L, 99)},
            {"inet4", "inet", inet("192.168.0.1")}, {"inet6", "inet", inet("2001:db8::1")},
            {"list", "list<int>", List.of(3, 1, 3)}, {"set", "set<text>", Set.of("b", "a")},
            {"map", "map<text, frozen<list<double>>>", Map.of("k", List.of(1.0, 2.0), "a", List.of())},
            {"frozen_set", "frozen<set<bigint>>", Set.of(5L, -5L)},
            {"nested", "list<frozen<map<int, frozen<set<timeuuid>>>>>",
                List.of(Map.of(1, Set.of(TimeUuids.of(1, 2))))},
            {"null_text", "text", null}, {"null_list", "list<int>", null},
        };
        List<LcrColumn> out = new ArrayList<>();
        for (Object[] s : spec) {
            CqlType type = t((String) s[1]);
            out.add(new LcrColumn((String) s[0], type, Values.normalize(type, s[2])));
        }
        out.add(new LcrColumn("udt", ADDRESS, Values.normalize(ADDRESS, address)));
        out.add(new LcrColumn("udt_nulls", ADDRESS, Values.normalize(ADDRESS, partialAddress)));
        CqlType listOfUdt = new CqlType.ListType(ADDRESS, false);
        out.add(new LcrColumn("udt_list", listOfUdt, Values.normalize(listOfUdt, List.of(address))));
        return out;
    }

    private static RowLcr rowLcr(List<LcrColumn> oldValues, List<LcrColumn> newValues, byte[] tag) {
        return new RowLcr("tributary", RowLcr.UPDATE, "ks", "t", tag, "3.abc", 12345L, 12346L, oldValues, newValues,
                List.of(new LcrColumn("username", t("text"), "alice"), new LcrColumn("thread#", t("int"), 3)));
    }

    private static LogRecord roundTrip(LogRecord r) {
        return LogCodec.decodeBody(r.logId(), r.position(), LogCodec.encodeBody(r));
    }

    @Test
    @DisplayName("a row record with every value type of the value model reads back equal")
    void everyValueType() {
        List<LcrColumn> all = everyType();
        LogRecord r = new LogRecord(9, POS, CdcOperation.UPDATE, false, 3600, rowLcr(all, all, new byte[] {1, 2}), null);
        LogRecord back = roundTrip(r);
        assertEquals(r, back);
        RowLcr lcr = (RowLcr) back.lcr();
        for (LcrColumn c : all) {
            LcrColumn b = RowLcr.find(lcr.newValues(), c.name());
            assertEquals(c.type(), b.type(), c.name());
            assertEquals(c.value(), b.value(), c.name());
        }
    }

    @ParameterizedTest
    @EnumSource(CdcOperation.class)
    @DisplayName("every cdc$operation, end_of_batch, ttl and image read back")
    void everyOperation(CdcOperation op) {
        List<LcrColumn> image = List.of(new LcrColumn("pk", t("int"), 1), new LcrColumn("v", t("text"), null));
        boolean end = op.code() % 2 == 0;
        LogRecord r = new LogRecord(1, POS, op, end, op.code(), rowLcr(image, image, null), image);
        LogRecord back = roundTrip(r);
        assertEquals(r, back);
        assertEquals(op, back.operation());
        assertEquals(end, back.endOfBatch());
        assertEquals(image, back.image());
    }

    @Test
    @DisplayName("absent old values, new values and image stay absent, as distinct from empty")
    void nullAndEmptyColumnLists() {
        LogRecord insert = new LogRecord(1, POS, CdcOperation.INSERT, true, 0, rowLcr(null, List.of(), null), null);
        LogRecord back = roundTrip(insert);
        assertNull(((RowLcr) back.lcr()).oldValues());
        assertEquals(List.of(), ((RowLcr) back.lcr()).newValues());
        assertNull(back.image());
        LogRecord delete = new LogRecord(1, POS, CdcOperation.ROW_DELETE, true, 0, rowLcr(List.of(), null, null),
                List.of());
        LogRecord back2 = roundTrip(delete);
        assertEquals(List.of(), ((RowLcr) back2.lcr()).oldValues());
        assertNull(((RowLcr) back2.lcr()).newValues());
        assertEquals(List.of(), back2.image());
        assertEquals(delete, back2);
    }

    private static DdlLcr ddlLcr(byte[] tag) {
        return new DdlLcr("tributary", "ALTER TABLE", "ks", "t", "TABLE", "ALTER TABLE ks.t ADD x text", "alice", "ks",
                null, null, tag, "3.1", 777L, List.of(new LcrColumn("session#", t("bigint"), 42L)));
    }

    @Test
    void ddlRecordRoundTrip() {
        for (byte[] tag : new byte[][] {null, {}, {7, 7}}) {
            LogRecord r = new LogRecord(4, new LogPosition(new StreamId(0, 0), TimeUuids.of(5, 6), 0), null, true, 0,
                    ddlLcr(tag), null);
            LogRecord back = roundTrip(r);
            assertEquals(r, back);
            assertNull(back.operation());
            assertTrue(back.isDelta(), "a DDL record carries its LCR");
        }
    }

    static Stream<LogRecord> samples() {
        List<LcrColumn> all = everyType();
        return Stream.of(new LogRecord(9, POS, CdcOperation.PREIMAGE, false, 10, rowLcr(all, all, new byte[] {1}), all),
                new LogRecord(4, POS, null, true, 0, ddlLcr(new byte[] {3}), null));
    }

    @ParameterizedTest
    @MethodSource("samples")
    @DisplayName("a flipped byte anywhere is refused as damaged, naming the log and position, never decoded into another record")
    void bitFlips(LogRecord r) {
        byte[] b = LogCodec.encodeBody(r);
        for (int i = 1; i < b.length; i++) { // byte 0, the format, is refused as an unknown format
            for (int mask : new int[] {0x01, 0x80, 0xFF}) {
                byte[] bad = b.clone();
                bad[i] ^= (byte) mask;
                CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> LogCodec.decodeBody(4, POS, bad),
                        "byte " + i + " ^ " + mask);
                assertTrue(e.getMessage().startsWith("log record of log 4 at " + POS + " is damaged"), e.getMessage());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("samples")
    @DisplayName("a record stored in format 2, before records had a checksum, still reads back")
    void formatTwoStillReads(LogRecord r) {
        byte[] sealed = LogCodec.encodeBody(r);
        byte[] unsealed = Arrays.copyOf(sealed, sealed.length - dev.tributary.dictionary.io.RecordChecksum.BYTES);
        unsealed[0] = 2;
        assertEquals(r, LogCodec.decodeBody(r.logId(), r.position(), unsealed));
    }

    @ParameterizedTest
    @MethodSource("samples")
    @DisplayName("every truncation of a record body is refused as corrupt")
    void truncated(LogRecord r) {
        byte[] b = LogCodec.encodeBody(r);
        for (int len = 0; len < b.length; len++) {
            byte[] cut = Arrays.copyOf(b, len);
            assertThrows(CorruptRecordException.class, () -> LogCodec.decodeBody(1, POS, cut), "prefix of " + len);
        }
    }

    @Test
    void unknownFormatTrailingBytesUnknownKindAndOperation() {
        byte[] b = LogCodec.encodeBody(new LogRecord(4, POS, CdcOperation.INSERT, true, 0, rowLcr(null, List.of(), null),
                null));
        byte[] format = b.clone();
        format[0] = 9;
        assertTrue(assertThrows(CorruptRecordException.class, () -> LogCodec.decodeBody(4, POS, format)).getMessage()
                .contains("format 9"));
        byte[] longer = Arrays.copyOf(b, b.length + 2);
        assertThrows(CorruptRecordException.class, () -> LogCodec.decodeBody(4, POS, longer));
        byte[] op = b.clone();
        op[1] = 42;
        assertThrows(CorruptRecordException.class, () -> LogCodec.decodeBody(4, POS, op));
        byte[] end = b.clone();
        end[2] = 2;
        assertThrows(CorruptRecordException.class, () -> LogCodec.decodeBody(4, POS, end));
        byte[] kind = b.clone();
        int kindAt = 1 + 1 + 1 + 1 + 1; // format, op, end, ttl varint, image "absent"
        assertEquals('R', kind[kindAt]);
        kind[kindAt] = 'X';
        assertThrows(CorruptRecordException.class, () -> LogCodec.decodeBody(4, POS, kind));
    }

    /** A body in format 1, where a column's type is its CQL text. */
    private static byte[] formatOne(String typeText, byte[] value) {
        BinaryWriter w = new BinaryWriter(64);
        w.u8(1).u8(CdcOperation.INSERT.code()).u8(1).varint(0).varint(0);
        w.u8('R').string("tributary").string("INSERT").string("ks").string("t").bytes(null).string("3.1").i64(1).i64(1);
        w.varint(0);
        w.varint(2).string("c").string(typeText).bytes(value);
        w.varint(1);
        return w.toByteArray();
    }

    @Test
    @DisplayName("records written in format 1 (types as CQL text) still read back")
    void readsFormatOne() {
        CqlType type = t("map<text, frozen<list<int>>>");
        Object value = Values.normalize(type, Map.of("a", List.of(1, 2)));
        LogRecord r = LogCodec.decodeBody(4, POS, formatOne(type.cql(), ValueCodec.encode(type, value)));
        LcrColumn c = ((RowLcr) r.lcr()).newValues().get(0);
        assertEquals(new LcrColumn("c", type, value), c);
        assertEquals(List.of(), r.lcr().extra());
    }

    @Test
    @DisplayName("a type that does not parse, or value bytes that are not a value of the type, are corruption")
    void badTypeOrValue() {
        assertThrows(CorruptRecordException.class,
                () -> LogCodec.decodeBody(4, POS, formatOne("no_such_type", new byte[] {0, 0, 0, 1})));
        CorruptRecordException e = assertThrows(CorruptRecordException.class,
                () -> LogCodec.decodeBody(4, POS, formatOne("int", new byte[] {0, 1, 2})));
        assertTrue(e.getMessage().contains("log 4"), e.getMessage());
    }
}
