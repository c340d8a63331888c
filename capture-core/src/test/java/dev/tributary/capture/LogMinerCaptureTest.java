package dev.tributary.capture;

import static dev.tributary.capture.CaptureFixtures.INT;
import static dev.tributary.capture.CaptureFixtures.KS;
import static dev.tributary.capture.CaptureFixtures.SESSION;
import static dev.tributary.capture.CaptureFixtures.ddl;
import static dev.tributary.capture.CaptureFixtures.insert;
import static dev.tributary.capture.CaptureFixtures.rows;
import static dev.tributary.capture.CaptureFixtures.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.capture.redo.DictionaryBuildPart;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.dictionary.DictionaryChange;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.logminer.DictionaryBuilds;
import dev.tributary.dictionary.logminer.LogMinerDictionary;
import dev.tributary.dictionary.schema.CdcOptions;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.generations.StreamId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A capture with its own LogMiner dictionary, populated from a build in the redo. */
@Timeout(60)
class LogMinerCaptureTest {
    private static final String NAME = "capture:CAP";
    private static final TableDef T = table("t", 5, CdcOptions.enabledWithDefaults());
    private static final LogMinerDictionary.Journal NO_JOURNAL = new LogMinerDictionary.Journal() {
        @Override
        public void versionAdded(long id, DictionaryVersion v) {
        }

        @Override
        public void purged(long id, long below) {
        }
    };

    private final InMemoryRedoSource redo = new InMemoryRedoSource();
    private final InMemoryLogSink sink = new InMemoryLogSink();
    private final CdcLogFormatter formatter = new CdcLogFormatter("tributary", (t, token, millis) -> new StreamId(42, 0x31));
    private final List<String> states = Collections.synchronizedList(new ArrayList<>());

    /** The primary dictionary after ks and ks.t were created (SCNs 1 and 2). */
    private static DictionaryVersion primary() {
        MultiversionDictionary d = new MultiversionDictionary();
        d.apply(1, new DictionaryChange.CreateKeyspace(KS));
        d.apply(2, new DictionaryChange.CreateTable(T));
        return d.latest();
    }

    /** The redo records of a build at {@code scn}, one SCN per part. */
    private static List<RedoEntry> build(long scn, DictionaryVersion v, int partBytes) {
        return build(scn, v, partBytes, 1);
    }

