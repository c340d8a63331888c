package dev.tributary.capture.redo;

import static dev.tributary.capture.CaptureFixtures.INT;
import static dev.tributary.capture.CaptureFixtures.KS;
import static dev.tributary.capture.CaptureFixtures.SESSION;
import static dev.tributary.capture.CaptureFixtures.TEXT;
import static dev.tributary.capture.CaptureFixtures.cv;
import static dev.tributary.capture.CaptureFixtures.table;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tributary.capture.CaptureFixtures;
import dev.tributary.dictionary.DictionaryChange;
import dev.tributary.dictionary.io.CorruptRecordException;
import dev.tributary.dictionary.io.RecordChecksum;
import dev.tributary.dictionary.schema.CdcOptions;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.schema.UserTypeDef;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.DictionaryCodec;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(30)
class RedoCodecTest {
    private static final TableDef T = table("t", 5, CdcOptions.enabledWithDefaults());

    private static RedoEntry rowEntry(byte[] tag) {
        RowChange insert = new RowChange(5, RowOperation.INSERT, CaptureFixtures.pk(1),
                List.of(cv(T, "pk", 1), cv(T, "ck", 2)), List.of(cv(T, "v", 10), cv(T, "w", null)), List.of(),
                1_700_000_000_123_456L, 60);
        RowChange update = new RowChange(5, RowOperation.UPDATE, CaptureFixtures.pk(1),
                List.of(cv(T, "pk", 1), cv(T, "ck", 2)), List.of(cv(T, "v", 11)), List.of(cv(T, "v", 10)),
                1_700_000_000_123_457L, 0);
        RowChange delete = new RowChange(5, RowOperation.DELETE, CaptureFixtures.pk(-4),
                List.of(cv(T, "pk", -4), cv(T, "ck", 0)), List.of(), List.of(cv(T, "v", 3), cv(T, "w", "x")),
                -1L, 0);
        return new RedoEntry(0x0123_4567_89AB_CDEFL, "3.abc", tag, SESSION, List.of(insert, update, delete), null);
    }

    @ParameterizedTest(name = "tag {0}")
    @ValueSource(strings = {"null", "empty", "bytes"})
    @DisplayName("a row entry with INSERT, UPDATE, DELETE and NULL values reads back equal, with or without a tag")
    void rowEntryRoundTrip(String tagKind) {
        byte[] tag = switch (tagKind) {
            case "null" -> null;
            case "empty" -> new byte[0];
            default -> new byte[] {0x12, (byte) 0xFF, 0};
        };
        RedoEntry e = rowEntry(tag);
        RedoEntry back = RedoCodec.decode(RedoCodec.encode(e));
        assertEquals(e, back);
        assertEquals(e.scn(), back.scn());
        assertEquals("3.abc", back.transactionId());
        assertArrayEquals(tag, back.tag());
        assertEquals(SESSION, back.session());
        assertEquals(List.of(RowOperation.INSERT, RowOperation.UPDATE, RowOperation.DELETE),
                back.rows().stream().map(RowChange::operation).toList());
        assertNull(back.rows().get(0).newValues().get(1).value(), "NULL stays NULL");
        assertEquals(60, back.rows().get(0).ttlSeconds());
        assertEquals(-1L, back.rows().get(2).writeTimeMicros());
        assertNull(back.ddl());
    }

    @Test
    void entryWithoutRowsRoundTrips() {
        RedoEntry e = new RedoEntry(1, "t", null, SessionInfo.SYSTEM, List.of(), null);
        assertEquals(e, RedoCodec.decode(RedoCodec.encode(e)));
    }

    static Stream<DictionaryChange> everyChangeKind() {
        TableDef t = table("t", 5, CaptureFixtures.cdc(CdcOptions.Preimage.FULL, true, CdcOptions.Delta.KEYS));
        UserTypeDef type = new UserTypeDef("ks", "address", List.of(new CqlType.Field("street", TEXT),
                new CqlType.Field("zip", INT)));
        return Stream.of(new DictionaryChange.CreateKeyspace(KS), new DictionaryChange.DropKeyspace("ks"),
                new DictionaryChange.CreateTable(t),
                new DictionaryChange.AlterTable(t.withColumnAdded("x", TEXT).withColumnDropped("w")),
                new DictionaryChange.DropTable("ks", "t"), new DictionaryChange.CreateType(type),
                new DictionaryChange.DropType("ks", "address"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyChangeKind")
    @DisplayName("a DDL entry carries its dictionary change and DDL attributes")
    void ddlEntryRoundTrip(DictionaryChange change) {
        DdlChange ddl = new DdlChange(change, "CREATE TABLE", "ks", "t", "TABLE", "CREATE TABLE ks.t (...)", "ks",
                "ks", "base");
        RedoEntry e = new RedoEntry(99, "3.63", new byte[] {1}, SESSION, List.of(), ddl);
        RedoEntry back = RedoCodec.decode(RedoCodec.encode(e));
        assertEquals(e, back);
        assertEquals(change, back.ddl().change());
        assertEquals(ddl, back.ddl());
        assertTrue(back.isDdl());
        RedoEntry replicated = new RedoEntry(99, "3.63", null, SESSION, List.of(), ddl.asReplicated());
        assertTrue(RedoCodec.decode(RedoCodec.encode(replicated)).ddl().replicated(), "a DDL another node issued stays marked");
        assertFalse(back.ddl().replicated());
    }

    @Test
    @DisplayName("every truncation of an entry is refused as corrupt")
    void truncated() {
        for (RedoEntry e : List.of(rowEntry(new byte[] {9}), ddlEntry())) {
            byte[] b = RedoCodec.encode(e);
            for (int len = 0; len < b.length; len++) {
                byte[] cut = Arrays.copyOf(b, len);
                assertThrows(CorruptRecordException.class, () -> RedoCodec.decode(cut), "prefix of " + len + " bytes");
            }
        }
    }

    private static RedoEntry ddlEntry() {
        return new RedoEntry(7, "3.7", null, SESSION, List.of(), new DdlChange(new DictionaryChange.CreateTable(T),
                "CREATE TABLE", "ks", "t", "TABLE", "CREATE TABLE ks.t", "ks", null, null));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 255})
    void unknownFormatByte(int format) {
        byte[] b = RedoCodec.encode(rowEntry(null));
        b[0] = (byte) format;
        CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> RedoCodec.decode(b));
        assertTrue(e.getMessage().contains("format " + format), e.getMessage());
    }

    @Test
    void trailingBytes() {
        byte[] b = RedoCodec.encode(rowEntry(null));
        byte[] longer = Arrays.copyOf(b, b.length + 1);
        CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> RedoCodec.decode(longer));
        assertTrue(e.getMessage().contains("CRC32C does not match"), e.getMessage());
        byte[] inside = RecordChecksum.seal(Arrays.copyOf(b, b.length - RecordChecksum.BYTES + 1));
        e = assertThrows(CorruptRecordException.class, () -> RedoCodec.decode(inside));
        assertTrue(e.getMessage().contains("trailing"), e.getMessage());
    }

