package dev.tributary.dictionary;

import static dev.tributary.dictionary.Schemas.INT;
import static dev.tributary.dictionary.Schemas.intTable;
import static dev.tributary.dictionary.Schemas.keyspace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.dictionary.errors.DictionaryPurgedException;
import dev.tributary.dictionary.errors.UnknownTableException;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.TableDef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class MultiversionDictionaryTest {

    /** Table 2-1: t1(a, b) at scn 10, ADD c at 20, DROP b at 30. */
    private static MultiversionDictionary table21() {
        MultiversionDictionary d = new MultiversionDictionary();
        d.apply(5, keyspace("ks"));
        d.apply(10, new DictionaryChange.CreateTable(intTable("ks", "t1", 100, "a", "b")));
        d.apply(20, new DictionaryChange.AlterTable(d.latest().requireTable("ks", "t1").withColumnAdded("c", INT)));
        d.apply(30, new DictionaryChange.AlterTable(d.latest().requireTable("ks", "t1").withColumnDropped("b")));
        return d;
    }

    private static List<String> columnNames(TableDef t) {
        return t.columns().stream().map(ColumnDef::name).toList();
    }

    // seed: CAP-DICT-2
    // seed: CAP-SDD-1
    @Test
    @DisplayName("CAP-DICT-2 / CAP-SDD-1: a change is decoded with the dictionary version of its own SCN (Table 2-1)")
    void table21ChangesAreDecodedWithTheDictionaryOfTheirTime() {
        MultiversionDictionary d = table21();

        TableDef atTime1 = d.asOf(15).requireTable(100);
        assertEquals(List.of("a", "b"), columnNames(atTime1));
        int aNumber = atTime1.requireColumn("a").columnNumber();
        int bNumber = atTime1.requireColumn("b").columnNumber();
        assertEquals(0, aNumber);
        assertEquals(1, bNumber);

        assertEquals(List.of("a", "b", "c"), columnNames(d.asOf(25).requireTable(100)));

        TableDef atTime3 = d.asOf(35).requireTable(100);
        assertEquals(List.of("a", "c"), columnNames(atTime3));
        assertEquals(aNumber, atTime3.requireColumn("a").columnNumber());
        int cNumber = atTime3.requireColumn("c").columnNumber();
        assertNotEquals(bNumber, cNumber);

        // the insert of (7, 15) at time 1, redo {column 0: 7, column 1: 15}, captured at time 3
        Map<Integer, Integer> redo = Map.of(0, 7, 1, 15);
        Map<String, Integer> decoded = new LinkedHashMap<>();
        TableDef asOfRecord = d.asOf(12).requireTable(100);
        redo.forEach((number, value) -> decoded.put(asOfRecord.columnByNumber(number).orElseThrow().name(), value));
        assertEquals(Map.of("a", 7, "b", 15), decoded);
        // with the current dictionary, column 1 no longer names anything: it would not become c
        assertTrue(d.latest().requireTable(100).columnByNumber(1).isEmpty());
    }

    @Test
    void asOfPicksTheGreatestVersionAtOrBelowTheScn() {
        MultiversionDictionary d = table21();
        assertSame(DictionaryVersion.EMPTY, d.asOf(4));
        assertEquals(5, d.asOf(5).scn());
        assertTrue(d.asOf(9).table(100).isEmpty());
        assertEquals(10, d.asOf(10).scn());
        assertEquals(20, d.asOf(29).scn());
        assertEquals(30, d.asOf(Long.MAX_VALUE).scn());
        assertSame(d.latest(), d.asOf(30));
        assertEquals(List.of(5L, 10L, 20L, 30L), d.versions().stream().map(DictionaryVersion::scn).toList());
        assertSame(DictionaryVersion.EMPTY, new MultiversionDictionary().latest());
    }

    @Test
    void scnsMustIncrease() {
        MultiversionDictionary d = table21();
        assertThrows(IllegalArgumentException.class, () -> d.apply(30, keyspace("x")));
        assertThrows(IllegalArgumentException.class, () -> d.apply(29, keyspace("x")));
        assertThrows(IllegalArgumentException.class, () -> d.install(d.asOf(10)));
        MultiversionDictionary fresh = new MultiversionDictionary();
        assertEquals(0, fresh.apply(0, keyspace("x")).scn());
        assertThrows(IllegalArgumentException.class, () -> new MultiversionDictionary().apply(-1, keyspace("x")));
    }

    @Test
    void aRefusedChangePublishesNothing() {
        MultiversionDictionary d = table21();
        assertThrows(UnknownTableException.class, () -> d.apply(40, new DictionaryChange.DropTable("ks", "nope")));
        assertEquals(4, d.versions().size());
        assertEquals(30, d.latest().scn());
    }

    @Test
    void purgeKeepsTheVersionInForceAtThePurgePoint() {
        MultiversionDictionary d = table21();
        assertEquals(2, d.purgeBelow(25)); // drops 5 and 10, keeps 20 (in force at 25) and 30
        assertEquals(List.of(20L, 30L), d.versions().stream().map(DictionaryVersion::scn).toList());
        assertEquals(List.of("a", "b", "c"), columnNames(d.asOf(25).requireTable(100)));
        assertEquals(30, d.asOf(31).scn());
        DictionaryPurgedException e = assertThrows(DictionaryPurgedException.class, () -> d.asOf(24));
        assertEquals(25, e.firstAvailableScn());
        assertEquals(24, e.requestedScn());
        assertEquals(25, d.firstAvailableScn());
        assertEquals(0, d.purgeBelow(10)); // lower than before: nothing
        assertEquals(1, d.purgeBelow(1000));
        assertEquals(List.of(30L), d.versions().stream().map(DictionaryVersion::scn).toList());
        assertEquals(30, d.asOf(1000).scn());
    }

    @Test
    void replayRebuildsTheSameVersions() {
        List<Map.Entry<Long, DictionaryChange>> log = List.of(
                Map.entry(5L, keyspace("ks")),
                Map.entry(10L, new DictionaryChange.CreateTable(intTable("ks", "t1", 100, "a", "b"))),
                Map.entry(20L, new DictionaryChange.DropTable("ks", "t1")));
        MultiversionDictionary d = MultiversionDictionary.replay(log);
        assertEquals(3, d.versions().size());
        assertTrue(d.asOf(15).table(100).isPresent());
        assertTrue(d.latest().table(100).isEmpty());
        assertThrows(IllegalArgumentException.class,
                () -> MultiversionDictionary.replay(List.of(Map.entry(5L, keyspace("a")), Map.entry(5L, keyspace("b")))));
    }

    @Test
    void installAddsAWholeVersion() {
        DictionaryVersion build = table21().latest();
        MultiversionDictionary d = new MultiversionDictionary();
        d.install(build);
        assertSame(build, d.asOf(30));
        assertSame(DictionaryVersion.EMPTY, d.asOf(29));
        d.apply(31, new DictionaryChange.DropTable("ks", "t1"));
        assertTrue(d.latest().tables().isEmpty());
    }

    @Test
    void readersSeeConsistentVersionsWhileAWriterApplies() throws Exception {
        MultiversionDictionary d = new MultiversionDictionary();
        d.apply(1, keyspace("ks"));
        d.apply(2, new DictionaryChange.CreateTable(intTable("ks", "t", 0, "k")));
        int changes = 500;
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            CountDownLatch start = new CountDownLatch(1);
            Future<?> writer = pool.submit(() -> {
                start.await();
                for (int i = 0; i < changes; i++) {
                    TableDef t = d.latest().requireTable(0);
                    d.apply(3 + i, new DictionaryChange.AlterTable(t.withColumnAdded("c" + i, INT)));
                }
                return null;
            });
            List<Future<?>> readers = List.of(pool.submit(() -> read(d, start, changes)), pool.submit(() -> read(d, start, changes)));
            start.countDown();
            writer.get(20, TimeUnit.SECONDS);
            for (Future<?> r : readers) {
                r.get(20, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(changes + 1, d.latest().requireTable(0).columns().size());
    }

    /** The version at scn s has exactly s - 2 added columns: never a half-applied state. */
    private static Void read(MultiversionDictionary d, CountDownLatch start, int changes) throws InterruptedException {
        start.await();
        long lastSeen = 0;
        while (lastSeen < changes + 2) {
            DictionaryVersion latest = d.latest();
            assertTrue(latest.scn() >= lastSeen, "versions went back");
            lastSeen = latest.scn();
            long probe = Math.max(2, lastSeen - 7);
            DictionaryVersion v = d.asOf(probe);
            assertEquals(probe, v.scn());
            assertEquals(probe - 1, v.requireTable(0).columns().size());
            Thread.yield(); // the machine is small: leave the writer its core
        }
        return null;
    }
}