    /** A build whose parts are {@code step} SCNs apart, as when other transactions commit in between. */
    private static List<RedoEntry> build(long scn, DictionaryVersion v, int partBytes, int step) {
        List<byte[]> parts = DictionaryBuilds.split(v, partBytes);
        List<RedoEntry> out = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            out.add(new RedoEntry(scn + (long) i * step, "3.b" + i, null, SESSION, List.of(), null,
                    new DictionaryBuildPart(scn, i + 1, parts.size(), parts.get(i))));
        }
        return out;
    }

    private CaptureWorker worker(LogMinerDictionary d, int parallelism, BufferedQueues queues, InMemoryLogSink into) {
        if (into.checkpoint(NAME) == 0) {
            into.append(NAME, List.of(), d.buildScn() - 1); // a new capture scans from its first SCN
        }
        CaptureWorker.Options o = new CaptureWorker.Options(CaptureWorker.Limits.NONE, parallelism,
                System::currentTimeMillis, d, queues, (s, detail) -> states.add(detail == null ? s.wording()
                        : s.wording() + " (" + detail + ")"));
        return new CaptureWorker(NAME, redo, into, new CdcTableCapture(d.versions(), formatter), o);
    }

    private static void await(BooleanSupplier c, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while (!c.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(5);
        }
    }

    private static Object value(List<LcrColumn> cols, String name) {
        return cols.stream().filter(c -> c.name().equals(name)).findFirst().map(LcrColumn::value).orElse("absent");
    }

    @Test
    @DisplayName("CAP-STATE-1, CAP-LOC-1: a first start mines the build (DICTIONARY INITIALIZATION, MINING, LOADING), then captures")
    void firstStartLoadsTheBuild() {
        redo.add(ddl(1, new DictionaryChange.CreateKeyspace(KS), "CREATE KEYSPACE", "CREATE KEYSPACE ks"),
                ddl(2, new DictionaryChange.CreateTable(T), "CREATE TABLE", "CREATE TABLE ks.t"),
                rows(10, insert(T, 1, 1, 10, "v", 1)));
        build(20, primary(), 40).forEach(redo::add);
        int parts = DictionaryBuilds.split(primary(), 40).size();
        assertTrue(parts >= 3, "the build spans several redo records");
        redo.add(rows(100, insert(T, 2, 2, 100, "v", 2)));
        LogMinerDictionary d = LogMinerDictionary.create(1, 20, NO_JOURNAL);
        CaptureWorker w = worker(d, 1, null, sink);
        redo.onCaughtUp(w::stop);
        w.run();
        List<String> expected = new ArrayList<>(List.of("DICTIONARY INITIALIZATION"));
        for (int i = 0; i < parts; i++) {
            expected.add("MINING (PROCESSED SCN = " + (20 + i) + ")");
        }
        expected.addAll(List.of("LOADING (step 1 of 2)", "LOADING (step 2 of 2)"));
        assertEquals(expected, states.subList(0, expected.size()));
        assertTrue(states.contains("CREATING LCR"));
        assertTrue(d.loaded());
        List<LogRecord> log = sink.log(5);
        assertEquals(List.of(100L), log.stream().map(r -> r.lcr().scn()).distinct().toList(),
                "the row below the build is not captured; the one after it is");
        assertEquals(100, sink.checkpoint(NAME));
    }

    @Test
    @DisplayName("CAP-LOC-1: changes committed between a build's first and last records are captured once the build is loaded")
    void changesInsideTheBuild() {
        List<RedoEntry> b = build(20, primary(), 40, 2);
        b.forEach(redo::add);
        for (int i = 0; i < b.size() - 1; i++) {
            redo.add(rows(21 + 2L * i, insert(T, i, i, 21 + 2L * i, "v", i)));
        }
        LogMinerDictionary d = LogMinerDictionary.create(1, 20, NO_JOURNAL);
        CaptureWorker w = worker(d, 1, null, sink);
        redo.onCaughtUp(w::stop);
        w.run();
        assertEquals(b.size() - 1, sink.log(5).stream().filter(LogRecord::isDelta).count());
        assertEquals(b.size() - 1, sink.appended().stream().filter(LogRecord::isDelta).count(), "each once");
    }

    @Test
    @DisplayName("CAP-STATE-1: WAITING FOR DICTIONARY REDO until the whole build is in the redo; no checkpoint moves before")
    void waitsForTheRestOfTheBuild() throws Exception {
        List<RedoEntry> b = build(20, primary(), 40);
        redo.add(b.get(0));
        LogMinerDictionary d = LogMinerDictionary.create(1, 20, NO_JOURNAL);
        CaptureWorker w = worker(d, 1, null, sink);
        Thread t = new Thread(w);
        t.start();
        await(() -> w.state() == CaptureState.WAITING_FOR_DICTIONARY_REDO, "WAITING FOR DICTIONARY REDO");
        assertEquals(19, sink.checkpoint(NAME));
        for (int i = 1; i < b.size(); i++) {
            redo.add(b.get(i));
        }
        redo.add(rows(100, insert(T, 2, 2, 100, "v", 2)));
        await(() -> sink.checkpoint(NAME) == 100, "the capture to pass the row after the build");
        // the checkpoint moves while the batch is enqueued; the worker then goes back to waiting
        await(() -> w.state() == CaptureState.WAITING_FOR_REDO, "the capture to wait for more redo");
        w.stop();
        t.join();
        assertEquals(1, sink.log(5).stream().filter(LogRecord::isDelta).count());
    }

    @Test
    @DisplayName("CAP-DICT-2: Table 2-1 — insert a=7 b=15, add c, drop b, capture afterwards: the LCR says b = 15")
    void table21() {
        // t1 (a int PRIMARY KEY, b int): here pk plays a, v plays b
        build(20, primary(), DictionaryBuilds.PART_BYTES).forEach(redo::add);
        redo.add(rows(30, insert(T, 7, 0, 30, "v", 15)));
        TableDef withC = T.withColumnAdded("c", INT);
        redo.add(ddl(40, new DictionaryChange.AlterTable(withC), "ALTER TABLE", "ALTER TABLE ks.t ADD c int"));
        TableDef dropped = withC.withColumnDropped("v");
        redo.add(ddl(50, new DictionaryChange.AlterTable(dropped), "ALTER TABLE", "ALTER TABLE ks.t DROP v"));
        redo.add(rows(60, new dev.tributary.capture.redo.RowChange(5, dev.tributary.capture.redo.RowOperation.INSERT,
                CaptureFixtures.pk(8), CaptureFixtures.values(dropped, "pk", 8, "ck", 0), CaptureFixtures.values(dropped, "c", 16),
                List.of(), 60, 0)));
        LogMinerDictionary d = LogMinerDictionary.create(1, 20, NO_JOURNAL);
        CaptureWorker w = worker(d, 1, null, sink);
        redo.onCaughtUp(w::stop);
        w.run();
        List<RowLcr> lcrs = sink.log(5).stream().filter(r -> r.lcr() instanceof RowLcr && r.isDelta())
                .map(r -> (RowLcr) r.lcr()).toList();
        assertEquals(2, lcrs.size());
        assertEquals(15, value(lcrs.get(0).newValues(), "v"), "time 1: the 15 went into b");
        assertEquals("absent", value(lcrs.get(0).newValues(), "c"));
        assertEquals(16, value(lcrs.get(1).newValues(), "c"));
        assertEquals("absent", value(lcrs.get(1).newValues(), "v"));
        assertEquals(List.of(40L, 50L), d.versions().versions().stream().map(DictionaryVersion::scn).skip(1).toList(),
                "the dictionary followed the DDL redo");
    }

    @Test
    @DisplayName("CAP-COMP-1, CAP-PAR-1: preparers in parallel and DDL in the middle give the same queue as one preparer")
    void parallelPreparersMatchSerial() {
        build(20, primary(), 64).forEach(redo::add);
        TableDef withC = T.withColumnAdded("c", INT);
        long scn = 100;
        for (int i = 0; i < 1500; i++) {
            if (i == 700) {
                redo.add(ddl(scn++, new DictionaryChange.AlterTable(withC), "ALTER TABLE", "ALTER TABLE ks.t ADD c int"));
            }
            TableDef now = i < 700 ? T : withC;
            redo.add(rows(scn, insert(now, i % 13, i, scn, "v", i), insert(now, i % 7, -i, scn, "v", -i)));
            scn++;
        }
        InMemoryLogSink serial = new InMemoryLogSink();
        InMemoryLogSink parallel = new InMemoryLogSink();
        for (Map.Entry<InMemoryLogSink, Integer> run : Map.of(serial, 1, parallel, 4).entrySet()) {
            CaptureWorker w = worker(LogMinerDictionary.create(1, 20, NO_JOURNAL), run.getValue(), null, run.getKey());
            redo.onCaughtUp(w::stop);
            w.run();
        }
        assertEquals(3000, serial.log(5).stream().filter(LogRecord::isDelta).filter(r -> r.lcr() instanceof RowLcr).count());
        assertEquals(serial.log(5), parallel.log(5));
    }

    @Test
    @DisplayName("CAP-FLOW-1, CAP-Q-2: a stalled subscriber pauses the capture (PAUSED FOR FLOW CONTROL) with the buffer bounded; it resumes by itself")
    void flowControl() throws Exception {
        build(20, primary(), DictionaryBuilds.PART_BYTES).forEach(redo::add);
        long capacity = 64 * 1024;
        BufferedQueues queues = new BufferedQueues(capacity);
        BufferedQueues.Subscription sub = queues.subscribe(5);
        LogMinerDictionary d = LogMinerDictionary.create(1, 20, NO_JOURNAL);
        CaptureWorker w = worker(d, 1, queues, sink);
        Thread t = new Thread(w);
        t.start();
        long scn = 100;
        int rows = 20_000;
        for (int i = 0; i < rows; i++, scn++) {
            redo.add(rows(scn, insert(T, i % 31, i, scn, "v", i, "w", "x".repeat(40))));
        }
        long last = scn - 1;
        await(() -> w.state() == CaptureState.PAUSED_FOR_FLOW_CONTROL, "PAUSED FOR FLOW CONTROL");
        long pausedAt = w.capturedScn();
        assertTrue(pausedAt < last, "the capture stopped short of the end of the redo");
        long regionBytes = 512L * 2 * 2000; // one region of at most 512 entries may land after the bound was reached
        assertTrue(queues.bufferedBytes(5) <= capacity + regionBytes, "bounded: " + queues.bufferedBytes(5));
        int delivered = 0;
        while (delivered < rows) {
            for (LogRecord r : sub.poll(1000, 1000)) {
                if (r.isDelta()) {
                    delivered++;
                }
            }
            assertTrue(queues.bufferedBytes(5) <= capacity + regionBytes);
        }
        await(() -> w.capturedScn() == last, "the capture to reach the end of the redo");
        assertTrue(w.flowControlPauses() > 0);
        assertEquals(rows, delivered, "the subscriber got every LCR once");
        sub.close();
        w.stop();
        t.join();
        assertEquals(0, queues.bufferedBytes(5));
    }
}
