package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.client.CqlDuration;
import dev.tributary.client.CqlTypeName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CqlshValuesTest {

    private static String f(Object v, String type) {
        return CqlshValues.format(v, type == null ? null : CqlTypeName.parse(type));
    }

    @Test
    void scalarsAsCqlshPrintsThem() throws Exception {
        assertEquals("null", f(null, "int"));
        assertEquals("hello", f("hello", "text"));
        assertEquals("a\\nb\\tc\\x01", f("a\nb\tc\u0001", "text"));
        assertEquals("True", f(true, "boolean"));
        assertEquals("False", f(false, "boolean"));
        assertEquals("-5", f((byte) -5, "tinyint"));
        assertEquals("42", f(42, "int"));
        assertEquals("9223372036854775807", f(Long.MAX_VALUE, "bigint"));
        assertEquals("123456789012345678901234567890", f(new BigInteger("123456789012345678901234567890"), "varint"));
        assertEquals("7.50", f(new BigDecimal("7.50"), "decimal"));
        assertEquals("2020-03-25 12:44:43.006000+0000", f(Instant.parse("2020-03-25T12:44:43.006Z"), "timestamp"));
        assertEquals("2020-03-25", f(LocalDate.of(2020, 3, 25), "date"));
        assertEquals("12:44:43.006000000", f(LocalTime.of(12, 44, 43, 6_000_000), "time"));
        assertEquals("1mo2d3ns", f(new CqlDuration(1, 2, 3), "duration"));
        assertEquals("0xcafe", f(ByteBuffer.wrap(new byte[] {(byte) 0xca, (byte) 0xfe}), "blob"));
        assertEquals("e7cd2a10-6e1a-11ea-bc55-0242ac130003",
                f(UUID.fromString("e7cd2a10-6e1a-11ea-bc55-0242ac130003"), "timeuuid"));
        assertEquals("127.0.0.1", f(InetAddress.getByName("127.0.0.1"), "inet"));
    }

    @Test
    void collectionsQuoteTheirText() {
        assertEquals("[1, 2, 3]", f(List.of(1, 2, 3), "list<int>"));
        assertEquals("{'a', 'it''s'}", f(new LinkedHashSet<>(List.of("a", "it's")), "set<text>"));
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("x", 1);
        m.put("y", 2);
        assertEquals("{'x': 1, 'y': 2}", f(m, "map<text, int>"));
        assertEquals("['2020-03-25 12:44:43.006000+0000']", f(List.of(Instant.parse("2020-03-25T12:44:43.006Z")), "list<timestamp>"));
        assertEquals("{[1, 2]: {True}}", f(Map.of(List.of(1, 2), new LinkedHashSet<>(List.of(true))), "map<frozen<list<int>>, frozen<set<boolean>>>"));
        assertEquals("[0x01]", f(List.of(ByteBuffer.wrap(new byte[] {1})), "list<blob>"));
        assertEquals("[]", f(List.of(), "list<int>"));
    }

    @Test
    void userTypesShowFieldNamesUnquoted() {
        Map<String, Object> udt = new LinkedHashMap<>();
        udt.put("street", "Main");
        udt.put("zip", null);
        assertEquals("{street: 'Main', zip: null}", f(udt, "frozen<address>"));
        assertEquals("{'street': 'Main', 'zip': null}", f(udt, "map<text, int>"));
    }

    @ParameterizedTest(name = "float {0} -> {1}")
    @CsvSource({
        "1.5, 1.5",
        "0.1, 0.1",
        "3.14159265, 3.14159",
        "123.456, 123.456",
        "100000.0, 1e+05",
        "1234567.0, 1.2346e+06",
        "0.001234, 0.001234",
        "0.00001234, 1.2e-05",
        "-2.5, -2.5",
        "0.0, 0",
    })
    void floatsUseFiveSignificantDigits(float v, String expected) {
        assertEquals(expected, f(v, "float"));
    }

    @ParameterizedTest(name = "double {0} -> {1}")
    @CsvSource({
        "9.25, 9.25",
        "0.1, 0.1",
        "3.141592653589793, 3.14159265359",
        "1.0E10, 10000000000",
        "1.0E15, 1e+15",
        "2.5E-7, 2.5e-07",
        "-0.0, -0",
    })
    void doublesUseTwelveSignificantDigits(double v, String expected) {
        assertEquals(expected, f(v, "double"));
    }

    @Test
    void nonFiniteFloatsByName() {
        assertEquals("NaN", f(Double.NaN, "double"));
        assertEquals("Infinity", f(Float.POSITIVE_INFINITY, "float"));
        assertEquals("-Infinity", f(Double.NEGATIVE_INFINITY, "double"));
    }

    @ParameterizedTest(name = "%.{1}g of {0} = {2}")
    @CsvSource({
        "0.5, 1, 0.5",
        "0.05, 1, 0.05",
        "1.0E-5, 3, 1e-05",
        "123456.0, 3, 1.23e+05",
        "999.5, 3, 1e+03",
        "1.25, 2, 1.2",
        "1.35, 2, 1.4",
        "1.0E100, 6, 1e+100",
    })
    void percentGMatchesPython(double v, int precision, String python) {
        assertEquals(python, CqlshValues.percentG(v, precision));
    }
}
