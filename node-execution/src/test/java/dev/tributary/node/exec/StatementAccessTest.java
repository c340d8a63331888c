package dev.tributary.node.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.cql.CqlParser;
import dev.tributary.cql.ast.RoleStatement.Permission;
import dev.tributary.node.auth.AuthResource;
import dev.tributary.node.auth.Principal;
import dev.tributary.rules.StreamsRuleRow;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What each statement needs of the role that runs it (the policy alone, no node). */
class StatementAccessTest {
    private static final SessionContext IN_KS = new SessionContext("ks", null, "alice", 1, Principal.role("alice"));

    private static StreamsRuleRow rule(String set, String type, String schema, String object) {
        return new StreamsRuleRow("CAPTURE", "cap", "T", "RS", "T", "R", "DML", set, type, schema, object, null, null, "NO",
                "SRC", "cond", null, null);
    }

    private static final Map<String, List<StreamsRuleRow>> QUEUES = Map.of(
            "tables", List.of(rule("POSITIVE", "TABLE", "KS", "T"), rule("POSITIVE", "SCHEMA", "other", null),
                    rule("NEGATIVE", "GLOBAL", null, null)),
            "everything", List.of(rule("POSITIVE", "TABLE", "ks", "t"), rule("POSITIVE", "GLOBAL", null, null)),
            "custom", List.of(rule("POSITIVE", null, null, null)));

    private final StatementAccess access = new StatementAccess(null, q -> QUEUES.getOrDefault(q, List.of()));

    private String needs(String statement) {
        return access.needs(CqlParser.parse(statement), IN_KS).stream()
                .map(n -> n.permission() == null ? "SUPERUSER" : n.permission() + " " + n.resource())
                .collect(Collectors.joining(", "));
    }

    @Test
    @DisplayName("reads need SELECT on the table; a CDC log's readers on its base table; system tables are open, "
            + "system_auth for superusers")
    void reads() {
        assertEquals("SELECT <table ks.t>", needs("SELECT * FROM t"));
        assertEquals("SELECT <table ks.t>", needs("SELECT * FROM ks.t_scylla_cdc_log"));
        assertEquals("SELECT <table o.x>", needs("SELECT count(*) FROM o.x WHERE pk = 1"));
        assertEquals("", needs("SELECT * FROM system.local"));
        assertEquals("", needs("SELECT * FROM system_schema.tables"));
        assertEquals("SUPERUSER", needs("SELECT * FROM system_auth.roles"));
    }

    @Test
    @DisplayName("a queue's readers need SELECT on what its captures' positive rules name: tables, keyspaces, or every "
            + "keyspace for a global or custom rule, or a queue no capture feeds")
    void queues() {
        assertEquals("SELECT <table ks.t>, SELECT <keyspace other>", needs("SELECT * FROM system_queues.tables"));
        assertEquals("SELECT <all keyspaces>", needs("SELECT * FROM system_queues.everything"));
        assertEquals("SELECT <all keyspaces>", needs("SELECT * FROM system_queues.custom"));
        assertEquals("SELECT <all keyspaces>", needs("SELECT * FROM system_queues.orphan"));
    }

    @Test
    @DisplayName("CAP-PRIV-1: a capture's or apply's user needs SELECT on what its queue's rules capture: what it lacks, in the rules' "
            + "order; a grant on the keyspace covers its tables, and a superuser lacks nothing")
    void processUsers() {
        assertEquals(List.of(AuthResource.table("ks", "t"), AuthResource.keyspace("other")),
                access.missingForProcessUser("tables", r -> false));
        assertEquals(List.of(AuthResource.keyspace("other")), access.missingForProcessUser("tables",
                r -> r.lineage().contains(AuthResource.keyspace("ks"))), "SELECT on keyspace ks covers ks.t");
        assertEquals(List.of(AuthResource.ALL_KEYSPACES), access.missingForProcessUser("everything",
                r -> !r.equals(AuthResource.ALL_KEYSPACES)), "a global rule needs every keyspace");
        assertEquals(List.of(), access.missingForProcessUser("everything", r -> true));
    }

