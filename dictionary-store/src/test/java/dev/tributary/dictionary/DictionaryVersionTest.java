package dev.tributary.dictionary;

import static dev.tributary.dictionary.Schemas.INT;
import static dev.tributary.dictionary.Schemas.TEXT;
import static dev.tributary.dictionary.Schemas.intTable;
import static dev.tributary.dictionary.Schemas.keyspace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.dictionary.errors.AlreadyExistsException;
import dev.tributary.dictionary.errors.InvalidSchemaException;
import dev.tributary.dictionary.errors.UnknownKeyspaceException;
import dev.tributary.dictionary.errors.UnknownTableException;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.ColumnKind;
import dev.tributary.dictionary.schema.ClusteringOrder;
import dev.tributary.dictionary.schema.ColumnSpec;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.schema.TableOptions;
import dev.tributary.dictionary.schema.UserTypeDef;
import dev.tributary.dictionary.types.CqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DictionaryVersionTest {

    private static DictionaryVersion withKeyspaces(String... names) {
        DictionaryVersion v = DictionaryVersion.EMPTY;
        for (String n : names) {
            v = v.apply(1, keyspace(n));
        }
        return v;
    }

    @Test
    void emptyHasNothing() {
        DictionaryVersion e = DictionaryVersion.EMPTY;
        assertEquals(0, e.scn());
        assertTrue(e.keyspaces().isEmpty() && e.tables().isEmpty() && e.userTypes().isEmpty());
        assertTrue(e.table(0).isEmpty());
        assertTrue(e.tablesOf("ks").isEmpty());
        assertEquals(0, e.nextObjectNumber());
    }

    @Test
    void createsAndFindsTablesByNameAndObjectNumber() {
        DictionaryVersion v0 = withKeyspaces("b", "a");
        DictionaryVersion v = v0.apply(5, new DictionaryChange.CreateTable(intTable("a", "t2", 3, "k")))
                .apply(6, new DictionaryChange.CreateTable(intTable("a", "t1", 4, "k")))
                .apply(7, new DictionaryChange.CreateTable(intTable("b", "t", 9, "k")));
        assertEquals(7, v.scn());
        assertEquals(List.of("a", "b"), v.keyspaces().stream().map(k -> k.name()).toList());
        assertEquals(List.of(3L, 4L, 9L), v.tables().stream().map(TableDef::objectNumber).toList());
        assertEquals(List.of("t1", "t2"), v.tablesOf("a").stream().map(TableDef::name).toList());
        assertEquals("t1", v.table(4).orElseThrow().name());
        assertEquals("t", v.requireTable(9).name());
        assertEquals(4, v.table("a", "t1").orElseThrow().objectNumber());
        assertTrue(v.table(5).isEmpty());
        assertTrue(v.table("a", "zz").isEmpty());
        assertEquals(10, v.nextObjectNumber());
        // the earlier version is untouched
        assertTrue(v0.tables().isEmpty());
        assertEquals("unknown table with object number 5",
                assertThrows(UnknownTableException.class, () -> v.requireTable(5)).getMessage());
        assertEquals("unknown table a.zz", assertThrows(UnknownTableException.class, () -> v.requireTable("a", "zz"))
                .getMessage());
        assertEquals("unknown keyspace c", assertThrows(UnknownKeyspaceException.class, () -> v.requireTable("c", "t"))
                .getMessage());
    }

    @Test
    void refusesUnknownAndDuplicateObjects() {
        DictionaryVersion v = withKeyspaces("ks").apply(2, new DictionaryChange.CreateTable(intTable("ks", "t", 0, "k")));
        assertEquals("keyspace ks already exists",
                assertThrows(AlreadyExistsException.class, () -> v.apply(3, keyspace("ks"))).getMessage());
        assertEquals("table ks.t already exists", assertThrows(AlreadyExistsException.class,
                () -> v.apply(3, new DictionaryChange.CreateTable(intTable("ks", "t", 5, "k")))).getMessage());
        assertThrows(UnknownKeyspaceException.class,
                () -> v.apply(3, new DictionaryChange.CreateTable(intTable("nope", "t", 5, "k"))));
        assertThrows(UnknownKeyspaceException.class, () -> v.apply(3, new DictionaryChange.DropKeyspace("nope")));
        assertThrows(UnknownTableException.class, () -> v.apply(3, new DictionaryChange.DropTable("ks", "nope")));
        assertThrows(UnknownTableException.class,
                () -> v.apply(3, new DictionaryChange.AlterTable(intTable("ks", "nope", 0, "k"))));
        assertThrows(UnknownKeyspaceException.class, () -> v.apply(3, new DictionaryChange.DropTable("nope", "t")));
        assertThrows(UnknownTableException.class, () -> v.apply(3, new DictionaryChange.TruncateTable("ks", "nope")));
        assertThrows(CqlType.UnknownTypeException.class, () -> v.apply(3, new DictionaryChange.DropType("ks", "nope")));
        assertThrows(IllegalArgumentException.class, () -> v.apply(1, keyspace("other")));
        assertThrows(IllegalArgumentException.class, () -> DictionaryVersion.EMPTY.apply(-1, keyspace("other")));
    }

    @Test
    void truncateKeepsTheDefinitionAndIsAlwaysReflected() { // CAP-DDL-2: TRUNCATE is DDL, not a change of the definitions
        DictionaryVersion v = withKeyspaces("ks").apply(2, new DictionaryChange.CreateTable(intTable("ks", "t", 3, "k")));
        DictionaryChange truncate = new DictionaryChange.TruncateTable("ks", "t");
        DictionaryVersion after = v.apply(5, truncate);
        assertEquals(5, after.scn());
        assertEquals(v.tables(), after.tables());
        // merged redo threads each carry the truncate; none of them may change a capture's dictionary
        assertTrue(v.reflects(truncate));
    }

    @Test
    void objectNumbersAreNeverReused() {
        DictionaryVersion v = withKeyspaces("ks").apply(2, new DictionaryChange.CreateTable(intTable("ks", "t", 0, "k")))
                .apply(3, new DictionaryChange.DropTable("ks", "t"));
        assertEquals(1, v.nextObjectNumber());
        InvalidSchemaException e = assertThrows(InvalidSchemaException.class,
                () -> v.apply(4, new DictionaryChange.CreateTable(intTable("ks", "t", 0, "k"))));
        assertTrue(e.getMessage().contains("object number 0 of table ks.t was already used"), e.getMessage());
        assertEquals(1, v.apply(4, new DictionaryChange.CreateTable(intTable("ks", "t", 1, "k"))).requireTable("ks", "t")
                .objectNumber());
    }

    @Test
    void droppingAKeyspaceDropsItsTablesAndTypes() {
        UserTypeDef u = new UserTypeDef("ks", "u", List.of(new CqlType.Field("f", INT)));
        DictionaryVersion v = withKeyspaces("ks", "other")
                .apply(2, new DictionaryChange.CreateType(u))
                .apply(2, new DictionaryChange.CreateTable(intTable("ks", "t", 0, "k")))
                .apply(2, new DictionaryChange.CreateTable(intTable("other", "t", 1, "k")));
        DictionaryVersion dropped = v.apply(3, new DictionaryChange.DropKeyspace("ks"));
        assertTrue(dropped.keyspace("ks").isEmpty());
        assertTrue(dropped.table(0).isEmpty());
        assertTrue(dropped.userType("ks", "u").isEmpty());
        assertEquals(List.of(1L), dropped.tables().stream().map(TableDef::objectNumber).toList());
        assertEquals(2, dropped.nextObjectNumber());
        // re-created, the keyspace starts empty
        assertTrue(dropped.apply(4, keyspace("ks")).tablesOf("ks").isEmpty());
    }

    @Test
    void alterTableKeepsIdentityKeyAndNumbers() {
        TableDef t = intTable("ks", "t", 0, "k", "a");
        DictionaryVersion v = withKeyspaces("ks").apply(2, new DictionaryChange.CreateTable(t));
        TableDef added = t.withColumnAdded("b", TEXT);
        assertEquals(added, v.apply(3, new DictionaryChange.AlterTable(added)).requireTable(0));

        TableDef otherNumber = new TableDef("ks", "t", 5, t.columns(), t.options(), t.nextColumnNumber());
        assertTrue(assertThrows(InvalidSchemaException.class, () -> v.apply(3, new DictionaryChange.AlterTable(otherNumber)))
                .getMessage().contains("object number"));

        List<ColumnDef> renamed = new ArrayList<>(t.columns());
        renamed.set(1, ColumnDef.regular("a2", INT, 1));
        TableDef renamedDef = new TableDef("ks", "t", 0, renamed, t.options(), t.nextColumnNumber());
        assertTrue(assertThrows(InvalidSchemaException.class, () -> v.apply(3, new DictionaryChange.AlterTable(renamedDef)))
                .getMessage().contains("column number 1"));

        // dropping a then adding a column that takes a's old number 1 is a reuse
        TableDef dropped = v.apply(3, new DictionaryChange.AlterTable(t.withColumnDropped("a"))).requireTable(0);
        TableDef reuse = new TableDef("ks", "t", 0, List.of(dropped.columns().get(0), ColumnDef.regular("c", INT, 1)),
                t.options(), 2);
        DictionaryVersion afterDrop = v.apply(3, new DictionaryChange.AlterTable(dropped));
        assertTrue(assertThrows(InvalidSchemaException.class, () -> afterDrop.apply(4, new DictionaryChange.AlterTable(reuse)))
                .getMessage().contains("reuses column number 1"));

        TableDef newKey = TableDef.create("ks", "t", 0, List.of(new ColumnSpec("k", INT), new ColumnSpec("a", INT)),
                List.of("k"), List.of("a"), Map.of("a", ClusteringOrder.DESC), TableOptions.DEFAULT);
        assertTrue(assertThrows(InvalidSchemaException.class, () -> v.apply(3, new DictionaryChange.AlterTable(newKey)))
                .getMessage().contains("primary key"));
        TableDef backwards = new TableDef("ks", "t", 0, List.of(t.columns().get(0)), t.options(), 1);
        assertThrows(InvalidSchemaException.class, () -> v.apply(3, new DictionaryChange.AlterTable(backwards)));
    }

    @Test
    void userTypesMustExistMatchAndBeUnusedToDrop() {
        UserTypeDef address = new UserTypeDef("ks", "address", List.of(new CqlType.Field("street", TEXT)));
        UserTypeDef person = new UserTypeDef("ks", "person",
                List.of(new CqlType.Field("home", address.toType().withFrozen(true))));
        DictionaryVersion v = withKeyspaces("ks", "ks2").apply(2, new DictionaryChange.CreateType(address))
                .apply(3, new DictionaryChange.CreateType(person));
        assertEquals(List.of(address, person), v.userTypes());
        assertEquals(person, v.userType("ks", "person").orElseThrow());
        assertEquals("type ks.address already exists", assertThrows(AlreadyExistsException.class,
                () -> v.apply(4, new DictionaryChange.CreateType(address))).getMessage());
        assertTrue(assertThrows(InvalidSchemaException.class, () -> v.apply(4, new DictionaryChange.DropType("ks", "address")))
                .getMessage().contains("type ks.person uses it"));

        TableDef usesPerson = TableDef.create("ks", "people", 0, List.of(new ColumnSpec("id", INT),
                new ColumnSpec("p", person.toType().withFrozen(true))), List.of("id"), List.of(), Map.of(),
                TableOptions.DEFAULT);
        DictionaryVersion withTable = v.apply(4, new DictionaryChange.CreateTable(usesPerson));
        assertTrue(assertThrows(InvalidSchemaException.class,
                () -> withTable.apply(5, new DictionaryChange.DropType("ks", "person")))
                .getMessage().contains("column 'p' of table ks.people uses it"));
        DictionaryVersion freed = withTable.apply(5, new DictionaryChange.DropTable("ks", "people"))
                .apply(6, new DictionaryChange.DropType("ks", "person"))
                .apply(7, new DictionaryChange.DropType("ks", "address"));
        assertTrue(freed.userTypes().isEmpty());

        CqlType.UserType ghost = new CqlType.UserType("ks", "ghost", List.of(new CqlType.Field("x", INT)), true);
        TableDef usesGhost = TableDef.create("ks", "g", 0, List.of(new ColumnSpec("id", INT), new ColumnSpec("g", ghost)),
                List.of("id"), List.of(), Map.of(), TableOptions.DEFAULT);
        assertTrue(assertThrows(CqlType.UnknownTypeException.class,
                () -> v.apply(4, new DictionaryChange.CreateTable(usesGhost))).getMessage().contains("unknown type ks.ghost"));
        CqlType.UserType stale = new CqlType.UserType("ks", "address", List.of(new CqlType.Field("zip", INT)), true);
        TableDef usesStale = TableDef.create("ks", "s", 0, List.of(new ColumnSpec("id", INT), new ColumnSpec("a", stale)),
                List.of("id"), List.of(), Map.of(), TableOptions.DEFAULT);
        assertThrows(InvalidSchemaException.class, () -> v.apply(4, new DictionaryChange.CreateTable(usesStale)));
        TableDef otherKs = TableDef.create("ks2", "s", 0, List.of(new ColumnSpec("id", INT),
                new ColumnSpec("a", address.toType().withFrozen(true))), List.of("id"), List.of(), Map.of(), TableOptions.DEFAULT);
        assertTrue(assertThrows(InvalidSchemaException.class, () -> v.apply(4, new DictionaryChange.CreateTable(otherKs)))
                .getMessage().contains("another keyspace"));
    }

    @Test
    void resolvesUserTypeNamesForTheTypeParser() {
        UserTypeDef address = new UserTypeDef("ks", "address", List.of(new CqlType.Field("street", TEXT)));
        DictionaryVersion v = withKeyspaces("ks").apply(2, new DictionaryChange.CreateType(address));
        CqlType t = CqlType.parse("list<frozen<address>>", v.userTypeResolver("ks"));
        assertEquals(new CqlType.ListType(address.toType().withFrozen(true), false), t);
        assertEquals(address.toType(), CqlType.parse("ks.address", v.userTypeResolver("other")));
        assertThrows(CqlType.UnknownTypeException.class, () -> CqlType.parse("nope", v.userTypeResolver("ks")));
    }

    @Test
    void equalityIsByContent() {
        DictionaryVersion a = withKeyspaces("x", "y");
        DictionaryVersion b = withKeyspaces("y", "x");
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, a.apply(2, new DictionaryChange.DropKeyspace("x")));
        assertSame(DictionaryVersion.EMPTY, DictionaryVersion.EMPTY);
        assertTrue(a.toString().contains("scn=1"));
        assertEquals(ColumnKind.PARTITION_KEY, intTable("x", "t", 0, "k").columns().get(0).kind());
    }
}
