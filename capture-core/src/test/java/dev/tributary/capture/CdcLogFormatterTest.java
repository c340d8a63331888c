package dev.tributary.capture;

import static dev.tributary.capture.CaptureFixtures.cdc;
import static dev.tributary.capture.CaptureFixtures.delete;
import static dev.tributary.capture.CaptureFixtures.insert;
import static dev.tributary.capture.CaptureFixtures.pk;
import static dev.tributary.capture.CaptureFixtures.rows;
import static dev.tributary.capture.CaptureFixtures.table;
import static dev.tributary.capture.CaptureFixtures.update;
import static dev.tributary.capture.CaptureFixtures.values;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.CdcOperation;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.TimeUuids;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.RowChange;
import dev.tributary.capture.redo.SessionInfo;
import dev.tributary.dictionary.DictionaryChange;
import dev.tributary.dictionary.schema.CdcOptions;
import dev.tributary.dictionary.schema.CdcOptions.Delta;
import dev.tributary.dictionary.schema.CdcOptions.Preimage;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.generations.Murmur3Partitioner;
import dev.tributary.generations.StreamId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class CdcLogFormatterTest {
    private static final StreamId NEGATIVE = new StreamId(-1000, 0x11);
    private static final StreamId POSITIVE = new StreamId(1000, 0x21);
    private static final long SCN = CaptureFixtures.scn(1_700_000_000_000L, 5);
    private static final long WRITE_MICROS = 1_700_000_000_000_005L;

    /** The router of a two-stream generation: one stream for negative tokens, one for the rest. */
    private final List<long[]> routed = new ArrayList<>();
    private final StreamRouter router = (table, token, millis) -> {
        routed.add(new long[] {token, millis});
        return token < 0 ? NEGATIVE : POSITIVE;
    };
    private final CdcLogFormatter formatter = new CdcLogFormatter("tributary", router);

    private static TableDef t(Preimage pre, boolean post, Delta delta) {
        return table("t", 7, cdc(pre, post, delta));
    }

    private static final TableDef PLAIN = t(Preimage.OFF, false, Delta.FULL);

    /** {@code name -> value} of LCR columns, in their order. */
    private static Map<String, Object> m(List<LcrColumn> cols) {
        if (cols == null) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (LcrColumn c : cols) {
            out.put(c.name(), c.value());
        }
        return out;
    }

    private static Map<String, Object> m(Object... nameValue) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            out.put((String) nameValue[i], nameValue[i + 1]);
        }
        return out;
    }

    /** A partition key whose token has the given sign. */
    private static int keyWithTokenSign(boolean negative) {
        for (int k = 0; ; k++) {
            if (Murmur3Partitioner.token(pk(k)) < 0 == negative) {
                return k;
            }
        }
    }

    private static RowChange fullUpdate(TableDef t) {
        return update(t, 1, 2, WRITE_MICROS, values(t, "v", 11), values(t, "v", 10, "w", "old"));
    }

    @Test
    @DisplayName("a queue record of a change made before the table's first stream set is placed at that set's start "
            + "(the router has no stream before it); its LCR keeps its own SCN")
    void queueRecordBeforeTheFirstGeneration() {
        long first = WRITE_MICROS / 1000 + 60_000;
        StreamRouter fromFirst = new StreamRouter() {
            @Override
            public StreamId streamFor(TableDef table, long token, long millis) {
                if (millis < first) {
                    throw new dev.tributary.generations.errors.NoCdcStreamException(millis);
                }
                return POSITIVE;
            }

            @Override
            public java.util.OptionalLong firstMillis(TableDef table) {
                return java.util.OptionalLong.of(first);
            }
        };
        CdcLogFormatter f = new CdcLogFormatter("tributary", fromFirst);
        RedoEntry e = new RedoEntry(SCN, "3.tx", null, CaptureFixtures.SESSION,
                List.of(CaptureFixtures.insert(PLAIN, 1, 2, WRITE_MICROS, "v", 10, "w", null)), null);
        RowLcr lcr = f.rowLcr(e, e.rows().get(0), PLAIN);
        List<LogRecord> records = f.queueRecords(e, 1L << 62, List.of(new CdcLogFormatter.KeptChange(e.rows().get(0), PLAIN, lcr)));
        assertEquals(1, records.size());
        assertEquals(first * 1000, dev.tributary.dictionary.types.TimeUuids.micros(records.get(0).position().time()));
        assertEquals(SCN, records.get(0).lcr().scn());
    }

    @Test
    @DisplayName("CAP-LCR-2 CAP-LCR-3: INSERT has new values (key and written columns) and no old values")
    void insertLcr() {
        RedoEntry e = new RedoEntry(SCN, "3.tx", new byte[] {5}, CaptureFixtures.SESSION,
                List.of(CaptureFixtures.insert(PLAIN, 1, 2, WRITE_MICROS, "v", 10, "w", null)), null);
        RowLcr lcr = formatter.rowLcr(e, e.rows().get(0), PLAIN);
        assertEquals("tributary", lcr.sourceDatabaseName());
        assertEquals(RowLcr.INSERT, lcr.commandType());
        assertEquals("ks", lcr.objectOwner());
        assertEquals("t", lcr.objectName());
        assertArrayEquals(new byte[] {5}, lcr.tag());
        assertEquals("3.tx", lcr.transactionId());
        assertEquals(SCN, lcr.scn());
        assertEquals(SCN, lcr.commitScn());
        assertNull(lcr.oldValues());
        assertEquals(m("pk", 1, "ck", 2, "v", 10, "w", null), m(lcr.newValues()));
        assertEquals(CaptureFixtures.INT, lcr.column("v").type());
        assertEquals(List.of(), lcr.extra());
    }

    @Test
    @DisplayName("CAP-LCR-3: DELETE has old values (key and the whole row) and no new values")
    void deleteLcr() {
        RedoEntry e = rows(SCN, CaptureFixtures.delete(PLAIN, 1, 2, WRITE_MICROS, "v", 10, "w", "x"));
        RowLcr lcr = formatter.rowLcr(e, e.rows().get(0), PLAIN);
        assertEquals(RowLcr.DELETE, lcr.commandType());
        assertNull(lcr.newValues());
        assertEquals(m("pk", 1, "ck", 2, "v", 10, "w", "x"), m(lcr.oldValues()));
    }

    @Test
    @DisplayName("CAP-LCR-3: UPDATE old values are the key and the changed columns' previous values")
    void updateOldValuesAreChangedColumns() {
        for (Preimage pre : new Preimage[] {Preimage.OFF, Preimage.ON}) {
            TableDef t = t(pre, false, Delta.FULL);
            RedoEntry e = rows(SCN, fullUpdate(t));
            RowLcr lcr = formatter.rowLcr(e, e.rows().get(0), t);
            assertEquals(RowLcr.UPDATE, lcr.commandType());
            assertEquals(m("pk", 1, "ck", 2, "v", 11), m(lcr.newValues()));
            assertEquals(m("pk", 1, "ck", 2, "v", 10), m(lcr.oldValues()), "preimage " + pre);
        }
    }

    @Test
    @DisplayName("CAP-LCR-3: with preimage 'full' UPDATE old values hold every column of the row")
    void updateOldValuesWithFullPreimage() {
        TableDef t = t(Preimage.FULL, false, Delta.FULL);
        RedoEntry e = rows(SCN, fullUpdate(t));
        RowLcr lcr = formatter.rowLcr(e, e.rows().get(0), t);
        assertEquals(m("pk", 1, "ck", 2, "v", 10, "w", "old"), m(lcr.oldValues()));
        assertEquals(m("pk", 1, "ck", 2, "v", 11), m(lcr.newValues()));
    }

    @Test
    @DisplayName("CAP-DML-2: an upsert over an existing row is an UPDATE with old values")
    void upsertIsUpdate() {
        RowChange upsert = update(PLAIN, 1, 2, WRITE_MICROS, values(PLAIN, "v", 12, "w", "new"),
                values(PLAIN, "v", 11));
        List<LogRecord> out = formatter.rowRecords(rows(SCN, upsert), PLAIN, List.of(upsert));
        assertEquals(1, out.size());
        assertEquals(CdcOperation.UPDATE, out.get(0).operation());
        RowLcr lcr = (RowLcr) out.get(0).lcr();
        assertEquals(RowLcr.UPDATE, lcr.commandType());
        assertEquals(m("pk", 1, "ck", 2, "v", 11), m(lcr.oldValues()), "w had no value before");
        assertEquals(m("pk", 1, "ck", 2, "v", 12, "w", "new"), m(lcr.newValues()));
    }

    @Test
    @DisplayName("a delta record alone: operation code, position at the write time, end of batch, TTL, routed by token")
    void deltaOnly() {
        RowChange r = new RowChange(7, dev.tributary.capture.redo.RowOperation.INSERT, pk(1), values(PLAIN, "pk", 1, "ck", 2),
                values(PLAIN, "v", 10), List.of(), WRITE_MICROS, 30);
        List<LogRecord> out = formatter.rowRecords(rows(SCN, r), PLAIN, List.of(r));
        assertEquals(1, out.size());
        LogRecord d = out.get(0);
        assertEquals(7, d.logId());
        assertEquals(CdcOperation.INSERT, d.operation());
        assertEquals(2, d.operation().code());
        assertEquals(0, d.position().batchSeqNo());
        assertTrue(d.endOfBatch());
        assertEquals(30, d.ttlSeconds());
        assertNull(d.image(), "a full delta carries the LCR, not an image");
        assertEquals(WRITE_MICROS, TimeUuids.micros(d.position().time()));
        assertEquals(1, d.position().time().version());
        long token = Murmur3Partitioner.token(pk(1));
        assertEquals(token < 0 ? NEGATIVE : POSITIVE, d.position().stream());
        assertEquals(1, routed.size());
        assertEquals(token, routed.get(0)[0]);
        assertEquals(WRITE_MICROS / 1000, routed.get(0)[1], "the generation is picked by the write time");
    }

    private static List<Integer> ops(List<LogRecord> out) {
        return out.stream().map(r -> r.operation().code()).toList();
    }

    private static List<Integer> seqs(List<LogRecord> out) {
        return out.stream().map(r -> r.position().batchSeqNo()).toList();
    }

    private static List<Boolean> ends(List<LogRecord> out) {
        return out.stream().map(LogRecord::endOfBatch).toList();
    }

    @Test
    @DisplayName("with preimage and postimage: INSERT 2,9; UPDATE 0,1,9; DELETE 0,3, numbered 0.. with the last ending the batch")
    void imagesLaidOutAsScyllaDb() {
        TableDef t = t(Preimage.ON, true, Delta.FULL);
        RowChange ins = insert(t, 1, 2, WRITE_MICROS, "v", 10, "w", "a");
        List<LogRecord> i = formatter.rowRecords(rows(SCN, ins), t, List.of(ins));
        assertEquals(List.of(2, 9), ops(i));
        assertEquals(List.of(0, 1), seqs(i));
        assertEquals(List.of(false, true), ends(i));
        assertEquals(m("pk", 1, "ck", 2, "v", 10, "w", "a"), m(i.get(1).image()));

        RowChange upd = fullUpdate(t);
        List<LogRecord> u = formatter.rowRecords(rows(SCN, upd), t, List.of(upd));
        assertEquals(List.of(0, 1, 9), ops(u));
        assertEquals(List.of(0, 1, 2), seqs(u));
        assertEquals(List.of(false, false, true), ends(u));
        assertEquals(m("pk", 1, "ck", 2, "v", 10), m(u.get(0).image()), "preimage: the changed columns before");
        assertNull(u.get(1).image());
        assertEquals(m("pk", 1, "ck", 2, "v", 11, "w", "old"), m(u.get(2).image()), "postimage: the row after");
        assertFalse(u.get(0).isDelta());
        assertTrue(u.get(1).isDelta());
        assertFalse(u.get(2).isDelta());
        for (LogRecord r : u) {
            assertEquals(u.get(0).position().time(), r.position().time(), "one change, one cdc$time");
            assertEquals(u.get(1).lcr(), r.lcr(), "images belong to the delta's LCR");
        }

        RowChange del = delete(t, 1, 2, WRITE_MICROS, "v", 11, "w", "old");
        List<LogRecord> d = formatter.rowRecords(rows(SCN, del), t, List.of(del));
        assertEquals(List.of(0, 3), ops(d));
        assertEquals(List.of(0, 1), seqs(d));
        assertEquals(List.of(false, true), ends(d));
        assertEquals(m("pk", 1, "ck", 2, "v", 11, "w", "old"), m(d.get(0).image()));
    }

    @Test
    @DisplayName("preimage 'full' images the whole row before the change")
    void fullPreimage() {
        TableDef t = t(Preimage.FULL, false, Delta.FULL);
        RowChange upd = fullUpdate(t);
        List<LogRecord> u = formatter.rowRecords(rows(SCN, upd), t, List.of(upd));
        assertEquals(List.of(0, 1), ops(u));
        assertEquals(m("pk", 1, "ck", 2, "v", 10, "w", "old"), m(u.get(0).image()));
    }

    @Test
    @DisplayName("delta 'keys': the delta record holds the primary key only; the LCR keeps every value")
    void deltaKeys() {
        TableDef t = t(Preimage.OFF, false, Delta.KEYS);
        RowChange upd = fullUpdate(t);
        List<LogRecord> u = formatter.rowRecords(rows(SCN, upd), t, List.of(upd));
        assertEquals(1, u.size());
        assertEquals(m("pk", 1, "ck", 2), m(u.get(0).image()));
        assertEquals(m("pk", 1, "ck", 2, "v", 11), m(((RowLcr) u.get(0).lcr()).newValues()));
    }

    @Test
    @DisplayName("CAP-LCR-1: row changes of one transaction in one stream share cdc$time, are numbered 0.. and the last ends the batch")
    void oneTransactionOneStream() {
        TableDef t = t(Preimage.ON, true, Delta.FULL);
        int k = keyWithTokenSign(true);
        RowChange a = insert(t, k, 1, WRITE_MICROS, "v", 1);
        RowChange b = update(t, k, 2, WRITE_MICROS, values(t, "v", 2), values(t, "v", 1));
        RowChange c = delete(t, k, 3, WRITE_MICROS, "v", 3);
        RedoEntry e = rows(SCN, a, b, c);
        List<LogRecord> out = formatter.rowRecords(e, t, e.rows());
        assertEquals(List.of(2, 9, 0, 1, 9, 0, 3), ops(out));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6), seqs(out));
        assertEquals(List.of(false, false, false, false, false, false, true), ends(out));
        assertEquals(1, out.stream().map(r -> r.position().time()).distinct().count());
        assertEquals(1, out.stream().map(r -> r.position().stream()).distinct().count());
        List<LogRecord> deltas = out.stream().filter(LogRecord::isDelta).toList();
        assertEquals(3, deltas.size(), "one row LCR per changed row");
        assertEquals(List.of("INSERT", "UPDATE", "DELETE"), deltas.stream().map(r -> r.lcr().commandType()).toList());
        assertEquals(1, deltas.stream().map(r -> r.lcr().transactionId()).distinct().count());
    }

    @Test
    @DisplayName("each stream of a transaction has its own numbering and its own end of batch")
    void oneTransactionTwoStreams() {
        int neg = keyWithTokenSign(true);
        int pos = keyWithTokenSign(false);
        RowChange a = insert(PLAIN, neg, 1, WRITE_MICROS, "v", 1);
        RowChange b = insert(PLAIN, pos, 1, WRITE_MICROS, "v", 2);
        RowChange c = insert(PLAIN, neg, 2, WRITE_MICROS, "v", 3);
        RedoEntry e = rows(SCN, a, b, c);
        List<LogRecord> out = formatter.rowRecords(e, PLAIN, e.rows());
        assertEquals(List.of(NEGATIVE, POSITIVE, NEGATIVE), out.stream().map(r -> r.position().stream()).toList());
        assertEquals(List.of(0, 0, 1), seqs(out));
        assertEquals(List.of(false, true, true), ends(out));
    }

    @Test
    @DisplayName("changes with different write times (USING TIMESTAMP) are separate batches in time order")
    void differentWriteTimes() {
        RowChange a = insert(PLAIN, 1, 1, WRITE_MICROS + 10, "v", 1);
        RowChange b = insert(PLAIN, 1, 2, WRITE_MICROS, "v", 2);
        RedoEntry e = rows(SCN, a, b);
        List<LogRecord> out = formatter.rowRecords(e, PLAIN, e.rows());
        assertEquals(List.of(0, 0), seqs(out));
        assertEquals(List.of(true, true), ends(out));
        assertTrue(out.get(1).position().compareTo(out.get(0).position()) < 0);
    }

    @Test
    @DisplayName("formatting the same redo entry twice gives identical records and positions")
    void deterministic() {
        TableDef t = t(Preimage.FULL, true, Delta.FULL);
        RedoEntry e = rows(SCN, insert(t, 1, 1, WRITE_MICROS, "v", 1), fullUpdate(t));
        List<LogRecord> first = formatter.rowRecords(e, t, e.rows());
        List<LogRecord> again = new CdcLogFormatter("tributary", router).rowRecords(e, t, e.rows());
        assertEquals(first, again);

        RedoEntry otherTx = rows(SCN + 1, e.rows().toArray(new RowChange[0]));
        List<LogRecord> other = formatter.rowRecords(otherTx, t, otherTx.rows());
        assertNotEquals(first.get(0).position(), other.get(0).position(), "another transaction, another position");
        RedoEntry otherThread = new RedoEntry(SCN, e.transactionId(), null, new SessionInfo("alice", 42, 7, 4),
                e.rows(), null);
        assertNotEquals(first.get(0).position(), formatter.rowRecords(otherThread, t, e.rows()).get(0).position(),
                "another redo thread, another position");
    }

    @Test
    @DisplayName("a DDL record sits in the reserved schema stream at its SCN's time, with no operation")
    void ddlRecord() {
        TableDef t = PLAIN;
        RedoEntry e = new RedoEntry(SCN, "3.d", new byte[] {1}, CaptureFixtures.SESSION, List.of(),
                new dev.tributary.capture.redo.DdlChange(new DictionaryChange.AlterTable(t), "ALTER TABLE", "ks", "t",
                        "TABLE", "ALTER TABLE ks.t ADD x int", "ks", null, null));
        LogRecord r = formatter.ddlRecord(e, t);
        assertEquals(7, r.logId());
        assertEquals(CdcLogFormatter.SCHEMA_STREAM, r.position().stream());
        assertEquals(0, r.position().batchSeqNo());
        assertEquals(Scns.micros(SCN), TimeUuids.micros(r.position().time()));
        assertNull(r.operation());
        assertTrue(r.endOfBatch());
        assertNull(r.image());
        DdlLcr d = (DdlLcr) r.lcr();
        assertEquals("tributary", d.sourceDatabaseName());
        assertEquals("ALTER TABLE", d.commandType());
        assertEquals("ALTER TABLE ks.t ADD x int", d.ddlText());
        assertEquals("alice", d.logonUser());
        assertEquals("TABLE", d.objectType());
        assertEquals("ks", d.currentSchema());
        assertEquals(SCN, d.scn());
        assertEquals("3.d", d.transactionId());
        assertEquals(r, formatter.ddlRecord(e, t), "deterministic");
    }

    @Test
    @DisplayName("CAP-DICT-2: a change is decoded with the table version of its SCN; a later version cannot decode it")
    void decodesWithTheVersionOfItsScn() {
        TableDef at15 = PLAIN;
        TableDef at20 = at15.withColumnDropped("w");
        TableDef at30 = at20.withColumnAdded("w", CaptureFixtures.TEXT); // a new column number, not #3 again
        RowChange r = insert(at15, 1, 1, WRITE_MICROS, "w", "kept");
        RedoEntry e = rows(CaptureFixtures.scn(15, 0), r);
        assertEquals(m("pk", 1, "ck", 1, "w", "kept"), m(formatter.rowLcr(e, r, at15).newValues()));
        IllegalStateException err = assertThrows(IllegalStateException.class, () -> formatter.rowLcr(e, r, at30));
        assertTrue(err.getMessage().contains("#3") && err.getMessage().contains("ks.t"), err.getMessage());
    }

    @Test
    @DisplayName("a router without a stream for the change's time fails the formatting")
    void routerFailurePropagates() {
        CdcLogFormatter noStream = new CdcLogFormatter("tributary", (table, token, millis) -> {
            throw new IllegalStateException("could not find any CDC stream for " + millis);
        });
        RowChange r = insert(PLAIN, 1, 1, WRITE_MICROS, "v", 1);
        assertThrows(IllegalStateException.class, () -> noStream.rowRecords(rows(SCN, r), PLAIN, List.of(r)));
    }

    @Test
    void cdcOptionsDefaultsGiveDeltaOnly() {
        TableDef t = table("t", 7, CdcOptions.enabledWithDefaults());
        RowChange upd = fullUpdate(t);
        assertEquals(List.of(1), ops(formatter.rowRecords(rows(SCN, upd), t, List.of(upd))));
    }
}
