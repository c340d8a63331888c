package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.client.internal.JsonReader;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.LoginRequest;
import dev.tributary.protocol.v1.LoginResponse;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's commands with injected streams, against a CqlService served in-process. */
@Timeout(30)
class TributaryCliTest {
    private FakeNode node;
    private final List<String[]> nodeRuns = new ArrayList<>();
    private ByteArrayOutputStream out;
    private ByteArrayOutputStream err;
    /** The environment the CLI sees: none of the test JVM's, so a TRIBUTARY_PASSWORD set there changes nothing. */
    private Map<String, String> env = Map.of();

    @BeforeEach
    void start() {
        node = new FakeNode();
        node.onExecute = TributaryCliTest::answer;
    }

    @AfterEach
    void stop() {
        node.close();
    }

    /** USE sets the keyspace, SELECTs return two rows, a statement with FORM is a syntax error. */
    static ExecuteResponse answer(ExecuteRequest r) {
        String s = r.getStatement();
        if (s.contains("FORM")) {
            throw FakeNode.error(Status.Code.INVALID_ARGUMENT, "SYNTAX_ERROR",
                    "line 1:9 mismatched input 'FORM' expecting FROM in statement '" + s + "'");
        }
        if (s.contains("missing")) {
            throw FakeNode.error(Status.Code.NOT_FOUND, "NOT_FOUND", "table ks.missing does not exist");
        }
        if (s.startsWith("USE ")) {
            return ExecuteResponse.newBuilder().setSession(r.getSession().toBuilder().setKeyspace(s.substring(4).trim())).build();
        }
        if (s.startsWith("SELECT")) {
            return FakeNode.rows(List.of("k int", "v text", "ts timestamp"), List.of(
                    List.of(1, "one", Instant.parse("2020-03-25T12:44:43.006Z")),
                    List.of(22, "two", Instant.parse("2021-01-01T00:00:00Z"))));
        }
        return ExecuteResponse.newBuilder().setCommitScn(5).setTransactionId("1.1.1").build();
    }

    private int run(String stdin, boolean interactive, String... args) {
        return run(node.clients(), stdin, interactive, args);
    }

