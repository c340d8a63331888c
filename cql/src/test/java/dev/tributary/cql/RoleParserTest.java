package dev.tributary.cql;

import static dev.tributary.cql.ParserTestSupport.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tributary.cql.ast.CreateDatabaseLink;
import dev.tributary.cql.ast.ParsedStatement;
import dev.tributary.cql.ast.RoleStatement;
import dev.tributary.cql.ast.RoleStatement.AlterRole;
import dev.tributary.cql.ast.RoleStatement.CreateRole;
import dev.tributary.cql.ast.RoleStatement.DropRole;
import dev.tributary.cql.ast.RoleStatement.Grant;
import dev.tributary.cql.ast.RoleStatement.ListPermissions;
import dev.tributary.cql.ast.RoleStatement.ListRoles;
import dev.tributary.cql.ast.RoleStatement.Permission;
import dev.tributary.cql.ast.RoleStatement.Resource;
import dev.tributary.cql.ast.RoleStatement.Revoke;
import dev.tributary.cql.ast.RoleStatement.RoleOptions;
import dev.tributary.cql.errors.CqlException;
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlSyntaxException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Role and permission statements (Cassandra's), and database-link credentials. */
class RoleParserTest {
    private static final String CANARY = "canary-7f3e";
    private static final Set<Permission> ALL = EnumSet.allOf(Permission.class);

    // ---------------------------------------------------------------- CREATE / ALTER / DROP ROLE

    @Test
    void createRoleWithoutOptionsLeavesEveryOptionUnset() {
        CreateRole r = parse("CREATE ROLE analyst", CreateRole.class);
        assertEquals(new CreateRole(false, "analyst", RoleOptions.NONE), r);
        assertNull(r.options().password());
        assertNull(r.options().login());
        assertNull(r.options().superuser());
    }

    @Test
    void createRoleWithEveryOption() {
        CreateRole r = parse("CREATE ROLE IF NOT EXISTS analyst WITH PASSWORD = 'pw''1' AND LOGIN = true "
                + "AND SUPERUSER = false;", CreateRole.class);
        assertTrue(r.ifNotExists());
        assertEquals("analyst", r.name());
        assertEquals(new RoleOptions("pw'1", true, false), r.options());
    }

    @Test
    void optionsMayComeInAnyOrderAndEachIsOptional() {
        assertEquals(new RoleOptions(null, null, true),
                parse("CREATE ROLE r WITH SUPERUSER = true", CreateRole.class).options());
        assertEquals(new RoleOptions("x", false, null),
                parse("CREATE ROLE r WITH LOGIN = false AND PASSWORD = 'x'", CreateRole.class).options());
        assertEquals(new RoleOptions("it's", null, null),
                parse("CREATE ROLE r WITH PASSWORD = $$it's$$", CreateRole.class).options());
    }

    @Test
    void keywordsAreCaseInsensitiveAndNamesAreLowercasedUnlessQuoted() {
        assertEquals(new CreateRole(true, "analyst", new RoleOptions("Pw", true, null)),
                parse("create role if not exists Analyst with password = 'Pw' and login = TRUE", CreateRole.class));
        assertEquals(new CreateRole(false, "Analyst", RoleOptions.NONE), parse("CrEaTe RoLe \"Analyst\"", CreateRole.class));
        assertEquals(new DropRole(false, "Analyst"), parse("drop role \"Analyst\"", DropRole.class));
        assertEquals(new AlterRole("analyst", new RoleOptions(null, null, false)),
                parse("Alter Role ANALYST With Superuser = False", AlterRole.class));
    }

    @Test
    void aRoleNameMayBeAStringLiteralKeptAsWritten() {
        assertEquals(new CreateRole(false, "Bob Smith", RoleOptions.NONE), parse("CREATE ROLE 'Bob Smith'", CreateRole.class));
        assertEquals(new DropRole(true, "it's"), parse("DROP ROLE IF EXISTS 'it''s'", DropRole.class));
        assertEquals(new Grant(Set.of(Permission.SELECT), Resource.keyspace("ks"), "Bob"),
                parse("GRANT SELECT ON KEYSPACE ks TO 'Bob'", Grant.class));
        CqlInvalidException e = assertThrows(CqlInvalidException.class, () -> CqlParser.parse("CREATE ROLE ''"));
        assertTrue(e.getMessage().contains("empty"), e.getMessage());
    }

    @Test
    void aReservedWordAsRoleNameIsRefusedWithAHint() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("CREATE ROLE select"));
        assertEquals("IF NOT EXISTS or a role name", e.expected());
        assertTrue(e.getMessage().contains("double-quote"), e.getMessage());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("GRANT ALL ON ks.t TO select"));
        assertEquals("a role name", e.expected());
        assertTrue(e.getMessage().contains("double-quote"), e.getMessage());
        assertEquals(new CreateRole(false, "select", RoleOptions.NONE), parse("CREATE ROLE \"select\"", CreateRole.class));
    }

    @Test
    void alterRole() {
        assertEquals(new AlterRole("r", new RoleOptions("new", true, true)),
                parse("ALTER ROLE r WITH PASSWORD = 'new' AND LOGIN = true AND SUPERUSER = true", AlterRole.class));
        assertEquals(new AlterRole("r", new RoleOptions(null, false, null)), parse("ALTER ROLE r WITH LOGIN = false", AlterRole.class));
    }

    @Test
    void alterRoleNeedsAnOption() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("ALTER ROLE r"));
        assertEquals("line 1:13 unexpected <EOF>, expected WITH", e.getMessage());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("ALTER ROLE r WITH"));
        assertEquals("PASSWORD, LOGIN or SUPERUSER", e.expected());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("ALTER ROLE r WITH OPTIONS = {}"));
        assertEquals("OPTIONS", e.found());
        assertEquals("PASSWORD, LOGIN or SUPERUSER", e.expected());
    }

    @Test
    void dropRole() {
        assertEquals(new DropRole(false, "r"), parse("DROP ROLE r", DropRole.class));
        assertEquals(new DropRole(true, "r"), parse("drop role if exists R;", DropRole.class));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PASSWORD", "LOGIN", "SUPERUSER"})
    void aRepeatedOptionIsInvalidAndNamed(String option) {
        String value = option.equals("PASSWORD") ? "'a'" : "true";
        String other = option.equals("PASSWORD") ? "'b'" : "false";
        for (String verb : List.of("CREATE", "ALTER")) {
            String text = verb + " ROLE r WITH " + option + " = " + value + " AND " + option + " = " + other;
            CqlInvalidException e = assertThrows(CqlInvalidException.class, () -> CqlParser.parse(text));
            assertEquals("Multiple definitions for property " + option.toLowerCase() + " in " + verb + " ROLE r",
                    e.getMessage());
        }
    }

    @Test
    void optionValuesAreChecked() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("CREATE ROLE r WITH LOGIN = 'yes'"));
        assertEquals("true or false", e.expected());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("CREATE ROLE r WITH PASSWORD = 42"));
        assertEquals("the password in quotes", e.expected());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("CREATE ROLE r WITH LOGIN true"));
        assertEquals("'='", e.expected());
    }

    // ---------------------------------------------------------------- GRANT / REVOKE

    @Test
    void grantOnEachResourceForm() {
        assertEquals(new Grant(Set.of(Permission.SELECT), Resource.allKeyspaces(), "r"),
                parse("GRANT SELECT ON ALL KEYSPACES TO r", Grant.class));
        assertEquals(new Grant(Set.of(Permission.MODIFY), Resource.keyspace("ks"), "r"),
                parse("GRANT MODIFY ON KEYSPACE ks TO r", Grant.class));
        assertEquals(new Grant(Set.of(Permission.ALTER), Resource.table("ks", "t"), "r"),
                parse("GRANT ALTER ON TABLE ks.t TO r", Grant.class));
        assertEquals(new Grant(Set.of(Permission.DROP), Resource.table(null, "t"), "r"),
                parse("GRANT DROP ON TABLE t TO r", Grant.class));
        assertEquals(new Grant(Set.of(Permission.CREATE), Resource.table("ks", "t"), "r"),
                parse("GRANT CREATE ON ks.t TO r", Grant.class));
        Grant bare = parse("GRANT AUTHORIZE ON t TO r", Grant.class);
        assertEquals(Resource.table(null, "t"), bare.resource());
        assertNull(bare.resource().keyspace());
        // a table named "all" is a table, not ALL KEYSPACES
        assertEquals(Resource.table(null, "all"), parse("GRANT SELECT ON all TO r", Grant.class).resource());
        assertEquals(Resource.table("KS", "T"), parse("GRANT SELECT ON \"KS\".\"T\" TO r", Grant.class).resource());
    }

    @Test
    void allPermissionsIsEveryPermission() {
        assertEquals(new Grant(ALL, Resource.keyspace("ks"), "r"), parse("GRANT ALL ON KEYSPACE ks TO r", Grant.class));
        assertEquals(new Grant(ALL, Resource.allKeyspaces(), "r"),
                parse("grant all permissions on all keyspaces to r", Grant.class));
        assertEquals(new Revoke(ALL, Resource.table("ks", "t"), "r"),
                parse("REVOKE ALL PERMISSIONS ON ks.t FROM r", Revoke.class));
    }

    @Test
    void permissionListsAndThePermissionWord() {
        assertEquals(new Grant(Set.of(Permission.SELECT), Resource.keyspace("ks"), "r"),
                parse("GRANT SELECT PERMISSION ON KEYSPACE ks TO r", Grant.class));
        assertEquals(new Grant(Set.of(Permission.SELECT, Permission.MODIFY, Permission.CREATE), Resource.keyspace("ks"), "r"),
                parse("GRANT select, Modify PERMISSION, CREATE ON KEYSPACE ks TO r", Grant.class));
        assertEquals(new Revoke(Set.of(Permission.AUTHORIZE, Permission.DROP), Resource.allKeyspaces(), "Ops"),
                parse("revoke authorize permission, drop on all keyspaces from \"Ops\";", Revoke.class));
    }

    @Test
    void grantAndRevokeARole() {
        assertEquals(new RoleStatement.GrantRole("readers", "alice"),
                parse("GRANT readers TO alice", RoleStatement.GrantRole.class));
        assertEquals(new RoleStatement.GrantRole("Ops", "bob"), parse("grant \"Ops\" to 'bob';", RoleStatement.GrantRole.class));
        assertEquals(new RoleStatement.RevokeRole("readers", "alice"),
                parse("REVOKE readers FROM alice", RoleStatement.RevokeRole.class));
        // GRANT ... FROM is neither form: the permission path says what it expected
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("GRANT readers FROM alice"));
        assertEquals("readers", e.found(), e.getMessage());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("GRANT readers TO"));
        assertTrue(e.getMessage().contains("a role name"), e.getMessage());
    }

    @Test
    void grantNeedsTo() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("GRANT SELECT ON ks.t r"));
        assertEquals("r", e.found());
        assertEquals("TO", e.expected());
        assertEquals("line 1:22 unexpected 'r', expected TO", e.getMessage());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("REVOKE SELECT ON ks.t TO r"));
        assertEquals("FROM", e.expected());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("GRANT SELECT TO r"));
        assertEquals("PERMISSION, ',' or ON", e.expected());
    }

    @Test
    void anUnknownPermissionIsRefusedListingTheKnownOnes() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("GRANT EXECUTE ON ks.t TO r"));
        assertEquals("EXECUTE", e.found());
        assertEquals("ALL, CREATE, ALTER, DROP, SELECT, MODIFY or AUTHORIZE", e.expected());
        assertEquals("line 1:7 unexpected 'EXECUTE', expected ALL, CREATE, ALTER, DROP, SELECT, MODIFY or AUTHORIZE "
                + "(EXECUTE is not a known permission)", e.getMessage());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("GRANT SELECT, READ ON ks.t TO r"));
        assertEquals("READ", e.found());
        assertEquals("CREATE, ALTER, DROP, SELECT, MODIFY or AUTHORIZE", e.expected());
    }

    @Test
    void aResourceIsRequired() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("GRANT SELECT ON TO r"));
        assertEquals("ALL KEYSPACES, KEYSPACE, TABLE or a table name", e.expected());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("GRANT SELECT ON KEYSPACE TO r"));
        assertEquals("an identifier", e.expected());
    }

    // ---------------------------------------------------------------- LIST

    @Test
    void listRoles() {
        assertEquals(new ListRoles(null), parse("LIST ROLES", ListRoles.class));
        assertEquals(new ListRoles("r"), parse("list roles of R", ListRoles.class));
        assertEquals(new ListRoles("R", false), parse("LIST ROLES OF \"R\" NORECURSIVE;", ListRoles.class));
        assertEquals(new ListRoles(null, false), parse("LIST ROLES NORECURSIVE", ListRoles.class));
        assertEquals(new ListRoles("Bob"), parse("LIST ROLES OF 'Bob'", ListRoles.class));
    }

    @Test
    void listAllPermissions() {
        assertEquals(new ListPermissions(ALL, null, null), parse("LIST ALL", ListPermissions.class));
        assertEquals(new ListPermissions(ALL, null, null), parse("LIST ALL PERMISSIONS", ListPermissions.class));
        assertEquals(new ListPermissions(ALL, Resource.keyspace("ks"), "r", false),
                parse("list all permissions on keyspace ks of r norecursive", ListPermissions.class));
        assertEquals(new ListPermissions(ALL, null, "r"), parse("LIST ALL OF r", ListPermissions.class));
        assertEquals(new ListPermissions(ALL, Resource.allKeyspaces(), null, false),
                parse("LIST ALL PERMISSIONS ON ALL KEYSPACES NORECURSIVE", ListPermissions.class));
    }

    @Test
    void listNamedPermissions() {
        assertEquals(new ListPermissions(Set.of(Permission.SELECT), Resource.table(null, "t"), null),
                parse("LIST SELECT ON t", ListPermissions.class));
        assertEquals(new ListPermissions(Set.of(Permission.SELECT, Permission.MODIFY), Resource.table("ks", "t"), "r"),
                parse("LIST SELECT PERMISSION, MODIFY ON TABLE ks.t OF r", ListPermissions.class));
        assertEquals(new ListPermissions(Set.of(Permission.AUTHORIZE), null, "r", false),
                parse("LIST AUTHORIZE OF r NORECURSIVE", ListPermissions.class));
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("LIST USERS"));
        assertEquals("ROLES, ALL, CREATE, ALTER, DROP, SELECT, MODIFY or AUTHORIZE", e.expected());
    }

    // ---------------------------------------------------------------- database links

    @Test
    void databaseLinkCredentials() {
        CreateDatabaseLink l = parse("CREATE DATABASE LINK Src CONNECT TO Replicator IDENTIFIED BY 'S3cret' USING 'h:1'",
                CreateDatabaseLink.class);
        assertEquals(new CreateDatabaseLink("src", "h:1", "replicator", "S3cret"), l);
        assertEquals(new CreateDatabaseLink("src", "jdbc:postgresql://h/db", "Rep", "x"),
                parse("create database link src connect to \"Rep\" identified by 'x' using 'jdbc:postgresql://h/db'",
                        CreateDatabaseLink.class));
        CreateDatabaseLink plain = parse("CREATE DATABASE LINK src USING 'h:1'", CreateDatabaseLink.class);
        assertNull(plain.user());
        assertNull(plain.password());
        assertFalse(l.toString().contains("S3cret"), l.toString());
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class,
                () -> CqlParser.parse("CREATE DATABASE LINK src CONNECT TO u USING 'h:1'"));
        assertEquals("IDENTIFIED BY", e.expected());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("CREATE DATABASE LINK src 'h:1'"));
        assertEquals("CONNECT TO or USING", e.expected());
    }

    // ---------------------------------------------------------------- secrets

    @ParameterizedTest
    @ValueSource(strings = {
            "CREATE ROLE r WITH PASSWORD 'canary-7f3e'",
            "CREATE ROLE r WITH PASSWORD = 'canary-7f3e' AND LOGIN = maybe",
            "CREATE ROLE r WITH PASSWORD = 'canary-7f3e' AND LOGIN = 'canary-7f3e'",
            "CREATE ROLE r WITH LOGIN = 'canary-7f3e'",
            "CREATE ROLE r WITH PASSWORD = 'x' 'canary-7f3e'",
            "CREATE ROLE r WITH PASSWORD = 'x' AND 'canary-7f3e'",
            "CREATE ROLE r WITH PASSWORD = 'x' AND PASSWORD = 'canary-7f3e'",
            "CREATE ROLE r WITH PASSWORD = 'canary-7f3e' AND PASSWORD = 'canary-7f3e'",
            "CREATE ROLE r WITH PASSWORD = canary-7f3e",
            "CREATE ROLE r WITH PASSWORD = 7f3e-canary-7f3e",
            "CREATE ROLE r WITH PASSWORD = 'canary-7f3e",
            "CREATE ROLE r WITH PASSWORD = $$canary-7f3e",
            "CREATE ROLE r WITH PASSWORD = \"canary-7f3e",
            "CREATE ROLE \"r WITH PASSWORD = 'canary-7f3e'",
            "CREATE ROLE r WITH PASSWORD = 'canary-7f3e' LOGIN = true",
            "ALTER ROLE r WITH PASSWORD = 'canary-7f3e' PASSWORD",
            "ALTER ROLE r WITH PASSWORD = 'canary-7f3e' AND",
            "ALTER ROLE r PASSWORD = 'canary-7f3e'",
            "ALTER ROLE r WITH PASSWORD = 'canary-7f3e' 'canary-7f3e",
            "GRANT SELECT ON 'canary-7f3e' TO r",
            "CREATE DATABASE LINK l CONNECT TO u IDENTIFIED BY 'canary-7f3e' USNG 'h:1'",
            "CREATE DATABASE LINK l CONNECT TO u IDENTIFIED BY canary-7f3e USING 'h:1'",
            "CREATE DATABASE LINK l CONNECT TO u IDENTIFIED 'canary-7f3e' USING 'h:1'",
            "CREATE DATABASE LINK l CONNECT TO u IDENTIFIED BY 'canary-7f3e' USING 'h:1' 'canary-7f3e'",
            "CREATE DATABASE LINK l CONNECT TO u IDENTIFIED BY 'canary-7f3e' USING h",
            "CREATE DATABASE LINK l CONNECT TO u IDENTIFIED BY 'canary-7f3e",
            "CREATE DATABASE LINK l CONNECT TO u canary-7f3e USING 'h:1'",
            "CREATE DATABASE LINK l CONNECT TO u IDENTIFIED canary-7f3e USING 'h:1'",
            // an undoubled quote in the password, or quotes that do not pair up
            "CREATE ROLE r WITH PASSWORD = 'x'canary-7f3e' AND LOGIN = true",
            "CREATE ROLE r WITH PASSWORD = 'x'7f3e' AND LOGIN = true",
            "CREATE ROLE r WITH PASSWORD canary-7f3e",
            "CREATE ROLE r WITH \" PASSWORD = 'canary-7f3e' \" AND LOGIN = true",
            "CREATE ROLE ' WITH PASSWORD = 'canary-7f3e'",
            "CREATE ROLE r WITH PASSWORD = $$ $$canary-7f3e$$",
            "CREATE ' ROLE r WITH PASSWORD = $$canary-7f3e$$",
            "CREATE \" ROLE r WITH PASSWORD = $$canary-7f3e$$",
            "CREATE 'canary-7f3e' ROLE r",
            "ALTER 'canary-7f3e' r",
            "'canary-7f3e' CREATE ROLE r",
            "INSERT INTO \"t (a) VALUES (1); CREATE ROLE r WITH PASSWORD = 'canary-7f3e'"})
    void aPasswordAppearsInNoErrorMessage(String text) {
        assertNoCanary(text, () -> CqlParser.parse(text));
        assertNoCanary(text, () -> CqlParser.parseScript("USE ks;\n" + text + ";\nUSE ks"));
    }

    @Test
    void aHiddenStringStillShowsWhereTheErrorIs() {
        CqlSyntaxException e = assertThrows(CqlSyntaxException.class,
                () -> CqlParser.parse("CREATE ROLE r WITH PASSWORD 'canary-7f3e'"));
        assertEquals("'***'", e.found());
        assertEquals("'='", e.expected());
        assertEquals(1, e.line());
        assertEquals(29, e.column());
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("CREATE ROLE r WITH LOGIN = maybe"));
        assertEquals("maybe", e.found());
        // after a string, a quote in the password may have ended it early: the rest is not shown
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("CREATE ROLE r WITH PASSWORD = 'can'ary' AND LOGIN = true"));
        assertEquals("'***'", e.found());
        assertEquals(36, e.column());
        // elsewhere an unfinished quoted name is shown up to the next quote only
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("INSERT INTO \"t (a) VALUES ('x')"));
        assertEquals("\"t (a) VALUES (...", e.found());
        assertEquals("a closing \" for this name", e.expected());
        // outside a statement that may hold a secret, strings are shown as before
        e = assertThrows(CqlSyntaxException.class, () -> CqlParser.parse("INSERT INTO t (a) VALUES 'shown'"));
        assertEquals("'shown'", e.found());
    }

    @Test
    void statementTextOfARoleStatementIsHiddenFromToString() {
        List<ParsedStatement> script = CqlParser.parseScript(
                "CREATE ROLE r WITH PASSWORD = 'canary-7f3e'; CREATE DATABASE LINK l CONNECT TO u IDENTIFIED BY "
                        + "'canary-7f3e' USING 'h:1'; USE ks");
        assertEquals(3, script.size());
        for (ParsedStatement p : script.subList(0, 2)) {
            assertFalse(p.toString().contains(CANARY), p.toString());
            assertFalse(p.statement().toString().contains(CANARY), p.statement().toString());
        }
        assertEquals("CREATE ROLE r WITH PASSWORD = 'canary-7f3e'", script.get(0).text());
        assertTrue(script.get(2).toString().contains("USE ks"));
    }

    @Test
    void roleStatementsHaveNoBindMarkersAndMixInScripts() {
        List<ParsedStatement> script = CqlParser.parseScript("""
                CREATE ROLE r WITH LOGIN = true;
                GRANT ALL ON KEYSPACE ks TO r;
                LIST ALL OF r;
                SELECT * FROM t;
                """);
        assertEquals(4, script.size());
        for (ParsedStatement p : script) {
            assertEquals(0, CqlParser.countBindMarkers(p.statement()));
        }
        assertInstanceOf(RoleStatement.class, script.get(2).statement());
        assertEquals(3, script.get(2).line());
    }

    private static void assertNoCanary(String text, Runnable parse) {
        try {
            parse.run();
            fail("parsed: " + text);
        } catch (CqlException e) {
            assertFalse(e.getMessage().contains("canary") || e.getMessage().contains("7f3e"),
                    "the message shows the password: " + e.getMessage());
            if (e instanceof CqlSyntaxException s) {
                assertFalse(s.found().contains("canary"), s.found());
            }
        }
    }
}
