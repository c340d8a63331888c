package dev.tributary.dictionary.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.dictionary.errors.AlreadyExistsException;
import dev.tributary.dictionary.errors.InvalidSchemaException;
import dev.tributary.dictionary.errors.UnknownColumnException;
import dev.tributary.dictionary.types.CqlType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableDefTest {
    static final CqlType INT = CqlType.parse("int");
    static final CqlType TEXT = CqlType.parse("text");

    private static TableDef events() {
        return TableDef.create("ks", "events", 7,
                List.of(new ColumnSpec("day", TEXT), new ColumnSpec("seq", INT), new ColumnSpec("at", CqlType.parse("timestamp")),
                        new ColumnSpec("payload", CqlType.parse("map<text, blob>")), new ColumnSpec("src", TEXT),
                        new ColumnSpec("owner", TEXT, true)),
                List.of("src", "day"), List.of("at", "seq"), Map.of("at", ClusteringOrder.DESC), TableOptions.DEFAULT);
    }

    private static InvalidSchemaException invalid(List<ColumnSpec> cols, List<String> pk, List<String> ck) {
        return assertThrows(InvalidSchemaException.class,
                () -> TableDef.create("ks", "t", 1, cols, pk, ck, Map.of(), TableOptions.DEFAULT));
    }

    @Test
    void createNumbersColumnsAndOrdersKeys() {
        TableDef t = events();
        assertEquals("ks.events", t.qualifiedName());
        assertEquals(7, t.objectNumber());
        assertEquals(6, t.nextColumnNumber());
        assertEquals(List.of("src", "day"), t.partitionKey().stream().map(ColumnDef::name).toList());
        assertEquals(List.of("at", "seq"), t.clusteringKey().stream().map(ColumnDef::name).toList());
        assertEquals(List.of("src", "day", "at", "seq"), t.primaryKeyColumns().stream().map(ColumnDef::name).toList());
        assertEquals(List.of("payload"), t.regularColumns().stream().map(ColumnDef::name).toList());
        assertEquals(List.of("owner"), t.staticColumns().stream().map(ColumnDef::name).toList());
        assertEquals(List.of(0, 1, 2, 3, 4, 5), t.columns().stream().map(ColumnDef::columnNumber).toList());
        ColumnDef at = t.column("at").orElseThrow();
        assertEquals(ColumnKind.CLUSTERING, at.kind());
        assertEquals(0, at.keyPosition());
        assertEquals(ClusteringOrder.DESC, at.order());
        assertEquals(ClusteringOrder.ASC, t.column("seq").orElseThrow().order());
        assertEquals(1, t.column("day").orElseThrow().keyPosition());
        assertEquals(-1, t.column("payload").orElseThrow().keyPosition());
        assertEquals("payload", t.columnByNumber(3).orElseThrow().name());
        assertTrue(t.columnByNumber(6).isEmpty());
        assertTrue(t.columnByNumber(-1).isEmpty());
        assertTrue(t.column("nope").isEmpty());
        UnknownColumnException e = assertThrows(UnknownColumnException.class, () -> t.requireColumn("nope"));
        assertEquals("unknown column 'nope' in table ks.events", e.getMessage());
    }

    @Test
    void addedColumnsTakeNewNumbersAndDroppedNumbersAreNeverReused() {
        TableDef t = events().withColumnDropped("payload");
        assertTrue(t.columnByNumber(3).isEmpty());
        assertEquals(6, t.nextColumnNumber());
        TableDef again = t.withColumnAdded("payload", TEXT);
        ColumnDef readded = again.column("payload").orElseThrow();
        assertEquals(6, readded.columnNumber());
        assertEquals(ColumnKind.REGULAR, readded.kind());
        assertEquals(7, again.nextColumnNumber());
        assertTrue(again.columnByNumber(3).isEmpty());
        assertEquals(ColumnKind.STATIC, again.withColumnAdded("s2", INT, true).column("s2").orElseThrow().kind());
        assertNotEquals(events(), again);
        assertEquals(events(), events());
        assertEquals(events().hashCode(), events().hashCode());
    }

    @Test
    void addingAnExistingNameOrDroppingAKeyColumnFails() {
        AlreadyExistsException a = assertThrows(AlreadyExistsException.class, () -> events().withColumnAdded("seq", INT));
        assertEquals("column 'seq' already exists in table ks.events", a.getMessage());
        InvalidSchemaException e = assertThrows(InvalidSchemaException.class, () -> events().withColumnDropped("seq"));
        assertTrue(e.getMessage().contains("primary key column 'seq'") && e.getMessage().contains("ks.events"));
        assertThrows(InvalidSchemaException.class, () -> events().withColumnDropped("src"));
        assertThrows(UnknownColumnException.class, () -> events().withColumnDropped("zzz"));
    }

    @Test
    void createValidatesKeysAndTypes() {
        List<ColumnSpec> ab = List.of(new ColumnSpec("a", INT), new ColumnSpec("b", INT));
        assertThrows(UnknownColumnException.class,
                () -> TableDef.create("ks", "t", 1, ab, List.of("x"), List.of(), Map.of(), TableOptions.DEFAULT));
        assertThrows(UnknownColumnException.class,
                () -> TableDef.create("ks", "t", 1, ab, List.of("a"), List.of("y"), Map.of(), TableOptions.DEFAULT));
        assertTrue(invalid(ab, List.of(), List.of()).getMessage().contains("no partition key"));
        assertTrue(invalid(List.of(new ColumnSpec("a", INT), new ColumnSpec("a", TEXT)), List.of("a"), List.of())
                .getMessage().contains("duplicate column 'a' in table ks.t"));
        assertTrue(invalid(ab, List.of("a"), List.of("a")).getMessage().contains("twice"));
        assertTrue(invalid(ab, List.of("a", "a"), List.of()).getMessage().contains("twice"));
        assertTrue(invalid(List.of(new ColumnSpec("a", CqlType.parse("list<int>"))), List.of("a"), List.of())
                .getMessage().contains("non-frozen collection"));
        assertTrue(invalid(List.of(new ColumnSpec("a", INT), new ColumnSpec("b", CqlType.parse("set<int>"))),
                List.of("a"), List.of("b")).getMessage().contains("column 'b' of table ks.t"));
        assertTrue(invalid(List.of(new ColumnSpec("a", CqlType.parse("duration"))), List.of("a"), List.of())
                .getMessage().contains("duration"));
        invalid(List.of(new ColumnSpec("a", CqlType.parse("frozen<list<duration>>"))), List.of("a"), List.of());
        invalid(List.of(new ColumnSpec("a", INT), new ColumnSpec("c", CqlType.parse("counter"))), List.of("c"), List.of());
        InvalidSchemaException ordered = assertThrows(InvalidSchemaException.class, () -> TableDef.create("ks", "t", 1, ab,
                List.of("a"), List.of(), Map.of("b", ClusteringOrder.DESC), TableOptions.DEFAULT));
        assertTrue(ordered.getMessage().contains("not a clustering column"));
        assertTrue(invalid(List.of(new ColumnSpec("a", INT), new ColumnSpec("s", INT, true)), List.of("a"), List.of())
                .getMessage().contains("static"));
        invalid(List.of(new ColumnSpec("a", INT, true), new ColumnSpec("b", INT)), List.of("a"), List.of("b"));

        // frozen collections and user types may be keys
        CqlType.UserType udt = new CqlType.UserType("ks", "u", List.of(new CqlType.Field("f", INT)), true);
        TableDef ok = TableDef.create("ks", "t", 1,
                List.of(new ColumnSpec("a", CqlType.parse("frozen<list<int>>")), new ColumnSpec("b", udt),
                        new ColumnSpec("d", CqlType.parse("duration")), new ColumnSpec("m", CqlType.parse("map<text, duration>"))),
                List.of("a"), List.of("b"), Map.of(), TableOptions.DEFAULT);
        assertEquals(2, ok.regularColumns().size());
    }

    @Test
    void typesAreCheckedWhereverTheyAppear() {
        InvalidSchemaException e = invalid(
                List.of(new ColumnSpec("a", INT), new ColumnSpec("l", CqlType.parse("list<list<int>>"))), List.of("a"), List.of());
        assertTrue(e.getMessage().contains("non-frozen collections are not allowed inside collections"), e.getMessage());
        assertTrue(invalid(List.of(new ColumnSpec("a", INT), new ColumnSpec("s", CqlType.parse("set<duration>"))),
                List.of("a"), List.of()).getMessage().contains("inside sets"));
        assertTrue(invalid(List.of(new ColumnSpec("a", INT), new ColumnSpec("m", CqlType.parse("map<duration, int>"))),
                List.of("a"), List.of()).getMessage().contains("map keys"));
        invalid(List.of(new ColumnSpec("a", INT), new ColumnSpec("l", CqlType.parse("list<counter>"))), List.of("a"), List.of());
        // inside frozen<...> nested collections are frozen implicitly
        TableDef.create("ks", "t", 1, List.of(new ColumnSpec("a", CqlType.parse("frozen<list<list<int>>>"))),
                List.of("a"), List.of(), Map.of(), TableOptions.DEFAULT);
        TableDef.create("ks", "t", 1, List.of(new ColumnSpec("a", INT), new ColumnSpec("l", CqlType.parse("list<frozen<set<int>>>"))),
                List.of("a"), List.of(), Map.of(), TableOptions.DEFAULT);
    }

    @Test
    void countersStandAlone() {
        TableDef counters = TableDef.create("ks", "c", 1,
                List.of(new ColumnSpec("k", TEXT), new ColumnSpec("hits", CqlType.parse("counter"))),
                List.of("k"), List.of(), Map.of(), TableOptions.DEFAULT);
        assertTrue(counters.isCounterTable());
        assertTrue(assertThrows(InvalidSchemaException.class, () -> counters.withColumnAdded("name", TEXT))
                .getMessage().contains("mixes counter"));
        assertEquals(3, counters.withColumnAdded("misses", CqlType.parse("counter")).columns().size());
        assertThrows(InvalidSchemaException.class, () -> counters.withOptions(
                TableOptions.DEFAULT.withCdc(CdcOptions.enabledWithDefaults())));
        assertFalse(events().isCounterTable());
        assertThrows(InvalidSchemaException.class, () -> events().withColumnAdded("n", CqlType.parse("counter")));
    }

    @Test
    void optionsChange() {
        TableOptions o = TableOptions.DEFAULT.withCdc(CdcOptions.enabledWithDefaults()).withMinTabletCount(8);
        TableDef t = events().withOptions(o);
        assertTrue(t.options().cdc().enabled());
        assertEquals(8, t.options().minTabletCount());
        assertEquals(events().columns(), t.columns());
        assertThrows(InvalidSchemaException.class, () -> TableOptions.DEFAULT.withMinTabletCount(-1));
    }

    @Test
    void constructorChecksInvariants() {
        ColumnDef a = new ColumnDef("a", INT, ColumnKind.PARTITION_KEY, 0, 0, ClusteringOrder.ASC);
        ColumnDef b = ColumnDef.regular("b", INT, 0);
        assertThrows(InvalidSchemaException.class, () -> new TableDef("ks", "t", 1, List.of(a, b), TableOptions.DEFAULT, 2));
        assertThrows(InvalidSchemaException.class, () -> new TableDef("ks", "t", 1, List.of(a), TableOptions.DEFAULT, 0));
        ColumnDef gap = new ColumnDef("g", INT, ColumnKind.PARTITION_KEY, 1, 1, ClusteringOrder.ASC);
        assertThrows(InvalidSchemaException.class, () -> new TableDef("ks", "t", 1, List.of(gap), TableOptions.DEFAULT, 2));
        assertThrows(IllegalArgumentException.class,
                () -> new ColumnDef("r", INT, ColumnKind.REGULAR, 0, 1, ClusteringOrder.ASC));
        assertThrows(IllegalArgumentException.class,
                () -> new ColumnDef("r", INT, ColumnKind.REGULAR, -1, 1, ClusteringOrder.DESC));
    }
}
