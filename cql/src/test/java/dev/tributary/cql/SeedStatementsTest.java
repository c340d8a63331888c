package dev.tributary.cql;

import static dev.tributary.cql.ParserTestSupport.i;
import static dev.tributary.cql.ParserTestSupport.parse;
import static dev.tributary.cql.ParserTestSupport.qn;
import static dev.tributary.cql.ParserTestSupport.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.ast.AlterTable;
import dev.tributary.cql.ast.BooleanLit;
import dev.tributary.cql.ast.ColumnLhs;
import dev.tributary.cql.ast.ColumnSelector;
import dev.tributary.cql.ast.CreateKeyspace;
import dev.tributary.cql.ast.CreateTable;
import dev.tributary.cql.ast.Insert;
import dev.tributary.cql.ast.MapLit;
import dev.tributary.cql.ast.Operator;
import dev.tributary.cql.ast.Order;
import dev.tributary.cql.ast.ParsedStatement;
import dev.tributary.cql.ast.Relation;
import dev.tributary.cql.ast.Select;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.Using;
import dev.tributary.cql.ast.WithProperties;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every statement of the CDC seed (seeds/004_2c97c9c2715f1c22.txt) and the forms INTERFACE.md
 * section 3 and 4 name parse to the expected statements. Parsing is only the language's share of
 * these behaviours; the node's tests prove the rest.
 */
class SeedStatementsTest {

    private static final MapLit CDC_ENABLED = new MapLit(List.of(new MapLit.Entry(s("enabled"), new BooleanLit(true))));

    @Test
    @DisplayName("CDC-GEN-5: the statements of the generation tables parse")
    void generationTimestampQuery() {
        Select sel = parse("SELECT time FROM system_distributed.cdc_generation_timestamps WHERE key = 'timestamps';",
                Select.class);
        assertEquals(List.of(ColumnSelector.of("time")), sel.selectors());
        assertEquals(qn("system_distributed", "cdc_generation_timestamps"), sel.from());
        assertEquals(List.of(new Relation(new ColumnLhs("key"), Operator.EQ, s("timestamps"))), sel.where());
        CreateTable t = parse("CREATE TABLE system_distributed.cdc_generation_timestamps (key text, time timestamp, "
                + "expired timestamp, PRIMARY KEY (key, time)) WITH CLUSTERING ORDER BY (time DESC)", CreateTable.class);
        assertEquals(List.of("key"), t.partitionKey());
        assertEquals(Map.of("time", Order.DESC), t.clusteringOrder());
        CreateTable streams = parse("CREATE TABLE system_distributed.cdc_streams_descriptions_v2 (time timestamp, "
                + "range_end bigint, streams frozen<set<blob>>, PRIMARY KEY (time, range_end))", CreateTable.class);
        assertEquals("frozen<set<blob>>", streams.columns().get(2).typeText());
    }

    @Test
    @DisplayName("CDC-GEN-7: the statements of the Next Generation walkthrough parse")
    void nextGenerationWalkthrough() {
        List<ParsedStatement> script = CqlParser.parseScript("""
                CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}; INSERT INTO ks.t (pk, ck, v) values (0,0,0);
                SELECT time FROM system_distributed.cdc_generation_timestamps WHERE key = 'timestamps';
                SELECT totimestamp(now()) FROM system.local;
                INSERT INTO ks.t (pk, ck, v) values (0,0,0);
                SELECT "cdc$stream_id", pk FROM ks.t_scylla_cdc_log;
                """);
        assertEquals(6, script.size());
        CreateTable t = assertInstanceOf(CreateTable.class, script.get(0).statement());
        assertEquals(Map.of("cdc", CDC_ENABLED), t.properties());
        assertEquals(new Insert(qn("ks", "t"), List.of("pk", "ck", "v"), List.of(i(0), i(0), i(0)), false, Using.NONE),
                script.get(1).statement());
        assertEquals(1, script.get(1).line());
        Select now = assertInstanceOf(Select.class, script.get(3).statement());
        assertEquals("system.totimestamp(system.now())", now.selectors().get(0).displayName());
        Select log = assertInstanceOf(Select.class, script.get(5).statement());
        assertEquals(List.of("cdc$stream_id", "pk"), log.selectors().stream().map(x -> x.displayName()).toList());
    }

