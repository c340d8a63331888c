package dev.tributary.capture;

import static dev.tributary.capture.CaptureFixtures.KS;
import static dev.tributary.capture.CaptureFixtures.ddl;
import static dev.tributary.capture.CaptureFixtures.insert;
import static dev.tributary.capture.CaptureFixtures.rows;
import static dev.tributary.capture.CaptureFixtures.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.CdcOperation;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.capture.redo.ColumnValue;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.RowChange;
import dev.tributary.capture.redo.RowOperation;
import dev.tributary.dictionary.DictionaryChange;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.schema.CdcOptions;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.generations.StreamId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class CaptureWorkerTest {
    private static final StreamId STREAM = new StreamId(42, 0x31);
    /** ks.c, CDC on, object number 0. */
    private static final TableDef CDC = table("c", 0, CdcOptions.enabledWithDefaults());
    /** ks.p, CDC off, object number 1. */
    private static final TableDef PLAIN = table("p", 1, CdcOptions.DISABLED);

    private final MultiversionDictionary dictionary = new MultiversionDictionary();
    private final InMemoryRedoSource redo = new InMemoryRedoSource();
    private final InMemoryLogSink sink = new InMemoryLogSink();
    private final CdcLogFormatter formatter = new CdcLogFormatter("tributary", (t, token, millis) -> STREAM);

    @BeforeEach
    void schema() {
        dictionary.apply(1, new DictionaryChange.CreateKeyspace(KS));
        dictionary.apply(10, new DictionaryChange.CreateTable(CDC));
        dictionary.apply(11, new DictionaryChange.CreateTable(PLAIN));
        redo.add(ddl(1, new DictionaryChange.CreateKeyspace(KS), "CREATE KEYSPACE", "CREATE KEYSPACE ks ..."),
                ddl(10, new DictionaryChange.CreateTable(CDC), "CREATE TABLE", "CREATE TABLE ks.c ..."),
                ddl(11, new DictionaryChange.CreateTable(PLAIN), "CREATE TABLE", "CREATE TABLE ks.p ..."));
    }

    /** Runs a new worker over the redo until it has caught up (or aborted) and returns it. */
    private CaptureWorker capture() {
        CaptureWorker w = new CaptureWorker(CdcTableCapture.NAME, redo, sink, new CdcTableCapture(dictionary, formatter));
        redo.onCaughtUp(w::stop);
        w.run();
        return w;
    }

    private static long micros(long scn) {
        return 1_700_000_000_000_000L + scn;
    }

    private static List<LogRecord> rowRecords(List<LogRecord> log) {
        return log.stream().filter(r -> r.operation() != null).toList();
    }

    @Test
    @DisplayName("P5: reads are sized from the rows per entry: a run of 400-row transactions is read about "
            + CaptureWorker.REGION_ROWS + " rows at a time, not 512 entries (what a capture paused for flow control holds)")
    void bigEntriesAreReadAFewAtATime() {
        long scn = 20;
        for (int i = 0; i < 10; i++, scn++) {
            redo.add(rows(scn, transaction(i * 400, 400, scn)));
        }
        long wave = scn;
        CaptureWorker w = new CaptureWorker(CdcTableCapture.NAME, redo, sink, new CdcTableCapture(dictionary, formatter));
        java.util.concurrent.atomic.AtomicBoolean second = new java.util.concurrent.atomic.AtomicBoolean();
        redo.onCaughtUp(() -> {
            if (second.getAndSet(true)) {
                w.stop();
                return;
            }
            // a second run of big transactions arrives once the capture has seen the first
            for (long s = wave; s < wave + 100; s++) {
                redo.add(rows(s, transaction((int) (s - 20) * 400, 400, s)));
            }
        });
        w.run();
        assertNull(w.error());
        assertEquals(110 * 400, rowRecords(sink.log(0)).size(), "every row captured");
        List<Integer> reads = redo.rowsRead().stream().filter(n -> n > 0).toList();
        System.out.println("CaptureWorkerTest: rows per read " + reads);
        // the first read of each run is sized from the entries before it (the first wave's from
        // three DDL entries, the second's from the first wave, skewed by those three); from then on
        // a read holds what REGION_ROWS allows
        assertTrue(reads.size() >= 5, "the second run read in parts: " + reads);
        for (int i = 2; i < reads.size(); i++) {
            assertTrue(reads.get(i) <= CaptureWorker.REGION_ROWS, "read " + i + " of " + reads);
        }
    }

    private static RowChange[] transaction(int firstKey, int rows, long scn) {
        RowChange[] out = new RowChange[rows];
        for (int i = 0; i < rows; i++) {
            out[i] = insert(CDC, firstKey + i, 1, micros(scn), "v", i);
        }
        return out;
    }

    @Test
    @DisplayName("a read's size follows the rows per entry of the read before, between 1 and 512 entries")
    void readBatchFollowsEntrySize() {
        assertEquals(512, CaptureWorker.nextReadBatch(List.of(rows(1, insert(CDC, 1, 1, micros(1), "v", 1))), 512));
        assertEquals(CaptureWorker.REGION_ROWS / 400, CaptureWorker.nextReadBatch(List.of(rows(1, transaction(0, 400, 1))), 512));
        assertEquals(1, CaptureWorker.nextReadBatch(List.of(rows(1, transaction(0, CaptureWorker.REGION_ROWS * 2, 1))), 512));
        assertEquals(7, CaptureWorker.nextReadBatch(List.of(), 7), "an empty read says nothing of the entries' size");
    }

    @Test
    @DisplayName("only tables with cdc enabled are captured; the checkpoint moves to the last entry")
    void onlyCdcTables() {
        RowChange unknownTable = new RowChange(99, RowOperation.INSERT, CaptureFixtures.pk(1), List.of(), List.of(),
                List.of(), micros(20), 0);
        redo.add(rows(20, insert(CDC, 1, 1, micros(20), "v", 1), insert(PLAIN, 1, 1, micros(20), "v", 2), unknownTable));
        CaptureWorker w = capture();
        List<LogRecord> rows = rowRecords(sink.log(0));
        assertEquals(1, rows.size());
        assertEquals("c", rows.get(0).lcr().objectName());
        assertEquals(List.of(), sink.log(1), "ks.p has no CDC log");
        assertEquals(List.of(), sink.log(99));
        assertEquals(20, sink.checkpoint(CdcTableCapture.NAME));
        assertEquals(20, w.capturedScn());
        assertEquals(CaptureState.SHUTTING_DOWN, w.state());
        assertNull(w.error());
        assertEquals(sink.size(), w.totalEnqueued());
    }

    @Test
    @DisplayName("S1: a sink without space pauses the capture, which appends again once there is room: nothing lost, "
            + "nothing aborted")
    void fullSinkPauses() {
        redo.add(rows(20, insert(CDC, 1, 1, micros(20), "v", 1)), rows(21, insert(CDC, 1, 2, micros(21), "v", 2)));
        sink.fullFor(2);
        CaptureWorker w = capture();
        assertNull(w.error());
        assertEquals(2, rowRecords(sink.log(0)).size());
        assertEquals(21, sink.checkpoint(CdcTableCapture.NAME));
    }

    @Test
    @DisplayName("turning cdc on captures the table's changes from that SCN on, not before")
    void cdcEnabledLater() {
        dictionary.apply(20, new DictionaryChange.AlterTable(PLAIN.withOptions(PLAIN.options().withCdc(
                CdcOptions.enabledWithDefaults()))));
        redo.add(rows(15, insert(PLAIN, 1, 1, micros(15), "v", 15)), rows(25, insert(PLAIN, 1, 2, micros(25), "v", 25)));
        capture();
        List<LogRecord> rows = rowRecords(sink.log(1));
        assertEquals(1, rows.size());
        assertEquals(25, rows.get(0).lcr().scn());
    }

    @Test
    @DisplayName("CREATE and ALTER of a CDC table become DDL LCRs in the reserved schema stream; other DDL does not")
    void ddlLcrs() {
        TableDef altered = CDC.withColumnAdded("x", CaptureFixtures.TEXT);
        dictionary.apply(30, new DictionaryChange.AlterTable(altered));
        dictionary.apply(40, new DictionaryChange.DropTable("ks", "c"));
        redo.add(ddl(30, new DictionaryChange.AlterTable(altered), "ALTER TABLE", "ALTER TABLE ks.c ADD x text"),
                ddl(40, new DictionaryChange.DropTable("ks", "c"), "DROP TABLE", "DROP TABLE ks.c"));
        CaptureWorker w = capture();
        List<LogRecord> log = sink.log(0);
        assertEquals(List.of("CREATE TABLE", "ALTER TABLE", "DROP TABLE"),
                log.stream().map(r -> r.lcr().commandType()).toList());
        for (LogRecord r : log) {
            assertNull(r.operation());
            assertEquals(CdcLogFormatter.SCHEMA_STREAM, r.position().stream());
            assertTrue(r.lcr() instanceof DdlLcr);
        }
        assertEquals("ALTER TABLE ks.c ADD x text", ((DdlLcr) log.get(1).lcr()).ddlText());
        assertEquals(List.of(10L, 30L, 40L), log.stream().map(r -> r.lcr().scn()).toList());
        assertEquals(3, sink.size(), "neither CREATE KEYSPACE nor the non-CDC table ks.p gives an LCR");
        assertEquals(40, w.capturedScn());
    }

    @Test
    @DisplayName("a DDL LCR comes from the redo entry itself, even when the dictionary has not applied the change yet")
    void ddlAheadOfTheDictionary() {
        TableDef later = table("later", 2, CdcOptions.enabledWithDefaults());
        redo.add(ddl(50, new DictionaryChange.CreateTable(later), "CREATE TABLE", "CREATE TABLE ks.later ..."));
        capture();
        List<LogRecord> log = sink.log(2);
        assertEquals(1, log.size());
        assertEquals("later", log.get(0).lcr().objectName());
    }

    @Test
    @DisplayName("CAP-DICT-2 (Table 2-1): a change captured after later DDL is decoded with the dictionary of its own SCN")
    void table21Scenario() {
        // SCN 15: a row of ks.c sets w; SCN 20: ALTER TABLE ks.c DROP w; SCN 30: ALTER TABLE ks.c ADD x.
        // Capture runs after all of it, as a capture lagging behind the redo does.
        TableDef dropped = CDC.withColumnDropped("w");
        TableDef added = dropped.withColumnAdded("x", CaptureFixtures.INT);
        dictionary.apply(20, new DictionaryChange.AlterTable(dropped));
        dictionary.apply(30, new DictionaryChange.AlterTable(added));
        redo.add(rows(15, insert(CDC, 1, 1, micros(15), "w", "then")),
                ddl(20, new DictionaryChange.AlterTable(dropped), "ALTER TABLE", "ALTER TABLE ks.c DROP w"),
                ddl(30, new DictionaryChange.AlterTable(added), "ALTER TABLE", "ALTER TABLE ks.c ADD x int"),
                rows(35, insert(added, 2, 1, micros(35), "x", 7)));
        CaptureWorker w = capture();
        assertNull(w.error());
        List<LogRecord> rows = rowRecords(sink.log(0));
        assertEquals(2, rows.size());
        RowLcr at15 = (RowLcr) rows.get(0).lcr();
        assertEquals(new LcrColumn("w", CaptureFixtures.TEXT, "then"), at15.column("w"));
        assertNull(at15.column("x"));
        RowLcr at35 = (RowLcr) rows.get(1).lcr();
        assertEquals(new LcrColumn("x", CaptureFixtures.INT, 7), at35.column("x"));
        assertNull(at35.column("w"));
    }

    @Test
    @DisplayName("each append carries its records and the checkpoint of its last redo entry")
    void checkpointWithEachAppend() {
        List<RedoEntry> entries = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            entries.add(rows(100 + i, insert(CDC, i, 0, micros(100 + i), "v", i)));
        }
        redo.add(entries.toArray(new RedoEntry[0]));
        CaptureWorker w = capture();
        List<InMemoryLogSink.Append> appends = sink.appends();
        assertTrue(appends.size() >= 2, "600 entries are more than one read");
        long previous = 0;
        Set<Long> scnsSeen = new HashSet<>();
        for (InMemoryLogSink.Append a : appends) {
            assertEquals(CdcTableCapture.NAME, a.captureName());
            assertTrue(a.checkpointScn() > previous);
            for (LogRecord r : a.records()) {
                assertTrue(r.lcr().scn() > previous && r.lcr().scn() <= a.checkpointScn(),
                        "a record is appended with the checkpoint that covers it");
                scnsSeen.add(r.lcr().scn());
            }
            previous = a.checkpointScn();
        }
        assertEquals(699, previous);
        assertEquals(600 + 1, scnsSeen.size(), "every row entry and the CREATE TABLE");
        assertEquals(699, w.capturedScn());
        assertEquals(601, w.totalEnqueued());
    }

    @Test
    @DisplayName("a new worker resumes from the checkpoint and enqueues nothing twice")
    void resumesFromCheckpoint() {
        redo.add(rows(20, insert(CDC, 1, 1, micros(20), "v", 1)), rows(21, insert(CDC, 2, 1, micros(21), "v", 2)));
        capture();
        assertEquals(21, sink.checkpoint(CdcTableCapture.NAME));
        int appendsBefore = sink.appends().size();

        CaptureWorker idle = capture();
        assertEquals(appendsBefore, sink.appends().size(), "nothing new: nothing appended");
        assertEquals(21, idle.capturedScn());
        assertEquals(0, idle.totalEnqueued());

        redo.add(rows(30, insert(CDC, 3, 1, micros(30), "v", 3)));
        CaptureWorker second = capture();
        assertEquals(21L, redo.readsAfter().get(redo.readsAfter().size() - 2),
                "the second worker read from the checkpoint");
        assertEquals(1, second.totalEnqueued());
        List<LogRecord> appended = sink.appended();
        assertEquals(appended.size(), appended.stream().map(r -> r.logId() + "/" + r.position()).distinct().count(),
                "no record was enqueued twice");
        assertEquals(List.of(20L, 21L, 30L), rowRecords(sink.log(0)).stream().map(r -> r.lcr().scn()).sorted().toList());
    }

    private static RowChange undecodable(long scn) {
        // v is an int: three bytes are no int
        return new RowChange(0, RowOperation.INSERT, CaptureFixtures.pk(9), CaptureFixtures.values(CDC, "pk", 9, "ck", 9),
                List.of(new ColumnValue(2, new byte[] {1, 2, 3})), List.of(), micros(scn), 0);
    }

    @Test
    @DisplayName("a record that cannot be decoded aborts the capture; earlier ones are enqueued, later ones not")
    void abortsOnUndecodableRecord() {
        redo.add(rows(20, insert(CDC, 1, 1, micros(20), "v", 1)), rows(25, undecodable(25)),
                rows(30, insert(CDC, 3, 1, micros(30), "v", 3)));
        CaptureWorker w = capture();
        assertEquals(CaptureState.ABORTED, w.state());
        assertNotNull(w.error());
        assertTrue(w.error().contains("SCN 25"), w.error());
        assertEquals(List.of(20L), rowRecords(sink.log(0)).stream().map(r -> r.lcr().scn()).toList());
        assertEquals(20, sink.checkpoint(CdcTableCapture.NAME), "the checkpoint stays right before the bad record");
        assertEquals(20, w.capturedScn());
        assertTrue(sink.appended().stream().noneMatch(r -> r.lcr().scn() >= 25));

        CaptureWorker again = capture();
        assertEquals(CaptureState.ABORTED, again.state(), "a restart meets the same record");
        assertEquals(0, again.totalEnqueued());
        assertTrue(sink.appended().stream().noneMatch(r -> r.lcr().scn() >= 25));
    }

    @Test
    void abortsOnFirstRecordWithoutAppending() {
        redo.add(rows(20, undecodable(20)));
        redo.add(rows(30, insert(CDC, 3, 1, micros(30), "v", 3)));
        // the schema DDL before it is captured in the same read; start past it
        sink.append(CdcTableCapture.NAME, List.of(), 11);
        int appends = sink.appends().size();
        CaptureWorker w = capture();
        assertEquals(CaptureState.ABORTED, w.state());
        assertEquals(appends, sink.appends().size());
        assertEquals(11, sink.checkpoint(CdcTableCapture.NAME));
    }

    @Test
    @DisplayName("a redo record that does not read aborts the capture after the records before it")
    void abortsOnCorruptRedo() {
        redo.add(rows(20, insert(CDC, 1, 1, micros(20), "v", 1)), rows(25, insert(CDC, 2, 1, micros(25), "v", 2)),
                rows(30, insert(CDC, 3, 1, micros(30), "v", 3)));
        redo.corruptAt(25);
        CaptureWorker w = capture();
        assertEquals(CaptureState.ABORTED, w.state());
        assertTrue(w.error().contains("damaged"), w.error());
        assertEquals(20, sink.checkpoint(CdcTableCapture.NAME));
        assertEquals(List.of(20L), rowRecords(sink.log(0)).stream().map(r -> r.lcr().scn()).toList());
    }

    @Test
    @DisplayName("the capture's LCRs carry the row's values and the cdc$operation of the change")
    void capturedValues() {
        redo.add(rows(20, insert(CDC, 1, 1, micros(20), "v", 1, "w", "a")));
        capture();
        LogRecord r = rowRecords(sink.log(0)).get(0);
        assertEquals(CdcOperation.INSERT, r.operation());
        assertEquals(STREAM, r.position().stream());
        assertEquals(new LcrColumn("w", CaptureFixtures.TEXT, "a"), ((RowLcr) r.lcr()).column("w"));
    }
}
