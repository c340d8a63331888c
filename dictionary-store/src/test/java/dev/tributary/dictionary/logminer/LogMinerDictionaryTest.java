package dev.tributary.dictionary.logminer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.dictionary.DictionaryChange;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.errors.DictionaryPurgedException;
import dev.tributary.dictionary.io.CorruptRecordException;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.KeyspaceDef;
import dev.tributary.dictionary.schema.ColumnSpec;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.schema.TableOptions;
import dev.tributary.dictionary.types.CqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LogMinerDictionaryTest {
    private static final CqlType INT = CqlType.parse("int");

    /** What a journal saw, to restore from it as a node restart does. */
    private static final class Recorded implements LogMinerDictionary.Journal {
        final Map<Long, List<DictionaryVersion>> versions = new LinkedHashMap<>();
        long purgedBelow = Long.MIN_VALUE;

        @Override
        public void versionAdded(long id, DictionaryVersion v) {
            versions.computeIfAbsent(id, k -> new ArrayList<>()).add(v);
        }

        @Override
        public void purged(long id, long below) {
            purgedBelow = below;
            versions.get(id).removeIf(v -> v.scn() < below && v != floor(versions.get(id), below));
        }

        private static DictionaryVersion floor(List<DictionaryVersion> vs, long scn) {
            DictionaryVersion f = null;
            for (DictionaryVersion v : vs) {
                if (v.scn() <= scn) {
                    f = v;
                }
            }
            return f;
        }
    }

    private static final TableDef T1 = TableDef.create("ks", "t1", 100, List.of(new ColumnSpec("a", INT),
            new ColumnSpec("b", INT)), List.of("a"), List.of(), Map.of(), TableOptions.DEFAULT);

    /** The primary dictionary at the time of a build: ks and t1 (a, b). */
    private static DictionaryVersion primary() {
        MultiversionDictionary d = new MultiversionDictionary();
        d.apply(3, new DictionaryChange.CreateKeyspace(new KeyspaceDef("ks", Map.of("class", "SimpleStrategy", "replication_factor", "1"), false)));
        d.apply(4, new DictionaryChange.CreateTable(T1));
        return d.latest();
    }

    private static List<String> names(DictionaryVersion v) {
        return v.requireTable("ks", "t1").columns().stream().map(ColumnDef::name).toList();
    }

    @Test
    @DisplayName("CAP-DICT-1: a build's parts reassemble into the dictionary, and damaged parts are refused")
    void buildRoundTrip() {
        DictionaryVersion v = primary();
        List<byte[]> parts = DictionaryBuilds.split(v, 7);
        assertTrue(parts.size() > 3, "a small part size cuts the build into many redo records");
        assertEquals(v, DictionaryBuilds.assemble(parts));
        assertEquals(1, DictionaryBuilds.split(v, DictionaryBuilds.PART_BYTES).size());
        List<byte[]> missing = new ArrayList<>(parts);
        missing.remove(1);
        assertThrows(CorruptRecordException.class, () -> DictionaryBuilds.assemble(missing));
        byte[] last = parts.get(parts.size() - 1);
        List<byte[]> cut = new ArrayList<>(parts);
        cut.set(parts.size() - 1, Arrays.copyOf(last, last.length - 1));
        assertThrows(CorruptRecordException.class, () -> DictionaryBuilds.assemble(cut));
    }

    @Test
    @DisplayName("CAP-DICT-2: Table 2-1 — a change before later DDL decodes with the dictionary of its own time")
    void table21() {
        Recorded journal = new Recorded();
        LogMinerDictionary d = LogMinerDictionary.create(1, 10, journal);
        assertFalse(d.loaded());
        assertFalse(d.applyDdl(12, new DictionaryChange.AlterTable(T1.withColumnAdded("c", INT))), "nothing applies before the build is loaded");
        assertTrue(d.load(primary()));
        assertFalse(d.load(primary()), "loading twice does nothing");
        assertTrue(d.applyDdl(20, new DictionaryChange.AlterTable(T1.withColumnAdded("c", INT))));
        TableDef dropped = d.versions().latest().requireTable("ks", "t1").withColumnDropped("b");
        assertTrue(d.applyDdl(30, new DictionaryChange.AlterTable(dropped)));
        assertEquals(List.of("a", "b"), names(d.versions().asOf(15)), "time 1: columns a and b");
        assertEquals(List.of("a", "b", "c"), names(d.versions().asOf(25)));
        assertEquals(List.of("a", "c"), names(d.versions().asOf(35)));
        assertEquals(Map.of(1L, 3), Map.of(1L, journal.versions.get(1L).size()), "every version is journaled");
    }

    @Test
    @DisplayName("CAP-DICT-3: captures sharing a dictionary apply each DDL once, in SCN order")
    void sharedDdlAppliesOnce() {
        LogMinerDictionary d = LogMinerDictionary.create(1, 10, new Recorded());
        d.load(primary());
        DictionaryChange addC = new DictionaryChange.AlterTable(T1.withColumnAdded("c", INT));
        assertTrue(d.applyDdl(20, addC));
        assertFalse(d.applyDdl(20, addC), "the second capture mining the same DDL");
        assertFalse(d.applyDdl(8, addC), "DDL the build already holds");
        assertEquals(2, d.versions().versions().size());
    }

    @Test
    @DisplayName("CAP-SCN-10: raising the first SCN purges the dictionary below it; a restart restores the purged state")
    void purgeAndRestore() {
        Recorded journal = new Recorded();
        LogMinerDictionary d = LogMinerDictionary.create(7, 10, journal);
        d.load(primary());
        d.applyDdl(20, new DictionaryChange.AlterTable(T1.withColumnAdded("c", INT)));
        d.applyDdl(30, new DictionaryChange.AlterTable(T1.withColumnAdded("c", INT).withColumnDropped("b")));
        assertEquals(1, d.purgeBelow(25));
        assertEquals(0, d.purgeBelow(22), "purging lower than before does nothing");
        assertThrows(DictionaryPurgedException.class, () -> d.versions().asOf(15));
        assertEquals(List.of("a", "b", "c"), names(d.versions().asOf(25)));
        LogMinerDictionary back = LogMinerDictionary.restore(7, 10, journal.versions.get(7L), journal.purgedBelow, journal);
        assertTrue(back.loaded());
        assertEquals(d.versions().versions(), back.versions().versions());
        assertThrows(DictionaryPurgedException.class, () -> back.versions().asOf(15));
    }
}
