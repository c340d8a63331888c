package dev.tributary.node.nativeproto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.datastax.oss.protocol.internal.response.event.SchemaChangeEvent;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.MultiversionDictionary;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The SCHEMA_CHANGE events between dictionary versions. */
class SchemaEventsTest {
    private static List<String> events(DictionaryVersion a, DictionaryVersion b) {
        return SchemaEvents.between(a, b).stream()
                .map((SchemaChangeEvent e) -> e.changeType + " " + e.target + " " + e.keyspace + (e.object == null ? "" : "." + e.object))
                .toList();
    }

    @Test
    @DisplayName("created, updated and dropped keyspaces and tables, keyspaces created first and dropped last")
    void diffs() {
        MultiversionDictionary d = new MultiversionDictionary();
        DictionaryVersion empty = d.latest();
        DictionaryVersion ks = d.apply(1, new dev.tributary.dictionary.DictionaryChange.CreateKeyspace(
                new dev.tributary.dictionary.schema.KeyspaceDef("ks", java.util.Map.of("class", "SimpleStrategy",
                        "replication_factor", "1"), false)));
        DictionaryVersion table = d.apply(2, new dev.tributary.dictionary.DictionaryChange.CreateTable(
                dev.tributary.dictionary.schema.TableDef.create("ks", "t", ks.nextObjectNumber(), List.of(
                        new dev.tributary.dictionary.schema.ColumnSpec("pk", dev.tributary.dictionary.types.CqlType.of(
                                dev.tributary.dictionary.types.CqlType.Kind.INT), false)), List.of("pk"), List.of(),
                        java.util.Map.of(), dev.tributary.dictionary.schema.TableOptions.DEFAULT)));
        assertEquals(List.of("CREATED KEYSPACE ks", "CREATED TABLE ks.t"), events(empty, table));
        assertEquals(List.of("CREATED TABLE ks.t"), events(ks, table));
        assertEquals(List.of("DROPPED TABLE ks.t", "DROPPED KEYSPACE ks"), events(table, empty));
        assertEquals(List.of(), events(table, table));
    }
}