    /** An edited record with a checksum that matches again: what the structural checks alone must refuse. */
    private static byte[] resealed(byte[] edited) {
        return RecordChecksum.seal(Arrays.copyOf(edited, edited.length - RecordChecksum.BYTES));
    }

    @Test
    @DisplayName("an entry stored in format 1, before entries had a checksum, still reads back")
    void formatOneStillReads() {
        RedoEntry e = rowEntry(new byte[] {3});
        byte[] sealed = RedoCodec.encode(e);
        byte[] unsealed = Arrays.copyOf(sealed, sealed.length - RecordChecksum.BYTES);
        unsealed[0] = 1;
        assertEquals(e, RedoCodec.decode(unsealed));
    }

    @Test
    @DisplayName("a DDL entry whose dictionary change is damaged is a corrupt redo record")
    void damagedDictionaryChange() {
        byte[] change = DictionaryCodec.encode(new DictionaryChange.CreateTable(T));
        byte[] b = RedoCodec.encode(ddlEntry());
        int at = indexOf(b, change);
        assertTrue(at > 0);
        b[at + change.length / 2] ^= 0x5A; // the change's checksum no longer matches
        CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> RedoCodec.decode(resealed(b)));
        assertTrue(e.getMessage().contains("SCN 7"), e.getMessage());
    }

    @Test
    void unknownEntryKind() {
        byte[] b = RedoCodec.encode(new RedoEntry(1, "t", null, SESSION, List.of(), null));
        // format, scn (8), tx "t", tag null, username, session (8), serial (8), thread (4), then the kind
        int kindAt = 1 + 8 + 2 + 1 + 1 + "alice".length() + 8 + 8 + 4;
        assertEquals(0, b[kindAt]);
        b[kindAt] = 2;
        assertThrows(CorruptRecordException.class, () -> RedoCodec.decode(resealed(b)));
    }

    @Test
    void unknownRowOperationAndMissingPartitionKey() {
        RowChange r = new RowChange(5, RowOperation.DELETE, CaptureFixtures.pk(1), List.of(), List.of(), List.of(), 0, 0);
        RedoEntry e = new RedoEntry(1, "t", null, SessionInfo.SYSTEM, List.of(r), null);
        byte[] b = RedoCodec.encode(e);
        int opAt = 1 + 8 + 2 + 1 + 1 + "system".length() + 8 + 8 + 4 + 1 + 1 + 8;
        assertEquals(RowOperation.DELETE.ordinal(), b[opAt]);
        b[opAt] = 3;
        assertThrows(CorruptRecordException.class, () -> RedoCodec.decode(resealed(b)));

        RowChange noKey = new RowChange(5, RowOperation.DELETE, null, List.of(), List.of(), List.of(), 0, 0);
        byte[] nk = RedoCodec.encode(new RedoEntry(1, "t", null, SessionInfo.SYSTEM, List.of(noKey), null));
        assertThrows(CorruptRecordException.class, () -> RedoCodec.decode(nk));
    }

    @Test
    @DisplayName("a flipped byte anywhere is refused as corrupt, never decoded into another entry")
    void bitFlips() {
        for (RedoEntry e : List.of(rowEntry(new byte[] {9}), ddlEntry())) {
            byte[] b = RedoCodec.encode(e);
            for (int i = 0; i < b.length; i++) {
                for (int mask : new int[] {0x01, 0x80, 0xFF}) {
                    byte[] bad = b.clone();
                    bad[i] ^= (byte) mask;
                    try {
                        RedoEntry decoded = RedoCodec.decode(bad);
                        fail("byte " + i + " ^ " + mask + " decoded into " + decoded);
                    } catch (CorruptRecordException expected) {
                        // refused: fine
                    } catch (RuntimeException other) {
                        fail("byte " + i + " ^ " + mask + " gave " + other, other);
                    }
                }
            }
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }
}