    @Test
    @DisplayName("CDC-GEN-10: the keyspace, table and insert of the 'could not find any CDC stream' example parse")
    void firstGenerationExample() {
        CreateKeyspace ks = parse("CREATE KEYSPACE ks WITH replication = {'class':'NetworkTopologyStrategy', "
                + "'replication_factor': 3};", CreateKeyspace.class);
        assertEquals(new MapLit(List.of(new MapLit.Entry(s("class"), s("NetworkTopologyStrategy")),
                new MapLit.Entry(s("replication_factor"), i(3)))), ks.properties().get("replication"));
        parse("INSERT INTO ks.t (pk, ck, v) values (0, 0, 0);", Insert.class);
    }

    @Test
    @DisplayName("CDC-TAB-4: the statements of the Tablet Split walkthrough parse")
    void tabletSplitWalkthrough() {
        List<ParsedStatement> script = CqlParser.parseScript("""
                CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true} AND tablets = {'min_tablet_count': 2}; INSERT INTO ks.t (pk, ck, v) values (0,0,0);
                SELECT * FROM system.cdc_timestamps;
                SELECT * FROM system.cdc_streams;
                SELECT "cdc$stream_id", pk FROM ks.t_scylla_cdc_log;
                ALTER TABLE ks.t WITH tablets={'min_tablet_count':4};
                """);
        assertEquals(6, script.size());
        CreateTable t = assertInstanceOf(CreateTable.class, script.get(0).statement());
        assertEquals(List.of("cdc", "tablets"), List.copyOf(t.properties().keySet()));
        assertEquals(new MapLit(List.of(new MapLit.Entry(s("min_tablet_count"), i(2)))), t.properties().get("tablets"));
        assertTrue(((Select) script.get(2).statement()).selectsAll());
        AlterTable alter = assertInstanceOf(AlterTable.class, script.get(5).statement());
        assertEquals(new WithProperties(Map.of("tablets", new MapLit(List.of(new MapLit.Entry(s("min_tablet_count"), i(4)))))),
                alter.action());
    }

    @Test
    void interfaceSectionThreeForms() {
        List<String> statements = List.of(
                "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} "
                        + "AND tablets = {'enabled': true}",
                "DROP KEYSPACE ks",
                "USE ks",
                "CREATE TABLE IF NOT EXISTS ks.t (pk int, ck int, v text, PRIMARY KEY ((pk), ck)) WITH cdc = "
                        + "{'enabled': true, 'preimage': false, 'postimage': true, 'delta': 'full', 'ttl': 86400} "
                        + "AND tablets = {'min_tablet_count': 4}",
                "ALTER TABLE ks.t ADD extra text",
                "ALTER TABLE ks.t DROP extra",
                "ALTER TABLE ks.t WITH cdc = {'enabled': false}",
                "DROP TABLE ks.t",
                "TRUNCATE ks.t",
                "INSERT INTO ks.t (pk, ck, v) VALUES (1, 2, 'x') USING TIMESTAMP 1585140283006000 USING TTL 60",
                "UPDATE ks.t USING TTL 30 SET v = 'y' WHERE pk = 1 AND ck = 2",
                "DELETE v FROM ks.t WHERE pk = 1 AND ck >= 2",
                "BEGIN BATCH INSERT INTO ks.t (pk, ck, v) VALUES (1, 1, 'a'); UPDATE ks.t SET v = 'b' WHERE pk = 1 AND ck = 2; "
                        + "APPLY BATCH",
                "SELECT DISTINCT pk FROM ks.t",
                "SELECT pk, ck, v AS value, token(pk), writetime(v), totimestamp(now()) FROM ks.t WHERE pk = 1 "
                        + "ORDER BY ck DESC LIMIT 10 ALLOW FILTERING",
                "CREATE TYPE ks.address (street text, zip int)",
                "CALL dbms_capture_adm.create_capture(queue_name => 'strm01_queue', capture_name => 'strm01_capture', "
                        + "rule_set_name => NULL, start_scn => NULL, source_database => NULL, first_scn => NULL)",
                "CALL dbms_capture_adm.set_parameter(capture_name => 'strm01_capture', parameter => 'parallelism', "
                        + "value => '3')",
                "CALL dbms_streams_adm.add_subset_rules(table_name => 'hr.departments', dml_condition => "
                        + "'department_id = 50', streams_type => 'capture')",
                "CALL dbms_streams.set_tag(tag => 0x1d)",
                "CALL dbms_capture_adm.build()");
        for (String text : statements) {
            Statement st = CqlParser.parse(text);
            assertEquals(st, CqlParser.parse(text + ";"), text);
        }
        Insert ins = parse(statements.get(9), Insert.class);
        assertEquals(new Using(i(1585140283006000L), i(60)), ins.using());
    }
}