    @Test
    @DisplayName("writes need MODIFY on every table they touch; schema changes CREATE, ALTER or DROP on their object")
    void writesAndSchema() {
        assertEquals("MODIFY <table ks.t>", needs("INSERT INTO t (pk) VALUES (1)"));
        assertEquals("MODIFY <table ks.a>, MODIFY <table o.b>",
                needs("BEGIN BATCH INSERT INTO a (pk) VALUES (1); DELETE FROM o.b WHERE pk = 1; APPLY BATCH"));
        assertEquals("MODIFY <table ks.t>", needs("TRUNCATE t"));
        assertEquals("CREATE <all keyspaces>", needs("CREATE KEYSPACE k2 WITH replication = {'class': 'SimpleStrategy', "
                + "'replication_factor': 1}"));
        assertEquals("DROP <keyspace k2>", needs("DROP KEYSPACE k2"));
        assertEquals("CREATE <keyspace ks>", needs("CREATE TABLE t2 (pk int PRIMARY KEY)"));
        assertEquals("ALTER <table ks.t>", needs("ALTER TABLE t ADD v int"));
        assertEquals("DROP <table ks.t>", needs("DROP TABLE t"));
        assertEquals("", needs("USE ks"));
    }

    @Test
    @DisplayName("X3: log tables and system keyspaces are altered, dropped and truncated by superusers alone, as are "
            + "database links, ALTER SYSTEM and cluster operations")
    void superuserOnly() {
        for (String s : List.of("DROP TABLE ks.t_scylla_cdc_log", "ALTER TABLE t_scylla_cdc_log WITH comment = 'x'",
                "TRUNCATE t_scylla_cdc_log", "DROP TABLE system_auth.roles", "ALTER TABLE system.local ADD x int",
                "CREATE DATABASE LINK l USING 'h:1'", "DROP DATABASE LINK l", "ALTER SYSTEM SWITCH LOGFILE", "ALTER SYSTEM ARCHIVE LOG CURRENT",
                "ALTER SYSTEM SET log_archive_dest_1 = 'SERVICE=l'", "CALL system.decommission()",
                "CALL dbms_system.restricted_session(enabled => true)")) {
            assertEquals("SUPERUSER", needs(s), s);
        }
    }

    @Test
    @DisplayName("administration procedures need ALTER on the table or keyspace they name, else on every keyspace; "
            + "set_tag needs nothing")
    void procedures() {
        assertEquals("ALTER <table ks.t>", needs("CALL dbms_streams_adm.add_table_rules(table_name => 'KS.T', "
                + "streams_type => 'capture', streams_name => 'c', queue_name => 'q')"));
        assertEquals("ALTER <keyspace ks>", needs("CALL dbms_streams_adm.add_schema_rules(schema_name => 'ks', "
                + "streams_type => 'capture', streams_name => 'c', queue_name => 'q')"));
        assertEquals("ALTER <table ks.t>", needs("CALL dbms_capture_adm.prepare_table_instantiation(table_name => 'ks.t')"));
        assertEquals("ALTER <all keyspaces>", needs("CALL dbms_capture_adm.start_capture(capture_name => 'c')"));
        assertEquals("ALTER <all keyspaces>", needs("CALL dbms_streams_adm.set_up_queue(queue_name => 'q')"));
        assertEquals("", needs("CALL dbms_streams.set_tag(tag => 0x1d)"));
        assertEquals(Permission.ALTER, access.needs(CqlParser.parse("CALL dbms_rule_adm.create_rule_set("
                + "rule_set_name => 'rs')"), IN_KS).get(0).permission());
        assertEquals(AuthResource.ALL_KEYSPACES, access.needs(CqlParser.parse("CALL dbms_rule_adm.create_rule_set("
                + "rule_set_name => 'rs')"), IN_KS).get(0).resource());
    }
}
