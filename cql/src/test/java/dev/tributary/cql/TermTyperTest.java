package dev.tributary.cql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.ast.Insert;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlTypeException;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlDuration;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.TimeUuids;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TermTyperTest {
    private static final Instant NOW = Instant.parse("2020-03-25T16:05:31.939123456Z");
    private static final TermTyper TYPER = new TermTyper(
            new TimeUuidGenerator(InstantSource.fixed(NOW), 0x1234, 0xABCDEF012345L), new SplittableRandom(42));
    private static final CqlType.UserType ADDRESS = new CqlType.UserType("ks", "address", List.of(
            new CqlType.Field("street", CqlType.parse("text")), new CqlType.Field("zip", CqlType.parse("int"))), false);

    private static Term term(String text) {
        Insert ins = (Insert) CqlParser.parse("INSERT INTO t (v) VALUES (" + text + ")");
        return ins.values().get(0);
    }

    private static CqlType type(String text) {
        return CqlType.parse(text, name -> name.equals("address") ? ADDRESS : null);
    }

    private static Object value(String type, String literal) {
        return TYPER.toValue(type(type), term(literal), "v", List.of());
    }

    private static Object bound(String type, Object v) {
        return TYPER.toValue(type(type), term("?"), "v", Arrays.asList(v));
    }

    private static CqlTypeException typeError(String type, String literal) {
        return assertThrows(CqlTypeException.class, () -> value(type, literal));
    }

    private static CqlTypeException boundError(String type, Object v) {
        return assertThrows(CqlTypeException.class, () -> bound(type, v));
    }

    @Nested
    class Integers {
        @Test
        void intoEachIntegralTypeWithRangeChecks() {
            assertEquals((byte) 127, value("tinyint", "127"));
            assertEquals((byte) -128, value("tinyint", "-128"));
            assertEquals((short) -32768, value("smallint", "-32768"));
            assertEquals(2147483647, value("int", "2147483647"));
            assertEquals(Long.MAX_VALUE, value("bigint", "9223372036854775807"));
            assertEquals(5L, value("counter", "5"));
            assertEquals(new BigInteger("123456789012345678901234567890"), value("varint", "123456789012345678901234567890"));
        }

        @Test
        void outOfRangeNamesValueTypeAndColumn() {
            CqlTypeException e = typeError("int", "3000000000");
            assertEquals("value 3000000000 out of range for int column \"v\"", e.getMessage());
            assertEquals("v", e.column());
            assertEquals("int", e.type());
            assertEquals("3000000000", e.literal());
            assertEquals("value 128 out of range for tinyint column \"v\"", typeError("tinyint", "128").getMessage());
            assertEquals("value -32769 out of range for smallint column \"v\"", typeError("smallint", "-32769").getMessage());
            typeError("bigint", "9223372036854775808");
            typeError("counter", "-9223372036854775809");
        }

        @Test
        void intoFloatingAndDecimal() {
            assertEquals(5.0f, value("float", "5"));
            assertEquals(-5.0, value("double", "-5"));
            assertEquals(new BigDecimal("12345678901234567890"), value("decimal", "12345678901234567890"));
            typeError("float", "1" + "0".repeat(40));
            typeError("double", "1" + "0".repeat(400));
        }

        @Test
        void intoTimestampDateAndTime() {
            assertEquals(Instant.ofEpochMilli(1585140283006L), value("timestamp", "1585140283006"));
            assertEquals(Instant.ofEpochMilli(-1), value("timestamp", "-1"));
            assertEquals(LocalDate.of(1970, 1, 1), value("date", "2147483648"));
            assertEquals(LocalDate.of(1970, 1, 2), value("date", "2147483649"));
            typeError("date", "4294967296");
            typeError("date", "-1");
            assertEquals(LocalTime.of(0, 0, 1), value("time", "1000000000"));
            typeError("time", "86400000000000");
        }

        @Test
        void notIntoOtherTypes() {
            assertEquals("Invalid INTEGER constant (5) for \"v\" of type text", typeError("text", "5").getMessage());
            typeError("boolean", "1");
            typeError("uuid", "1");
            typeError("blob", "1");
        }
    }

    @Nested
    class Floats {
        @Test
        void decimalLiterals() {
            assertEquals(1.5f, value("float", "1.5"));
            assertEquals(1.5e10, value("double", "1.5e10"));
            assertEquals(-0.025, value("double", "-2.5E-2"));
            assertEquals(new BigDecimal("1.50"), value("decimal", "1.50"));
            assertEquals(new BigDecimal("-1E+3"), value("decimal", "-1e3"));
        }

        @Test
        void outOfRangeAndWrongTypes() {
            assertEquals("value 1e39 out of range for float column \"v\"", typeError("float", "1e39").getMessage());
            typeError("double", "1e309");
            typeError("decimal", "1e99999999999");
            assertEquals("Invalid FLOAT constant (1.5) for \"v\" of type int", typeError("int", "1.5").getMessage());
            typeError("varint", "1.0");
        }

        @Test
        void specialValues() {
            assertTrue(Float.isNaN((Float) value("float", "NaN")));
            assertEquals(Double.NEGATIVE_INFINITY, value("double", "-Infinity"));
            assertEquals(Float.POSITIVE_INFINITY, value("float", "Infinity"));
            assertEquals("Invalid FLOAT constant (NaN) for \"v\" of type decimal", typeError("decimal", "NaN").getMessage());
            typeError("int", "Infinity");
        }
    }

    @Nested
    class Strings {
        @Test
        void textTypes() {
            assertEquals("héllo", value("text", "'héllo'"));
            assertEquals("x", value("varchar", "'x'"));
            assertEquals("plain", value("ascii", "'plain'"));
            CqlTypeException e = typeError("ascii", "'héllo'");
            assertTrue(e.getMessage().startsWith("Invalid STRING constant ('héllo') for \"v\" of type ascii"), e.getMessage());
            assertTrue(e.getMessage().contains("non-ASCII"), e.getMessage());
        }

        @Test
        void notIntoNumbers() {
            CqlTypeException e = typeError("int", "'x'");
            assertEquals("Invalid STRING constant ('x') for \"v\" of type int", e.getMessage());
            assertEquals("'x'", e.literal());
            typeError("boolean", "'true'");
            typeError("blob", "'0x00'");
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
                "2020-03-25 12:44:43.006+0000|2020-03-25T12:44:43.006Z",
                "2020-03-25 12:44:43.006000+0000|2020-03-25T12:44:43.006Z",
                "2020-03-25T12:44:43Z|2020-03-25T12:44:43Z",
                "2020-03-25T12:44:43.123456789Z|2020-03-25T12:44:43.123Z",
                "2020-03-25 12:44:43|2020-03-25T12:44:43Z",
                "2020-03-25 12:44|2020-03-25T12:44:00Z",
                "2020-03-25|2020-03-25T00:00:00Z",
                "2020-03-25T12:44:43+01:00|2020-03-25T11:44:43Z",
                "2020-03-25 12:44:43-0230|2020-03-25T15:14:43Z",
                "2020-03-25 12:44:43 +0000|2020-03-25T12:44:43Z",
                "2020-03-25 12:44:43+05|2020-03-25T07:44:43Z",
                "2020-03-25 12:44:43 UTC|2020-03-25T12:44:43Z",
                "2020-3-5 1:02:03|2020-03-05T01:02:03Z",
                "1585140283006|2020-03-25T12:44:43.006Z"})
        void timestamps(String text, String instant) {
            assertEquals(Instant.parse(instant), value("timestamp", "'" + text + "'"));
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {"yesterday", "2020-13-01", "2020-02-30 00:00", "2020-03-25 25:00",
                "2020-03-25T12:44:43+19:00", "2020-03-25X12:00", "2020-03-25 12:44:43.1234567890"})
        void badTimestamps(String text) {
            CqlTypeException e = typeError("timestamp", "'" + text + "'");
            assertTrue(e.getMessage().startsWith("Invalid STRING constant ('" + text + "') for \"v\" of type timestamp"),
                    e.getMessage());
        }

        @Test
        void datesAndTimes() {
            assertEquals(LocalDate.of(2020, 1, 1), value("date", "'2020-01-01'"));
            assertEquals(LocalDate.of(1970, 1, 1), value("date", "'2147483648'"));
            typeError("date", "'2020-02-30'");
            typeError("date", "'01/01/2020'");
            assertEquals(LocalTime.of(12, 34, 56, 123456789), value("time", "'12:34:56.123456789'"));
            assertEquals(LocalTime.of(12, 34, 56, 500_000_000), value("time", "'12:34:56.5'"));
            assertEquals(LocalTime.of(0, 0, 0), value("time", "'00:00:00'"));
            typeError("time", "'24:00:00'");
            typeError("time", "'12:34'");
        }

        @Test
        void inetAddressesWithoutLookups() throws Exception {
            assertEquals(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), value("inet", "'127.0.0.1'"));
            assertEquals(InetAddress.getByName("::1"), value("inet", "'::1'"));
            assertEquals(InetAddress.getByName("2001:db8::ff00:42:8329"), value("inet", "'2001:db8::ff00:42:8329'"));
            typeError("inet", "'localhost'");
            typeError("inet", "'example.com'");
            typeError("inet", "'256.1.1.1'");
            typeError("inet", "'1.2.3'");
            typeError("inet", "'1::2::3'");
        }

        @Test
        void uuidsAndTimeuuids() {
            UUID v1 = UUID.fromString("c232ab00-9414-11ec-b3c8-9f6bdeced846");
            assertEquals(v1, value("uuid", "'c232ab00-9414-11ec-b3c8-9f6bdeced846'"));
            assertEquals(v1, value("timeuuid", "'C232AB00-9414-11EC-B3C8-9F6BDECED846'"));
            CqlTypeException e = typeError("timeuuid", "'550e8400-e29b-41d4-a716-446655440000'");
            assertTrue(e.getMessage().contains("version 4"), e.getMessage());
            typeError("uuid", "'not-a-uuid'");
            typeError("uuid", "'1-1-1-1-1'");
        }

        @Test
        void durationText() {
            assertEquals(new CqlDuration(0, 0, 5_400_000_000_000L), value("duration", "'1h30m'"));
            assertEquals(new CqlDuration(0, 1, 7_200_000_000_000L), value("duration", "'P1DT2H'"));
            typeError("duration", "'soon'");
        }
    }

    @Nested
    class OtherConstants {
        @Test
        void booleans() {
            assertEquals(true, value("boolean", "true"));
            assertEquals(false, value("boolean", "FALSE"));
            assertEquals("Invalid BOOLEAN constant (true) for \"v\" of type int", typeError("int", "true").getMessage());
        }

        @Test
        void uuidConstants() {
            assertEquals(UUID.fromString("550e8400-e29b-41d4-a716-446655440000"),
                    value("uuid", "550e8400-e29b-41d4-a716-446655440000"));
            assertEquals(UUID.fromString("c232ab00-9414-11ec-b3c8-9f6bdeced846"),
                    value("timeuuid", "c232ab00-9414-11ec-b3c8-9f6bdeced846"));
            CqlTypeException e = typeError("timeuuid", "550e8400-e29b-41d4-a716-446655440000");
            assertTrue(e.getMessage().startsWith("Invalid UUID constant (550e8400-e29b-41d4-a716-446655440000) for \"v\""),
                    e.getMessage());
            typeError("text", "550e8400-e29b-41d4-a716-446655440000");
        }

        @Test
        void blobsAndDurations() {
            assertEquals(Blob.fromHex("cafe"), value("blob", "0xCAFE"));
            assertEquals("Invalid HEX constant (0xcafe) for \"v\" of type text", typeError("text", "0xcafe").getMessage());
            assertEquals(new CqlDuration(14, 21, 0), value("duration", "1y2mo3w"));
            assertEquals(new CqlDuration(0, 0, -12_000_000), value("duration", "-12ms"));
            assertEquals("Invalid DURATION constant (2d) for \"v\" of type int", typeError("int", "2d").getMessage());
        }

        @Test
        void nullIntoAnything() {
            for (String t : List.of("int", "text", "list<int>", "map<text, int>", "address", "frozen<set<blob>>")) {
                assertNull(value(t, "null"), t);
            }
        }

        @Test
        void tuplesHaveNoColumnType() {
            assertEquals("Invalid tuple literal (1, 2) for \"v\" of type int", typeError("int", "(1, 2)").getMessage());
        }
    }

    @Nested
    class Collections {
        @Test
        void lists() {
            Object v = value("list<int>", "[1, 2, 2]");
            assertEquals(List.of(1, 2, 2), v);
            assertThrows(UnsupportedOperationException.class, () -> ((List<?>) v).clear());
            assertEquals(List.of(), value("frozen<list<int>>", "[]"));
            assertEquals(List.of(List.of(1L), List.of()), value("list<frozen<list<bigint>>>", "[[1], []]"));
        }

        @Test
        void setsKeepLiteralOrderWithoutDuplicates() {
            Object v = value("set<int>", "{3, 1, 3, 2}");
            assertInstanceOf(Set.class, v);
            assertEquals(List.of(3, 1, 2), new ArrayList<>((Set<?>) v));
            assertThrows(UnsupportedOperationException.class, () -> ((Set<?>) v).clear());
            assertEquals(Set.of(), value("set<text>", "{}"));
        }

        @Test
        void mapsKeepLiteralOrder() {
            Object v = value("map<text, int>", "{'b': 1, 'a': 2}");
            Map<Object, Object> expected = new LinkedHashMap<>();
            expected.put("b", 1);
            expected.put("a", 2);
            assertEquals(expected, v);
            assertEquals(List.of("b", "a"), new ArrayList<>(((Map<?, ?>) v).keySet()));
            assertThrows(UnsupportedOperationException.class, () -> ((Map<?, ?>) v).clear());
            assertEquals(Map.of(), value("map<int, text>", "{}"));
            CqlTypeException dup = typeError("map<int, text>", "{1: 'a', 1: 'b'}");
            assertTrue(dup.getMessage().contains("duplicate key 1"), dup.getMessage());
        }

        @Test
        void elementErrorsNameTheElement() {
            CqlTypeException e = typeError("list<int>", "['x']");
            assertEquals("Invalid STRING constant ('x') for \"value(v)\" of type int", e.getMessage());
            assertEquals("value(v)", e.column());
            assertEquals("key(v)", typeError("map<int, text>", "{'k': 'v'}").column());
            assertEquals("value(v)", typeError("map<int, text>", "{1: 2}").column());
            assertEquals("value 300 out of range for tinyint column \"value(v)\"",
                    typeError("set<tinyint>", "{300}").getMessage());
        }

        @Test
        void nullsInsideCollectionsAreRefused() {
            CqlTypeException e = typeError("list<int>", "[1, null]");
            assertTrue(e.getMessage().startsWith("null is not supported inside collections"), e.getMessage());
            typeError("set<int>", "{null}");
            typeError("map<int, int>", "{1: null}");
        }

        @Test
        void literalKindMustMatchCollectionKind() {
            assertEquals("Invalid list literal [1] for \"v\" of type set<int>", typeError("set<int>", "[1]").getMessage());
            assertEquals("Invalid set literal {1} for \"v\" of type list<int>", typeError("list<int>", "{1}").getMessage());
            typeError("list<int>", "{1: 2}");
            typeError("map<int, int>", "{1}");
            typeError("set<int>", "{1: 2}");
            typeError("int", "[1]");
            assertEquals("Invalid STRING constant ('x') for \"v\" of type list<int>",
                    typeError("list<int>", "'x'").getMessage());
        }
    }

    @Nested
    class UserTypes {
        @Test
        void fieldsInTypeOrderMissingOnesNull() {
            Object v = value("address", "{zip: 12345, street: 'Main'}");
            Map<String, Object> expected = new LinkedHashMap<>();
            expected.put("street", "Main");
            expected.put("zip", 12345);
            assertEquals(expected, v);
            assertEquals(List.of("street", "zip"), new ArrayList<>(((Map<?, ?>) v).keySet()));
            Map<String, Object> partial = new LinkedHashMap<>();
            partial.put("street", "Main");
            partial.put("zip", null);
            assertEquals(partial, value("address", "{street: 'Main'}"));
            assertEquals(partial, value("frozen<address>", "{street: 'Main', zip: null}"));
            assertEquals(2, ((Map<?, ?>) value("address", "{}")).size());
        }

        @Test
        void errors() {
            CqlTypeException unknown = typeError("address", "{city: 'x'}");
            assertTrue(unknown.getMessage().startsWith("Unknown field \"city\""), unknown.getMessage());
            assertEquals("v.zip", typeError("address", "{zip: 'x'}").column());
            typeError("address", "{'street': 'x'}");
            typeError("address", "[1]");
            assertEquals(List.of(Map.of("street", "a", "zip", 1)), value("list<frozen<address>>", "[{street: 'a', zip: 1}]"));
        }
    }

    @Nested
    class BoundValues {
        @Test
        void exactClassesAreAccepted() {
            assertEquals(5, bound("int", 5));
            assertEquals("x", bound("text", "x"));
            assertEquals(true, bound("boolean", true));
            assertEquals(LocalDate.of(2020, 1, 1), bound("date", LocalDate.of(2020, 1, 1)));
            assertEquals(new CqlDuration(1, 2, 3), bound("duration", new CqlDuration(1, 2, 3)));
            assertNull(bound("int", null));
        }

        @Test
        void narrowerValuesAreWidened() {
            assertEquals(5L, bound("bigint", 5));
            assertEquals(5L, bound("counter", (short) 5));
            assertEquals((short) 5, bound("smallint", (byte) 5));
            assertEquals(BigInteger.valueOf(5), bound("varint", 5L));
            assertEquals(new BigDecimal("1.5"), bound("decimal", 1.5));
            assertEquals(BigDecimal.valueOf(7), bound("decimal", 7));
            assertEquals(2.5, bound("double", 2.5f));
            assertEquals(3.0, bound("double", 3));
            assertEquals(List.of(1L, 2L), bound("list<bigint>", List.of(1, 2)));
        }

        @Test
        void widerOrOtherClassesAreRefused() {
            CqlTypeException e = boundError("int", 5L);
            assertEquals("Invalid bound value (5) for \"v\" of type int: expected Integer, got Long", e.getMessage());
            boundError("int", "5");
            boundError("float", 1.5);
            boundError("tinyint", 1);
            boundError("timestamp", 1585140283006L);
            boundError("list<int>", Set.of(1));
            boundError("set<int>", List.of(1));
            boundError("map<int, int>", List.of());
        }

        @Test
        void contentChecks() {
            assertTrue(boundError("ascii", "é").getMessage().contains("non-ASCII"));
            boundError("timeuuid", UUID.fromString("550e8400-e29b-41d4-a716-446655440000"));
            assertEquals(Instant.parse("2020-03-25T12:44:43.006Z"),
                    bound("timestamp", Instant.parse("2020-03-25T12:44:43.006999Z")));
            assertEquals(Blob.fromHex("0102"), bound("blob", new byte[] {1, 2}));
            assertEquals(Blob.fromHex("0102"), bound("blob", Blob.fromHex("0102")));
        }

        @Test
        void collectionsAndUserTypes() {
            Set<Object> set = new LinkedHashSet<>(List.of(3, 1));
            assertEquals(List.of(3, 1), new ArrayList<>((Set<?>) bound("set<int>", set)));
            assertEquals(Map.of("a", 1L), bound("map<text, bigint>", Map.of("a", 1)));
            CqlTypeException nullElement = boundError("list<int>", Arrays.asList(1, null));
            assertTrue(nullElement.getMessage().startsWith("null is not supported inside collections"));
            Map<String, Object> addr = new LinkedHashMap<>();
            addr.put("zip", 1);
            Map<String, Object> expected = new LinkedHashMap<>();
            expected.put("street", null);
            expected.put("zip", 1);
            assertEquals(expected, bound("address", addr));
            boundError("address", Map.of("city", "x"));
            assertEquals("v.zip", boundError("address", Map.of("zip", "x")).column());
        }

        @Test
        void markersInsideLiterals() {
            Term t = term("[?, 1, ?]");
            assertEquals(List.of(7, 1, 8), TYPER.toValue(type("list<int>"), t, "v", List.of(7, 8)));
        }

        @Test
        void missingValuesAreInvalid() {
            CqlInvalidException e = assertThrows(CqlInvalidException.class,
                    () -> TYPER.toValue(type("int"), term("?"), "v", List.of()));
            assertTrue(e.getMessage().contains("?0"), e.getMessage());
            assertThrows(CqlInvalidException.class, () -> TYPER.toValue(type("int"), term("?"), "v", null));
        }
    }

    @Nested
    class Functions {
        @Test
        void nowIsAFreshTimeuuidOfTheClock() {
            UUID a = (UUID) value("timeuuid", "now()");
            UUID b = (UUID) value("timeuuid", "now()");
            assertEquals(1, a.version());
            assertEquals(NOW.toEpochMilli(), TimeUuids.unixMillis(a));
            assertNotEquals(a, b);
            assertEquals(0xABCDEF012345L, TimeUuids.node(a));
            assertEquals(1, ((UUID) value("uuid", "now()")).version());
            assertEquals(1, ((UUID) value("timeuuid", "currenttimeuuid()")).version());
        }

        @Test
        void timestampFunctions() {
            Instant millis = Instant.ofEpochMilli(NOW.toEpochMilli());
            assertEquals(millis, value("timestamp", "totimestamp(now())"));
            assertEquals(millis, value("timestamp", "currenttimestamp()"));
            assertEquals(millis, value("timestamp", "dateof(now())"));
            assertEquals(LocalDate.of(2020, 3, 25), value("date", "todate(now())"));
            assertEquals(LocalDate.of(2020, 3, 25), value("date", "currentdate()"));
            assertEquals(LocalTime.of(16, 5, 31, 939123456), value("time", "currenttime()"));
            assertEquals(NOW.toEpochMilli(), value("bigint", "tounixtimestamp(now())"));
            assertEquals(NOW.toEpochMilli(), value("bigint", "unixtimestampof(now())"));
            assertEquals(Instant.parse("2020-01-01T00:00:00Z"), value("timestamp", "totimestamp('2020-01-01')"));
            assertEquals(Instant.ofEpochMilli(TimeUuids.unixMillis(UUID.fromString("c232ab00-9414-11ec-b3c8-9f6bdeced846"))),
                    value("timestamp", "totimestamp(c232ab00-9414-11ec-b3c8-9f6bdeced846)"));
            assertEquals(LocalDate.of(2020, 3, 25), value("date", "todate('2020-03-25 23:59:59')"));
            assertNull(value("timestamp", "totimestamp(null)"));
        }

        @Test
        void minAndMaxTimeuuid() {
            UUID min = (UUID) value("timeuuid", "mintimeuuid('2013-02-02 10:00+0000')");
            UUID max = (UUID) value("timeuuid", "maxtimeuuid('2013-02-02 10:00+0000')");
            long ms = Instant.parse("2013-02-02T10:00:00Z").toEpochMilli();
            assertEquals(TimeUuids.minTimeUuid(ms), min);
            assertEquals(TimeUuids.maxTimeUuid(ms), max);
        }

        @Test
        void uuidIsRandomVersionFour() {
            UUID u = (UUID) value("uuid", "uuid()");
            assertEquals(4, u.version());
            assertEquals(2, u.variant());
            assertNotEquals(u, value("uuid", "uuid()"));
        }

        @Test
        void resultTypeMustFitTheColumn() {
            CqlTypeException e = typeError("int", "now()");
            assertEquals("Type error: cannot assign result of function system.now (type timeuuid) to \"v\" of type int",
                    e.getMessage());
            typeError("timeuuid", "uuid()");
            typeError("text", "totimestamp(now())");
            typeError("timestamp", "totimestamp(uuid())");
            typeError("timestamp", "totimestamp('xyz')");
            typeError("timestamp", "dateof('2020-01-01')");
        }

        @Test
        void unknownFunctionsAndBadArityAreInvalid() {
            CqlInvalidException unknown = assertThrows(CqlInvalidException.class, () -> value("int", "nosuchfn(1)"));
            assertTrue(unknown.getMessage().contains("nosuchfn"), unknown.getMessage());
            CqlInvalidException arity = assertThrows(CqlInvalidException.class, () -> value("timestamp", "totimestamp(1, 2)"));
            assertEquals("Invalid number of arguments in call to function system.totimestamp: 1 required but 2 provided",
                    arity.getMessage());
            assertThrows(CqlInvalidException.class, () -> value("timeuuid", "now(1)"));
            assertThrows(CqlInvalidException.class, () -> value("bigint", "token(1)"));
        }
    }

    @Test
    void systemDefaultWorks() {
        TermTyper typer = TermTyper.systemDefault();
        UUID u = (UUID) typer.toValue(type("timeuuid"), term("now()"), "v", null);
        long age = System.currentTimeMillis() - TimeUuids.unixMillis(u);
        assertTrue(age >= 0 && age < 60_000, "now() is " + age + " ms old");
    }
}
