package dev.tributary.dictionary;

import static dev.tributary.dictionary.Schemas.INT;
import static dev.tributary.dictionary.Schemas.TEXT;
import static dev.tributary.dictionary.Schemas.intTable;
import static dev.tributary.dictionary.Schemas.keyspace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.dictionary.errors.DictionaryCodecException;
import dev.tributary.dictionary.schema.CdcOptions;
import dev.tributary.dictionary.schema.ClusteringOrder;
import dev.tributary.dictionary.schema.ColumnSpec;
import dev.tributary.dictionary.schema.KeyspaceDef;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.schema.TableOptions;
import dev.tributary.dictionary.schema.UserTypeDef;
import dev.tributary.dictionary.types.CqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DictionaryCodecTest {
    static final UserTypeDef ADDRESS = new UserTypeDef("ks", "address", List.of(
            new CqlType.Field("street", TEXT), new CqlType.Field("phones", CqlType.parse("list<text>")),
            new CqlType.Field("since", CqlType.parse("frozen<map<date, set<inet>>>"))));
    static final UserTypeDef PERSON = new UserTypeDef("ks", "person", List.of(
            new CqlType.Field("name", CqlType.parse("varchar")),
            new CqlType.Field("home", ADDRESS.toType().withFrozen(true))));

    /** A table with a column of every native type, collections, and user types. */
    static TableDef everyType() {
        List<ColumnSpec> cols = new ArrayList<>();
        cols.add(new ColumnSpec("id", CqlType.parse("uuid")));
        cols.add(new ColumnSpec("bucket", CqlType.parse("frozen<list<int>>")));
        cols.add(new ColumnSpec("at", CqlType.parse("timeuuid")));
        cols.add(new ColumnSpec("who", PERSON.toType().withFrozen(true)));
        for (CqlType.Kind k : CqlType.Kind.values()) {
            if (k != CqlType.Kind.COUNTER) {
                cols.add(new ColumnSpec("c_" + k.name().toLowerCase(), CqlType.of(k)));
            }
        }
        cols.add(new ColumnSpec("l", CqlType.parse("list<frozen<set<bigint>>>")));
        cols.add(new ColumnSpec("s", CqlType.parse("set<text>")));
        cols.add(new ColumnSpec("m", CqlType.parse("map<ascii, duration>")));
        cols.add(new ColumnSpec("addr", ADDRESS.toType().withFrozen(true)));
        cols.add(new ColumnSpec("person", PERSON.toType())); // a non-frozen user type
        cols.add(new ColumnSpec("people", new CqlType.ListType(PERSON.toType().withFrozen(true), false)));
        cols.add(new ColumnSpec("st", CqlType.parse("smallint"), true));
        Map<String, String> other = new LinkedHashMap<>();
        other.put("comment", "all the types ✓");
        other.put("gc_grace_seconds", "10");
        TableOptions options = new TableOptions(new CdcOptions(true, CdcOptions.Preimage.FULL, true,
                CdcOptions.Delta.KEYS, 0), 4, other);
        return TableDef.create("ks", "every", 12, cols, List.of("id", "bucket"), List.of("at", "who"),
                Map.of("at", ClusteringOrder.DESC), options).withColumnDropped("c_int").withColumnAdded("late", INT);
    }

    static Stream<DictionaryChange> changes() {
        Map<String, String> nts = new LinkedHashMap<>();
        nts.put("class", "NetworkTopologyStrategy");
        nts.put("dc1", "3");
        return Stream.of(
                keyspace("ks"),
                new DictionaryChange.CreateKeyspace(new KeyspaceDef("tabs", nts, true)),
                new DictionaryChange.DropKeyspace("ks"),
                new DictionaryChange.CreateTable(everyType()),
                new DictionaryChange.CreateTable(intTable("ks", "plain", Long.MAX_VALUE - 1, "k")),
                new DictionaryChange.AlterTable(everyType().withOptions(TableOptions.DEFAULT)),
                new DictionaryChange.DropTable("ks", "every"),
                new DictionaryChange.TruncateTable("ks", "every"),
                new DictionaryChange.CreateType(ADDRESS),
                new DictionaryChange.CreateType(PERSON),
                new DictionaryChange.DropType("ks", "person"));
    }

    @ParameterizedTest
    @MethodSource("changes")
    void changesRoundTrip(DictionaryChange change) {
        byte[] bytes = DictionaryCodec.encode(change);
        assertEquals(DictionaryCodec.FORMAT_V1, bytes[0]);
        assertEquals(change, DictionaryCodec.decodeChange(bytes));
    }

    static DictionaryVersion fullVersion() {
        return DictionaryVersion.EMPTY.apply(1, keyspace("ks"))
                .apply(1, keyspace("empty"))
                .apply(2, new DictionaryChange.CreateType(ADDRESS))
                .apply(3, new DictionaryChange.CreateType(PERSON))
                .apply(4, new DictionaryChange.CreateTable(intTable("ks", "gone", 3, "k")))
                .apply(5, new DictionaryChange.CreateTable(everyType()))
                .apply(6, new DictionaryChange.CreateTable(intTable("empty", "t", 20, "k", "v")))
                .apply(7, new DictionaryChange.DropTable("empty", "t"))
                .apply(7, new DictionaryChange.DropTable("ks", "gone"));
    }

    @Test
    void versionsRoundTrip() {
        DictionaryVersion v = fullVersion();
        DictionaryVersion decoded = DictionaryCodec.decodeVersion(DictionaryCodec.encode(v));
        assertEquals(v, decoded);
        assertEquals(21, decoded.nextObjectNumber()); // dropped tables keep their numbers used
        assertEquals(v.requireTable(12), decoded.requireTable(12));
        assertEquals(List.of(ADDRESS, PERSON), decoded.userTypes());
        assertEquals(DictionaryVersion.EMPTY, DictionaryCodec.decodeVersion(DictionaryCodec.encode(DictionaryVersion.EMPTY)));
    }

    @Test
    void unknownFormatTagOrKindIsRefused() {
        byte[] bytes = DictionaryCodec.encode(keyspace("ks"));
        byte[] v2 = bytes.clone();
        v2[0] = 2;
        assertTrue(assertThrows(DictionaryCodecException.class, () -> DictionaryCodec.decodeChange(v2)).getMessage()
                .contains("unsupported dictionary format 2"));
        assertTrue(assertThrows(DictionaryCodecException.class, () -> DictionaryCodec.decodeVersion(bytes)).getMessage()
                .contains("not a whole version"));
        byte[] version = DictionaryCodec.encode(fullVersion());
        assertTrue(assertThrows(DictionaryCodecException.class, () -> DictionaryCodec.decodeChange(version)).getMessage()
                .contains("not a change"));
        byte[] tag = bytes.clone();
        tag[1] = 99;
        assertTrue(assertThrows(DictionaryCodecException.class, () -> DictionaryCodec.decodeChange(reseal(tag)))
                .getMessage().contains("unknown dictionary record tag 99"));
        assertThrows(DictionaryCodecException.class, () -> DictionaryCodec.decodeChange(new byte[0]));
        assertThrows(DictionaryCodecException.class, () -> DictionaryCodec.decodeChange(new byte[] {1, 1, 0, 0, 0}));
    }

    @Test
    void everyFlippedBitIsDetected() {
        byte[] bytes = DictionaryCodec.encode(new DictionaryChange.CreateTable(everyType()));
        for (int i = 0; i < bytes.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] corrupt = bytes.clone();
                corrupt[i] ^= (byte) (1 << bit);
                assertThrows(DictionaryCodecException.class, () -> DictionaryCodec.decodeChange(corrupt),
                        "bit " + bit + " of byte " + i);
            }
        }
    }

    @Test
    void truncatedOrPaddedInputIsRefused() {
        byte[] bytes = DictionaryCodec.encode(fullVersion());
        byte[] payload = Arrays.copyOf(bytes, bytes.length - 4);
        for (int len = 0; len < bytes.length; len++) {
            byte[] cut = Arrays.copyOf(bytes, len);
            assertThrows(DictionaryCodecException.class, () -> DictionaryCodec.decodeVersion(cut), "length " + len);
            if (len >= 2 && len < payload.length) {
                // still refused with a checksum that matches the shortened payload
                byte[] resealed = reseal(concat(Arrays.copyOf(payload, len), new byte[4]));
                assertThrows(DictionaryCodecException.class, () -> DictionaryCodec.decodeVersion(resealed),
                        "payload length " + len);
            }
        }
        byte[] padded = reseal(concat(payload, new byte[] {0, 0, 0, 0, 0}));
        assertTrue(assertThrows(DictionaryCodecException.class, () -> DictionaryCodec.decodeVersion(padded)).getMessage()
                .contains("unexpected bytes"));
    }

    @Test
    void aWellFormedButInconsistentVersionIsRefused() {
        // a table whose keyspace is missing: encode a version, then drop the keyspace record by hand
        DictionaryVersion v = DictionaryVersion.EMPTY.apply(1, keyspace("ks"))
                .apply(2, new DictionaryChange.CreateTable(intTable("ks", "t", 0, "k")));
        byte[] good = DictionaryCodec.encode(v);
        byte[] ksRecord = Arrays.copyOfRange(DictionaryCodec.encode(keyspace("ks")), 2,
                DictionaryCodec.encode(keyspace("ks")).length - 4);
        // layout: format, tag, scn(1), next(1), count(1), keyspace..., rest
        int ksStart = 5;
        byte[] withoutKs = concat(Arrays.copyOf(good, 4), new byte[] {0},
                Arrays.copyOfRange(good, ksStart + ksRecord.length, good.length));
        DictionaryCodecException e = assertThrows(DictionaryCodecException.class,
                () -> DictionaryCodec.decodeVersion(reseal(withoutKs)));
        assertTrue(e.getMessage().contains("unknown keyspace ks"), e.getMessage());
    }

    /** Recomputes the trailing CRC32C so a test can reach the checks behind it. */
    private static byte[] reseal(byte[] bytes) {
        byte[] out = bytes.clone();
        int end = out.length - 4;
        CRC32C crc = new CRC32C();
        crc.update(out, 0, end);
        int c = (int) crc.getValue();
        out[end] = (byte) (c >>> 24);
        out[end + 1] = (byte) (c >>> 16);
        out[end + 2] = (byte) (c >>> 8);
        out[end + 3] = (byte) c;
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
