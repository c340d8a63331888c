package dev.tributary.dictionary;

import dev.tributary.dictionary.schema.ColumnSpec;
import dev.tributary.dictionary.schema.KeyspaceDef;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.schema.TableOptions;
import dev.tributary.dictionary.types.CqlType;
import java.util.List;
import java.util.Map;

/** Small schema builders for the dictionary tests. */
final class Schemas {
    static final CqlType INT = CqlType.parse("int");
    static final CqlType TEXT = CqlType.parse("text");

    private Schemas() {
    }

    static DictionaryChange.CreateKeyspace keyspace(String name) {
        return new DictionaryChange.CreateKeyspace(new KeyspaceDef(name, Map.of("class", "SimpleStrategy",
                "replication_factor", "1"), false));
    }

    /** {@code CREATE TABLE ks.name (cols[0] int PRIMARY KEY, cols[1..] int)}. */
    static TableDef intTable(String ks, String name, long objectNumber, String... cols) {
        List<ColumnSpec> specs = java.util.Arrays.stream(cols).map(c -> new ColumnSpec(c, INT)).toList();
        return TableDef.create(ks, name, objectNumber, specs, List.of(cols[0]), List.of(), Map.of(), TableOptions.DEFAULT);
    }
}