    private int run(ClientFactory clients, String stdin, boolean interactive, String... args) {
        out = new ByteArrayOutputStream();
        err = new ByteArrayOutputStream();
        Terminal t = new Terminal(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                interactive);
        return new Tributary(t, clients, a -> {
            nodeRuns.add(a);
            return 0;
        }, env::get).run(args);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static final String TABLE = "\n"
            + " k  | v   | ts\n"
            + "----+-----+---------------------------------\n"
            + "  1 | one | 2020-03-25 12:44:43.006000+0000\n"
            + " 22 | two | 2021-01-01 00:00:00.000000+0000\n"
            + "\n"
            + "(2 rows)\n";

    @Test
    void executeWithTableOutput() {
        int status = run("", false, "cql", "--connect", "127.0.0.1:9160", "-e", "INSERT INTO ks.t (k) VALUES (1); SELECT * FROM ks.t");
        assertEquals(0, status, err());
        assertEquals(TABLE, out());
        assertEquals("", err());
        assertEquals(List.of("INSERT INTO ks.t (k) VALUES (1)", "SELECT * FROM ks.t"), node.statements());
    }

    @Test
    void jsonOutputIsOneObjectPerRowAndLine() {
        int status = run("", false, "cql", "--connect", "127.0.0.1:9160", "--output", "json",
                "-e", "INSERT INTO ks.t (k) VALUES (1)", "-e", "SELECT * FROM ks.t;");
        assertEquals(0, status, err());
        String[] lines = out().split("\n");
        assertEquals(2, lines.length, out());
        assertEquals("{\"k\":1,\"v\":\"one\",\"ts\":\"2020-03-25T12:44:43.006Z\"}", lines[0]);
        assertEquals(Map.of("k", 22L, "v", "two", "ts", "2021-01-01T00:00:00.000Z"), JsonReader.parse(lines[1]));
    }

    @Test
    void aSyntaxErrorStopsTheRunWithStatusTwo() {
        int status = run("", false, "cql", "-e", "INSERT INTO ks.t (k) VALUES (1); SELECT * FORM ks.t; SELECT * FROM ks.t");
        assertEquals(2, status);
        assertEquals("ERROR SYNTAX_ERROR: line 1:9 mismatched input 'FORM' expecting FROM in statement 'SELECT * FORM ks.t'\n", err());
        assertEquals("", out());
        assertEquals(2, node.requests.size(), "the statement after the error must not run");
    }

    @Test
    void anyOtherErrorStopsTheRunWithStatusOne() {
        int status = run("", false, "cql", "-e", "SELECT * FROM ks.missing", "-e", "SELECT * FROM ks.t");
        assertEquals(1, status);
        assertEquals("ERROR NOT_FOUND: table ks.missing does not exist\n", err());
        assertEquals(1, node.requests.size());
    }

    @Test
    void noReachableNodeIsAnUnavailableError() {
        ClientFactory dead = (endpoints, timeout, user) -> TributaryClient.builder()
                .channel(endpoints.get(0), InProcessChannelBuilder.forName("nobody-" + System.nanoTime()).build()).build();
        int status = run(dead, "", false, "cql", "--connect", "10.0.0.9:9160", "-e", "SELECT * FROM ks.t");
        assertEquals(1, status);
        assertTrue(err().startsWith("ERROR UNAVAILABLE: no node could serve the request (tried 10.0.0.9:9160: "), err());
    }

    @Test
    void aFileRunsItsStatementsInOrderIncludingBatches(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("script.cql");
        Files.writeString(file, "-- set up\nUSE ks;\nBEGIN BATCH\n  INSERT INTO t (k) VALUES (1);\n"
                + "  INSERT INTO t (k) VALUES (2);\nAPPLY BATCH;\n/* read back */\nSELECT * FROM t;\n");
        int status = run("", false, "cql", "-f", file.toString(), "-e", "INSERT INTO t (k) VALUES (3)");
        assertEquals(0, status, err());
        assertEquals(List.of("USE ks", "BEGIN BATCH\n  INSERT INTO t (k) VALUES (1);\n  INSERT INTO t (k) VALUES (2);\nAPPLY BATCH",
                "SELECT * FROM t", "INSERT INTO t (k) VALUES (3)"), node.statements());
        assertEquals("ks", node.requests.get(2).getSession().getKeyspace(), "USE carries over to later statements");
        assertEquals(TABLE, out());
    }

    @Test
    void aMissingFileRunsNothing(@TempDir Path dir) {
        int status = run("", false, "cql", "-e", "INSERT INTO t (k) VALUES (3)", "-f", dir.resolve("nope.cql").toString());
        assertEquals(1, status);
        assertTrue(err().startsWith("ERROR IO_ERROR: cannot read file '"), err());
        assertEquals(0, node.requests.size());
    }

    @Test
    void theShellReadsStatementsAcrossLinesWithoutPromptsWhenPiped() {
        String input = "USE ks;\nSELECT *\n  FROM t;\nSELECT * FORM t;\nINSERT INTO t (k) VALUES (1);\nexit\nSELECT 'never';\n";
        int status = run(input, false, "cql", "--connect", "127.0.0.1:9160");
        assertEquals(2, status, "the shell reports its last failure");
        assertEquals(TABLE, out());
        assertTrue(err().startsWith("ERROR SYNTAX_ERROR: "), err());
        assertEquals(List.of("USE ks", "SELECT *\n  FROM t", "SELECT * FORM t", "INSERT INTO t (k) VALUES (1)"), node.statements());
    }

    @Test
    void theShellPromptsWithTheKeyspaceWhenInteractive() {
        int status = run("USE ks;\nINSERT INTO t (k)\nVALUES (1);\nquit;\n", true, "cql");
        assertEquals(0, status, err());
        assertEquals("tributary> tributary:ks>    ... tributary:ks> ", out());
    }

    @Test
    void theShellEndsAtEndOfInputAndRunsAnUnterminatedLastStatement() {
        int status = run("INSERT INTO t (k) VALUES (1);\nSELECT * FROM t", false, "cql");
        assertEquals(0, status, err());
        assertEquals(List.of("INSERT INTO t (k) VALUES (1)", "SELECT * FROM t"), node.statements());
        assertEquals(TABLE, out());
    }

    @Test
    void theShellGoesOnAfterAnError() {
        int status = run("SELECT * FROM missing;\nINSERT INTO t (k) VALUES (1);\n", false, "cql");
        assertEquals(1, status);
        assertEquals(2, node.requests.size());
    }

    @Test
    void everySubcommandHasHelp() {
        assertEquals(0, run("", false, "cql", "--help"));
        assertTrue(out().startsWith("usage: tributary cql"), out());
        assertEquals(0, node.requests.size());
        assertEquals(0, run("", false, "version", "--help"));
        assertTrue(out().startsWith("usage: tributary version"), out());
        assertEquals(0, run("", false, "--help"));
        assertTrue(out().contains("cql"), out());
        assertEquals(0, run("", false, "node", "--help"));
        assertEquals(List.of("--help"), List.of(nodeRuns.get(0)));
    }

    /** A newcomer learns the commands from the help: one a help leaves out is one nobody finds. */
    @Test
    void everyHelpNamesEverySubcommand() {
        assertEquals(0, run("", false, "--help"));
        String top = out();
        for (String command : List.of("node", "cql", "bench", "local-cluster", "zookeeper", "tail", "admin", "version")) {
            assertTrue(top.contains("\n  " + command + " "), command + " missing from:\n" + top);
        }
        for (String admin : AdminCommand.COMMANDS) {
            assertTrue(top.contains(admin), admin + " missing from:\n" + top);
            assertEquals(0, run("", false, "admin", "--help"));
            assertTrue(out().contains("\n  " + admin + " "), admin + " missing from:\n" + out());
        }
        assertEquals(0, run("", false, "local-cluster", "--help"));
        String localCluster = out();
        for (String sub : List.of("up", "add", "kill", "restart", "status", "down")) {
            assertTrue(localCluster.contains("\n  " + sub + " "), sub + " missing from:\n" + localCluster);
            assertTrue(top.contains(sub), sub + " missing from:\n" + top);
        }
        assertEquals(0, run("", false, "bench", "--help"));
        assertTrue(out().contains("\n  capture "), out());
        assertTrue(top.contains("capture"), top);
    }

    @Test
    void anOperationIsABarWithDoneTotalRateAndEta() {
        assertEquals("RUNNING  instantiate_table ks.t to apply w on h1: [######--------------]  30% 300 of 1,000 rows, "
                + "100 rows/s, ETA 7 s", OperationProgress.line("RUNNING", "instantiate_table", "ks.t to apply w", "h1",
                        "rows", 300, 1_000L, 100.0, 7L));
        assertEquals("DONE     decommission hand-over of node h1 on h1: [####################] 100% 1,200 of 1,000 entries, "
                + "600 entries/s", OperationProgress.line("DONE", "decommission", "hand-over of node h1", "h1", "entries",
                        1_200, 1_000L, 600.0, null), "an estimated total the work outgrew is full, not beyond");
        assertEquals("RUNNING  copy x on h1: 10 rows, 5 rows/s", OperationProgress.line("RUNNING", "copy", "x", "h1", "rows", 10,
                null, 5.0, null));
        assertEquals("[--------------------]", OperationProgress.bar(0, 20));
    }

    /** Whoever waits on a terminal for a decommission sees its hand-over move; the bar is drawn between answers. */
    @Test
    void aDecommissionWaitedOnATerminalDrawsItsProgress() {
        java.util.UUID host = java.util.UUID.fromString("8d6ef6e5-534b-41a2-8ed5-20d0f3e4f248");
        java.util.concurrent.CountDownLatch polled = new java.util.concurrent.CountDownLatch(2);
        node.onExecute = r -> {
            if (r.getStatement().contains("FROM system_views.operations")) {
                polled.countDown();
                return FakeNode.rows(List.of("host_id uuid", "kind text", "target text", "state text", "unit text", "done bigint",
                        "total bigint", "rate_per_second double", "eta_seconds bigint"), List.of(List.of(host, "decommission",
                                "hand-over of node " + host, "RUNNING", "entries", 300L, 1_000L, 100.0, 7L)));
            }
            if (r.getStatement().equals("CALL system.decommission()")) {
                try {
                    assertTrue(polled.await(20, java.util.concurrent.TimeUnit.SECONDS), "the CLI asked how far it is");
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return FakeNode.rows(List.of("host_id uuid", "moved bigint", "generation timestamp"),
                        List.of(List.of(host, 300L, Instant.parse("2026-12-06T03:00:00Z"))));
            }
            return FakeNode.echoSession(r);
        };
        assertEquals(0, run("", true, "admin", "--connect", "127.0.0.1:9160", "decommission"), err());
        assertTrue(err().contains("\rRUNNING  decommission hand-over of node " + host + " on " + host
                + ": [######--------------]  30% 300 of 1,000 entries, 100 entries/s, ETA 7 s"), err());
        assertTrue(out().startsWith("node " + host + " decommissioned: 300 rows and log entries handed over"), out());

        // a script gets the answer alone
        assertEquals(0, run("", false, "admin", "--connect", "127.0.0.1:9160", "decommission"), err());
        assertEquals("", err());
    }

    @Test
    void anInstantiationWaitedOnATerminalDrawsItsProgress() {
        java.util.UUID host = java.util.UUID.fromString("8d6ef6e5-534b-41a2-8ed5-20d0f3e4f248");
        java.util.concurrent.CountDownLatch polled = new java.util.concurrent.CountDownLatch(1);
        node.onExecute = r -> {
            if (r.getStatement().contains("FROM system_views.operations")) {
                polled.countDown();
                return FakeNode.rows(List.of("host_id uuid", "kind text", "target text", "state text", "unit text", "done bigint",
                        "total bigint", "rate_per_second double", "eta_seconds bigint"), List.of(List.of(host, "instantiate_table",
                                "ks.t to apply w", "RUNNING", "rows", 500L, 1_000L, 250.0, 2L)));
            }
            if (r.getStatement().contains("instantiate_table")) {
                try {
                    assertTrue(polled.await(20, java.util.concurrent.TimeUnit.SECONDS), "the CLI asked how far it is");
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return FakeNode.rows(List.of("instantiation_scn bigint", "rows_copied bigint"), List.of(List.of(7L, 1_000L)));
            }
            return FakeNode.echoSession(r);
        };
        assertEquals(0, run("", true, "cql", "--connect", "127.0.0.1:9160", "-e",
                "CALL dbms_streams_adm.instantiate_table(table_name => 'ks.t', apply_name => 'w')"), err());
        assertTrue(err().contains("\rRUNNING  instantiate_table ks.t to apply w on " + host
                + ": [##########----------]  50% 500 of 1,000 rows, 250 rows/s, ETA 2 s"), err());
        assertTrue(out().contains("rows_copied"), out());
    }

    @Test
    void nodeGetsAllItsArguments() {
        assertEquals(0, run("", false, "node", "--data-dir", "/tmp/x", "--listen", "127.0.0.1:9161"));
        assertEquals(List.of("--data-dir", "/tmp/x", "--listen", "127.0.0.1:9161"), List.of(nodeRuns.get(0)));
    }

    @Test
    void aFailingNodeIsStatusOne() {
        out = new ByteArrayOutputStream();
        err = new ByteArrayOutputStream();
        Terminal t = new Terminal(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        int status = new Tributary(t, node.clients(), a -> {
            throw new IllegalStateException("port 9160 in use");
        }).run("node");
        assertEquals(1, status);
        assertTrue(err().contains("port 9160 in use"), err());
    }

    @Test
    void versionPrintsTheBuildVersion() {
        assertEquals(0, run("", false, "version"));
        assertTrue(out().matches("tributary \\d+\\.\\d+\\.\\d+\\S*\n"), out());
    }

    @Test
    void benchIsDispatchedToTheBenchModule() {
        assertEquals(0, run("", false, "bench", "capture", "--help"));
        assertTrue(out().startsWith("usage: tributary bench capture"), out());
        assertEquals(2, run("", false, "bench", "capture", "--rows", "many"));
        assertTrue(err().startsWith("tributary bench capture: --rows wants a whole number, got 'many'"), err());
        assertEquals(2, run("", false, "bench", "nope"));
        assertTrue(err().startsWith("tributary bench: unknown benchmark 'nope'"), err());
        assertEquals(0, run("", false, "--help"));
        assertTrue(out().contains("bench     run a benchmark"), out());
    }

    @Test
    void unknownCommandsAndOptionsAreUsageErrors() {
        assertEquals(2, run("", false, "frobnicate"));
        assertTrue(err().startsWith("tributary: unknown command 'frobnicate'\nusage: tributary <command>"), err());
        assertEquals("", out());
        assertEquals(2, run("", false));
        assertTrue(err().startsWith("usage: tributary"), err());
        assertEquals(2, run("", false, "cql", "--bogus"));
        assertTrue(err().startsWith("tributary cql: unknown option '--bogus'"), err());
        assertEquals(2, run("", false, "cql", "--output", "xml"));
        assertTrue(err().startsWith("tributary cql: --output is table or json, got 'xml'"), err());
        assertEquals(2, run("", false, "cql", "--connect", "nohostport", "-e", "SELECT 1"));
        assertEquals(2, run("", false, "cql", "-e"));
        assertEquals(0, node.requests.size());
    }

    @Test
    void warningsGoToStderr() {
        node.onExecute = r -> FakeNode.rows(List.of("k int"), List.of(List.of(1))).toBuilder().addWarnings("ALLOW FILTERING scan").build();
        assertEquals(0, run("", false, "cql", "--output", "json", "-e", "SELECT k FROM t ALLOW FILTERING"));
        assertEquals("{\"k\":1}\n", out());
        assertEquals("Warning: ALLOW FILTERING scan\n", err());
    }

    @Test
    void optionsReachTheClient() {
        List<Object> seen = new ArrayList<>();
        ClientFactory recording = (endpoints, timeout, user) -> {
            seen.add(endpoints);
            seen.add(timeout);
            seen.add(user);
            return node.clients().connect(endpoints, timeout, user);
        };
        assertEquals(0, run(recording, "", false, "cql", "--connect=10.0.0.1:9160,10.0.0.2:9160",
                "--request-timeout", "1500ms", "-e", "INSERT INTO t (k) VALUES (1)"));
        assertEquals(List.of(List.of("10.0.0.1:9160", "10.0.0.2:9160"), java.time.Duration.ofMillis(1500),
                TributaryClient.DEFAULT_USERNAME), seen);
        assertEquals(TributaryClient.DEFAULT_USERNAME, node.requests.get(0).getSession().getUsername());
    }

    private static final String PASSWORD = "s3cret-Pa55word";

    /** The node's login: a token for alice with PASSWORD, UNAUTHENTICATED (with the node's message) for anything else. */
    private static LoginResponse login(LoginRequest r) {
        if (!r.getRole().equals("alice") || !r.getPassword().equals(PASSWORD)) {
            throw FakeNode.error(Status.Code.UNAUTHENTICATED, "UNAUTHENTICATED",
                    "Provided username " + r.getRole() + " and/or password are incorrect");
        }
        return LoginResponse.newBuilder().setToken("tok-alice").setRole("alice")
                .setExpiresAtMillis(System.currentTimeMillis() + 3_600_000).build();
    }

    @Test
    void userAndPasswordLogInAndEveryStatementCarriesTheToken() {
        try (FakeNode secured = FakeNode.netty()) {
            secured.onLogin = TributaryCliTest::login;
            assertEquals(0, run(node.clients(), "", false, "cql", "--connect", secured.endpoint(), "--user", "alice",
                    "--password", PASSWORD, "--output", "json", "-e", "INSERT INTO t (k) VALUES (1)", "-e", "INSERT INTO t (k) VALUES (2)"));
            // the client's own ring queries go as Executes too: every one carries the token
            assertEquals(List.of("Bearer tok-alice"), secured.authorizations("Execute").stream().distinct().toList());
            List<ExecuteRequest> inserts = secured.requests.stream().filter(r -> r.getStatement().startsWith("INSERT")).toList();
            assertEquals(2, inserts.size());
            assertEquals("alice", inserts.get(0).getSession().getUsername());
            assertEquals(1, secured.logins.size());
            assertTrue(node.requests.isEmpty(), "credentials mean the CLI's own channels, not the injected factory");
        }
    }

    @Test
    void withoutPasswordTheEnvironmentVariableIsUsed() {
        env = Map.of(ClientCredentials.PASSWORD_ENV, PASSWORD);
        try (FakeNode secured = FakeNode.netty()) {
            secured.onLogin = TributaryCliTest::login;
            assertEquals(0, run("", false, "cql", "--connect", secured.endpoint(), "--user=alice", "-e", "SELECT k FROM t"));
            assertEquals(List.of(PASSWORD), secured.logins.stream().map(LoginRequest::getPassword).toList());
            assertEquals(List.of("Bearer tok-alice"), secured.authorizations("Execute").stream().distinct().toList());
        }
    }

    @Test
    void aRefusedLoginIsAnUnauthenticatedErrorThatNeverShowsThePassword() {
        try (FakeNode secured = FakeNode.netty()) {
            secured.onLogin = TributaryCliTest::login;
            String wrong = "wr0ng-" + PASSWORD;
            assertEquals(1, run("", false, "cql", "--connect", secured.endpoint(), "--user", "alice", "--password", wrong,
                    "-e", "SELECT k FROM t"));
            assertEquals("ERROR UNAUTHENTICATED: Provided username alice and/or password are incorrect\n", err());
            assertFalse(out().contains(wrong) || err().contains(wrong));
            assertTrue(secured.requests.isEmpty());
        }
    }

    @Test
    void authenticationAndPermissionErrorsPrintTheirCodes() {
        node.onExecute = r -> {
            throw FakeNode.error(Status.Code.PERMISSION_DENIED, "PERMISSION_DENIED",
                    "User alice has no MODIFY permission on <table ks.t>");
        };
        assertEquals(1, run("", false, "cql", "-e", "INSERT INTO ks.t (k) VALUES (1)"));
        assertEquals("ERROR PERMISSION_DENIED: User alice has no MODIFY permission on <table ks.t>\n", err());
        assertEquals(1, run("", false, "admin", "--connect", "127.0.0.1:9160", "check-and-repair-cdc-streams"));
        assertEquals("ERROR PERMISSION_DENIED: User alice has no MODIFY permission on <table ks.t>\n", err());
        // a node that sent no reason code: the gRPC status names it
        node.onExecute = r -> {
            throw Status.UNAUTHENTICATED.withDescription("no token").asRuntimeException();
        };
        assertEquals(1, run("", false, "cql", "-e", "SELECT k FROM t"));
        assertEquals("ERROR UNAUTHENTICATED: no token\n", err());
    }

    @Test
    void loginOptionUsageErrorsNeverShowThePassword() {
        assertEquals(2, run("", false, "cql", "--user", "alice", "-e", "SELECT 1"));
        assertEquals("tributary cql: --user alice needs a password: give --password or set TRIBUTARY_PASSWORD\n", err());
        for (String[] args : List.of(
                new String[] {"cql", "--password", PASSWORD, "-e", "SELECT 1"},
                new String[] {"tail", "--password=" + PASSWORD, "--connect", "127.0.0.1:9160", "--table", "ks.t"},
                new String[] {"admin", "--user", "--password", PASSWORD, "--connect", "127.0.0.1:9160", "decommission"},
                new String[] {"cql", "--user", "alice", "--password", PASSWORD, "--pasword=" + PASSWORD, "-e", "SELECT 1"},
                new String[] {"tail", "--user", "alice", "--password", PASSWORD, "--connect", "127.0.0.1:9160", "--pasword=" + PASSWORD})) {
            assertEquals(2, run("", false, args), String.join(" ", args));
            assertTrue(err().startsWith("tributary " + args[0] + ": "), err());
            assertFalse(err().contains(PASSWORD) || out().contains(PASSWORD), err());
        }
        assertEquals(0, node.requests.size());
    }

    @Test
    void helpNamesTheLoginOptionsWithoutAnyPassword() {
        for (String command : List.of("cql", "tail", "admin")) {
            assertEquals(0, run("", false, command, "--user", "alice", "--password", PASSWORD, "--help"));
            assertTrue(out().contains("--user ROLE") && out().contains("TRIBUTARY_PASSWORD"), out());
            assertFalse(out().contains(PASSWORD) || err().contains(PASSWORD));
        }
    }
}
