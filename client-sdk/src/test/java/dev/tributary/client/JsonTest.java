package dev.tributary.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tributary.client.internal.JsonReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The JSON value forms of INTERFACE.md section 2, one assertion per type. */
class JsonTest {

    @Test
    void textTypesAreStrings() {
        assertEquals("\"abc\"", Json.write("abc"));
        assertEquals("\"a\\\"b\\\\c\\nd\\u0001\"", Json.write("a\"b\\c\nd\u0001"));
        assertEquals("\"héllo\"", Json.write("héllo"));
    }

    @Test
    void integersAreNumbers() {
        assertEquals("-128", Json.write((byte) -128));
        assertEquals("32767", Json.write((short) 32767));
        assertEquals("42", Json.write(42));
        assertEquals("9223372036854775807", Json.write(Long.MAX_VALUE));
    }

    @Test
    void varintAndDecimalAreStrings() {
        assertEquals("\"123456789012345678901234567890\"", Json.write(new BigInteger("123456789012345678901234567890")));
        assertEquals("\"3.14\"", Json.write(new BigDecimal("3.14")));
    }

    @Test
    void floatingPointIsANumber() {
        assertEquals("1.5", Json.write(1.5f));
        assertEquals("-0.1", Json.write(-0.1));
        assertEquals("1.0E10", Json.write(1e10));
        assertEquals(new BigDecimal("1.0E10"), JsonReader.parse(Json.write(1e10)));
        assertEquals("\"NaN\"", Json.write(Double.NaN));
        assertEquals("\"-Infinity\"", Json.write(Float.NEGATIVE_INFINITY));
    }

    @Test
    void booleansAndNull() {
        assertEquals("true", Json.write(true));
        assertEquals("false", Json.write(false));
        assertEquals("null", Json.write(null));
    }

    @Test
    void timestampIsIsoUtcWithMilliseconds() {
        assertEquals("\"2020-03-25T12:44:43.006Z\"", Json.write(Instant.parse("2020-03-25T12:44:43.006Z")));
        assertEquals("\"1970-01-01T00:00:00.000Z\"", Json.write(Instant.EPOCH));
        assertEquals("\"1969-12-31T23:59:59.999Z\"", Json.write(Instant.ofEpochMilli(-1)));
    }

    @Test
    void dateAndTime() {
        assertEquals("\"2020-03-25\"", Json.write(LocalDate.of(2020, 3, 25)));
        assertEquals("\"12:44:43.006000000\"", Json.write(LocalTime.of(12, 44, 43, 6_000_000)));
        assertEquals("\"00:00:00.000000000\"", Json.write(LocalTime.MIDNIGHT));
    }

    @Test
    void blobIsLowercaseHex() {
        assertEquals("\"0x00abff\"", Json.write(ByteBuffer.wrap(new byte[] {0, (byte) 0xab, (byte) 0xff})));
        assertEquals("\"0x\"", Json.write(ByteBuffer.allocate(0)));
        assertEquals("\"0x0a\"", Json.write(new byte[] {10}));
    }

    @Test
    void uuidIsCanonical() {
        assertEquals("\"123e4567-e89b-42d3-a456-556642440000\"",
                Json.write(UUID.fromString("123E4567-E89B-42D3-A456-556642440000")));
    }

    @Test
    void durationAndInetAreStrings() throws Exception {
        assertEquals("\"1mo2d3ns\"", Json.write(new CqlDuration(1, 2, 3)));
        assertEquals("\"10.0.0.1\"", Json.write(InetAddress.getByName("10.0.0.1")));
    }

    @Test
    void listsAndSetsAreArrays() {
        assertEquals("[1,2,3]", Json.write(List.of(1, 2, 3)));
        assertEquals("[\"b\",\"a\"]", Json.write(new LinkedHashSet<>(List.of("b", "a"))));
        assertEquals("[]", Json.write(List.of()));
        assertEquals("[[1],[2,3]]", Json.write(List.of(List.of(1), List.of(2, 3))));
    }

    @Test
    void mapsAreObjectsWithStringKeys() {
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(2, "two");
        m.put(1, "one");
        assertEquals("{\"2\":\"two\",\"1\":\"one\"}", Json.write(m));
        assertEquals("{\"0x01\":true}", Json.write(Map.of(ByteBuffer.wrap(new byte[] {1}), true)));
        assertEquals("{\"2020-03-25T12:44:43.006Z\":1}", Json.write(Map.of(Instant.parse("2020-03-25T12:44:43.006Z"), 1)));
        assertEquals("{\"[1,2]\":\"x\"}", Json.write(Map.of(List.of(1, 2), "x")));
        Map<String, Object> udt = new LinkedHashMap<>();
        udt.put("street", "Main");
        udt.put("zip", null);
        assertEquals("{\"street\":\"Main\",\"zip\":null}", Json.write(udt));
    }

    @Test
    void unknownClassesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Json.write(new Object()));
    }

    @Test
    void readerParsesWhatTheWriterWrites() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "a\"\\\n\u0001é");
        m.put("n", 12);
        m.put("l", List.of(true, false));
        m.put("z", null);
        m.put("big", new BigInteger("123456789012345678901234567890"));
        Object parsed = JsonReader.parse(Json.write(m));
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("s", "a\"\\\n\u0001é");
        expected.put("n", 12L);
        expected.put("l", List.of(true, false));
        expected.put("z", null);
        expected.put("big", "123456789012345678901234567890");
        assertEquals(expected, parsed);
        assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(((Map<?, ?>) parsed).keySet()));
    }

    @Test
    void readerHandlesNumbersEscapesAndWhitespace() {
        assertEquals(new BigDecimal("-1.5e3"), JsonReader.parse(" -1.5e3 "));
        assertEquals(new BigInteger("99999999999999999999"), JsonReader.parse("99999999999999999999"));
        assertEquals("\u00e9/", JsonReader.parse("\"\\u00e9\\/\""));
        assertEquals(List.of(), JsonReader.parse("[ ]"));
        assertEquals(Map.of(), JsonReader.parse("{ }"));
    }

    @Test
    void readerRejectsMalformedJsonWithAPosition() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("{\"a\":1,}"));
        assertEquals("invalid JSON at position 7: expected an object key", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("[1 2]"));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("\"open"));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("tru"));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("1 1"));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("-"));
    }
}
