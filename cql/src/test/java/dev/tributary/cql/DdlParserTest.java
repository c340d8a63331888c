package dev.tributary.cql;

import static dev.tributary.cql.ParserTestSupport.i;
import static dev.tributary.cql.ParserTestSupport.parse;
import static dev.tributary.cql.ParserTestSupport.qn;
import static dev.tributary.cql.ParserTestSupport.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.ast.AddColumns;
import dev.tributary.cql.ast.AlterTable;
import dev.tributary.cql.ast.BooleanLit;
import dev.tributary.cql.ast.ColumnSpec;
import dev.tributary.cql.ast.CreateKeyspace;
import dev.tributary.cql.ast.CreateTable;
import dev.tributary.cql.ast.CreateType;
import dev.tributary.cql.ast.DropColumns;
import dev.tributary.cql.ast.DropKeyspace;
import dev.tributary.cql.ast.DropTable;
import dev.tributary.cql.ast.DropType;
import dev.tributary.cql.ast.FieldSpec;
import dev.tributary.cql.ast.MapLit;
import dev.tributary.cql.ast.Order;
import dev.tributary.cql.ast.Term;
import dev.tributary.cql.ast.Truncate;
import dev.tributary.cql.ast.Use;
import dev.tributary.cql.ast.WithProperties;
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlSyntaxException;
import dev.tributary.dictionary.types.CqlType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DdlParserTest {

    private static MapLit map(Term... kv) {
        List<MapLit.Entry> entries = new java.util.ArrayList<>();
        for (int k = 0; k < kv.length; k += 2) {
            entries.add(new MapLit.Entry(kv[k], kv[k + 1]));
        }
        return new MapLit(entries);
    }

    @Test
    void createKeyspaceWithReplicationAndTablets() {
        CreateKeyspace ks = parse("CREATE KEYSPACE IF NOT EXISTS Ks WITH replication = "
                + "{'class': 'NetworkTopologyStrategy', 'replication_factor': 3} AND TABLETS = {'enabled': false}",
                CreateKeyspace.class);
        assertTrue(ks.ifNotExists());
        assertEquals("ks", ks.name());
        assertEquals(List.of("replication", "tablets"), List.copyOf(ks.properties().keySet()));
        assertEquals(map(s("class"), s("NetworkTopologyStrategy"), s("replication_factor"), i(3)),
                ks.properties().get("replication"));
        assertEquals(map(s("enabled"), new BooleanLit(false)), ks.properties().get("tablets"));
    }

    @Test
    void databaseLinksAndAlterSystem() {
        dev.tributary.cql.ast.CreateDatabaseLink l = parse("CREATE DATABASE LINK Src USING '127.0.0.1:9160,127.0.0.1:9161'",
                dev.tributary.cql.ast.CreateDatabaseLink.class);
        assertEquals("src", l.name());
        assertEquals("127.0.0.1:9160,127.0.0.1:9161", l.using());
        assertEquals(new dev.tributary.cql.ast.DropDatabaseLink(true, "src"),
                parse("DROP DATABASE LINK IF EXISTS src", dev.tributary.cql.ast.DropDatabaseLink.class));
        assertEquals(new dev.tributary.cql.ast.AlterSystem.Set("log_archive_dest_2", "SERVICE=dst"),
                parse("ALTER SYSTEM SET LOG_ARCHIVE_DEST_2 = 'SERVICE=dst'", dev.tributary.cql.ast.AlterSystem.Set.class));
        assertEquals(new dev.tributary.cql.ast.AlterSystem.SwitchLogfile(),
                parse("alter system switch logfile;", dev.tributary.cql.ast.AlterSystem.SwitchLogfile.class));
        assertEquals(new dev.tributary.cql.ast.AlterSystem.ArchiveLogCurrent(),
                parse("ALTER SYSTEM ARCHIVE LOG CURRENT", dev.tributary.cql.ast.AlterSystem.ArchiveLogCurrent.class));
        assertEquals(new dev.tributary.cql.ast.AlterSystem.Set("archive_lag_target", "30"),
                parse("ALTER SYSTEM SET archive_lag_target = 30", dev.tributary.cql.ast.AlterSystem.Set.class));
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("CREATE DATABASE LINK x USING y"));
        assertTrue(e.getMessage().contains("the link's target in quotes"), e.getMessage());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("ALTER SYSTEM SWITCH LOG"));
        assertTrue(e.getMessage().contains("LOGFILE"), e.getMessage());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("ALTER SYSTEM ARCHIVE LOG"));
        assertTrue(e.getMessage().contains("CURRENT"), e.getMessage());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("ALTER SYSTEM SET archive_lag_target = x"));
        assertTrue(e.getMessage().contains("a number"), e.getMessage());
    }

    @Test
    void alterColumnfamilyIsAlterTable() {
        assertEquals(new AlterTable(qn("ks", "t"), new DropColumns(List.of("v"))),
                parse("ALTER COLUMNFAMILY ks.t DROP v", AlterTable.class));
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("ALTER INDEX i"));
        assertEquals("SYSTEM, ROLE, TABLE or COLUMNFAMILY", e.expected());
    }

    @Test
    void createKeyspaceNeedsWith() {
        assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("CREATE KEYSPACE ks"));
    }

    @Test
    void duplicatePropertyIsInvalid() {
        CqlInvalidException e = assertThrows(CqlInvalidException.class, () -> CqlParser.parse(
                "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'} AND replication = {}"));
        assertTrue(e.getMessage().contains("replication"), e.getMessage());
    }

    @Test
    void dropKeyspaceAndUse() {
        assertEquals(new DropKeyspace(true, "ks"), CqlParser.parse("DROP KEYSPACE IF EXISTS ks"));
        assertEquals(new DropKeyspace(false, "Ks"), CqlParser.parse("drop keyspace \"Ks\";"));
        assertEquals(new Use("ks"), CqlParser.parse("USE KS"));
    }

    @Test
    void createTableWithPrimaryKeyClause() {
        CreateTable t = parse("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) "
                + "WITH cdc = {'enabled': true}", CreateTable.class);
        assertFalse(t.ifNotExists());
        assertEquals(qn("ks", "t"), t.name());
        assertEquals(List.of(new ColumnSpec("pk", "int", false), new ColumnSpec("ck", "int", false),
                new ColumnSpec("v", "int", false)), t.columns());
        assertEquals(List.of("pk"), t.partitionKey());
        assertEquals(List.of("ck"), t.clusteringKey());
        assertEquals(Map.of("ck", Order.ASC), t.clusteringOrder());
        assertEquals(Map.of("cdc", map(s("enabled"), new BooleanLit(true))), t.properties());
    }

    @Test
    void createTableWithInlinePrimaryKey() {
        CreateTable t = parse("CREATE TABLE IF NOT EXISTS t (pk int PRIMARY KEY, v text)", CreateTable.class);
        assertTrue(t.ifNotExists());
        assertEquals(qn(null, "t"), t.name());
        assertEquals(List.of("pk"), t.partitionKey());
        assertEquals(List.of(), t.clusteringKey());
        assertEquals(Map.of(), t.clusteringOrder());
    }

    @Test
    void compositePartitionKeyClusteringOrderStaticAndProperties() {
        CreateTable t = parse("""
                CREATE TABLE ks."Events" (
                    p1 text, p2 int, c1 timestamp, c2 uuid, s text STATIC, v map<text, frozen<list<int>>>,
                    PRIMARY KEY ((p1, p2), c1, c2)
                ) WITH CLUSTERING ORDER BY (c1 DESC)
                  AND cdc = {'enabled': true, 'preimage': 'full', 'postimage': true, 'delta': 'keys', 'ttl': 86400}
                  AND tablets = {'min_tablet_count': 2}""", CreateTable.class);
        assertEquals(qn("ks", "Events"), t.name());
        assertEquals(List.of("p1", "p2"), t.partitionKey());
        assertEquals(List.of("c1", "c2"), t.clusteringKey());
        assertEquals(List.of("c1", "c2"), List.copyOf(t.clusteringOrder().keySet()));
        assertEquals(Order.DESC, t.clusteringOrder().get("c1"));
        assertEquals(Order.ASC, t.clusteringOrder().get("c2"));
        assertTrue(t.columns().get(4).isStatic());
        assertEquals("map<text, frozen<list<int>>>", t.columns().get(5).typeText());
        assertEquals(List.of("cdc", "tablets"), List.copyOf(t.properties().keySet()));
        MapLit cdc = (MapLit) t.properties().get("cdc");
        assertEquals(5, cdc.entries().size());
        assertEquals(new MapLit.Entry(s("preimage"), s("full")), cdc.entries().get(1));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "MAP < TEXT , INT >|map<text, int>",
            "frozen<set<\"MyType\">>|frozen<set<\"MyType\">>",
            "list<frozen<ks.addr>>|list<frozen<ks.addr>>",
            "\"lowercase\"|lowercase",
            "tuple<int,text>|tuple<int, text>",
            "Set<TimeUUID>|set<timeuuid>"})
    void typeTextIsNormalized(String written, String normalized) {
        CreateTable t = parse("CREATE TABLE t (pk int PRIMARY KEY, v " + written + ")", CreateTable.class);
        assertEquals(normalized, t.columns().get(1).typeText());
    }

    @Test
    void typeTextParsesWithCqlType() {
        CreateTable t = parse("CREATE TABLE t (pk int PRIMARY KEY, v MAP<Text, FROZEN<List<Int>>>)", CreateTable.class);
        CqlType type = CqlType.parse(t.columns().get(1).typeText());
        assertEquals("map<text, frozen<list<int>>>", type.cql());
    }

    @Test
    void compactStorageIsASyntaxErrorThatSaysSo() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class,
                () -> CqlParser.parse("CREATE TABLE t (pk int PRIMARY KEY, v int) WITH COMPACT STORAGE"));
        assertEquals(1, e.line());
        assertEquals(49, e.column());
        assertEquals("COMPACT", e.found());
        assertTrue(e.getMessage().contains("COMPACT STORAGE is not supported"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "CREATE TABLE t (a int, b int)|No PRIMARY KEY",
            "CREATE TABLE t (a int PRIMARY KEY, b int PRIMARY KEY)|Multiple PRIMARY KEYs",
            "CREATE TABLE t (a int PRIMARY KEY, b int, PRIMARY KEY (b))|Multiple PRIMARY KEYs",
            "CREATE TABLE t (a int, a text, PRIMARY KEY (a))|Multiple definitions of column a",
            "CREATE TABLE t (a int, PRIMARY KEY (a, x))|Unknown column x",
            "CREATE TABLE t (a int, b int, PRIMARY KEY (a, b, a))|appears more than once",
            "CREATE TABLE t (a int, b int STATIC, PRIMARY KEY (a, b))|Static column b cannot be part",
            "CREATE TABLE t (a int PRIMARY KEY, s int STATIC)|only allowed in tables with clustering columns",
            "CREATE TABLE t (a int, b int, v int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (v DESC)|v is not a clustering column",
            "CREATE TABLE t (a int, b int, c int, PRIMARY KEY (a, b, c)) WITH CLUSTERING ORDER BY (c DESC)|must match",
            "CREATE TABLE t (a int, b int, c int, PRIMARY KEY (a, b, c)) WITH CLUSTERING ORDER BY (c DESC, b ASC)|must match",
            "CREATE TABLE t (a int, b int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (b DESC) AND CLUSTERING ORDER BY (b ASC)|given twice",
            "CREATE TABLE t (a int, b int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (b DESC, b ASC)|appears twice",
            "CREATE TABLE t (a int PRIMARY KEY) WITH cdc = {} AND cdc = {}|Multiple definitions for property cdc"})
    void nonsenseTablesAreInvalid(String statement, String messagePart) {
        CqlInvalidException e = assertThrows(CqlInvalidException.class, () -> CqlParser.parse(statement));
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
        assertTrue(e.getMessage().contains("CREATE TABLE t"), e.getMessage());
    }

    @Test
    void createAndDropType() {
        CreateType ct = parse("CREATE TYPE IF NOT EXISTS ks.address (street text, zip int, tags set<text>)",
                CreateType.class);
        assertTrue(ct.ifNotExists());
        assertEquals(qn("ks", "address"), ct.name());
        assertEquals(List.of(new FieldSpec("street", "text"), new FieldSpec("zip", "int"),
                new FieldSpec("tags", "set<text>")), ct.fields());
        assertThrows(CqlInvalidException.class, () -> CqlParser.parse("CREATE TYPE a (x int, x text)"));
        assertEquals(new DropType(true, qn("ks", "address")), CqlParser.parse("DROP TYPE IF EXISTS ks.address"));
        assertEquals(new DropType(false, qn(null, "address")), CqlParser.parse("DROP TYPE address"));
    }

    @Test
    void alterTableAdd() {
        AlterTable a = parse("ALTER TABLE ks.t ADD extra text", AlterTable.class);
        assertEquals(qn("ks", "t"), a.name());
        assertEquals(new AddColumns(List.of(new ColumnSpec("extra", "text", false))), a.action());
        AlterTable many = parse("ALTER TABLE ks.t ADD (a int, b list<int>, s text static)", AlterTable.class);
        assertEquals(new AddColumns(List.of(new ColumnSpec("a", "int", false), new ColumnSpec("b", "list<int>", false),
                new ColumnSpec("s", "text", true))), many.action());
        assertThrows(CqlInvalidException.class, () -> CqlParser.parse("ALTER TABLE t ADD (a int, a text)"));
    }

    @Test
    void alterTableDrop() {
        assertEquals(new DropColumns(List.of("v")), parse("ALTER TABLE t DROP v", AlterTable.class).action());
        assertEquals(new DropColumns(List.of("v", "w")), parse("ALTER TABLE t DROP (v, w)", AlterTable.class).action());
        assertThrows(CqlInvalidException.class, () -> CqlParser.parse("ALTER TABLE t DROP (v, v)"));
    }

    @Test
    void alterTableWith() {
        AlterTable a = parse("ALTER TABLE ks.t WITH tablets={'min_tablet_count':4}", AlterTable.class);
        assertEquals(new WithProperties(Map.of("tablets", map(s("min_tablet_count"), i(4)))), a.action());
        AlterTable cdc = parse("ALTER TABLE ks.t WITH cdc = {'enabled': false} AND tablets = {'min_tablet_count': 8}",
                AlterTable.class);
        assertEquals(2, ((WithProperties) cdc.action()).properties().size());
    }

    @Test
    void alterTableRefusesOtherActions() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class,
                () -> CqlParser.parse("ALTER TABLE t RENAME a TO b"));
        assertEquals("RENAME", e.found());
        assertEquals("ADD, DROP or WITH", e.expected());
    }

    @Test
    void dropTableAndTruncate() {
        assertEquals(new DropTable(true, qn("ks", "t")), CqlParser.parse("DROP TABLE IF EXISTS ks.t"));
        assertEquals(new DropTable(false, qn(null, "t")), CqlParser.parse("DROP TABLE t"));
        assertEquals(new Truncate(qn("ks", "t")), CqlParser.parse("TRUNCATE ks.t"));
        assertEquals(new Truncate(qn("ks", "t")), CqlParser.parse("TRUNCATE TABLE ks.t;"));
    }

    @Test
    void createOfSomethingElseIsASyntaxError() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class,
                () -> CqlParser.parse("CREATE INDEX i ON t (v)"));
        assertEquals("INDEX", e.found());
        assertEquals("KEYSPACE, TABLE, COLUMNFAMILY, DATABASE, TYPE or ROLE", e.expected());
    }
}
