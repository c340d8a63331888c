package dev.tributary.node.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.auth.AuthenticationException;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import dev.tributary.client.ResultSet;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.PermissionDeniedException;
import dev.tributary.client.errors.TributaryException;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.auth.Tokens;
import dev.tributary.node.kit.InProcessCluster;
import dev.tributary.protocol.v1.AuthServiceGrpc;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ListStreamsRequest;
import dev.tributary.protocol.v1.LoginRequest;
import dev.tributary.protocol.v1.SessionState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY X2, X3 and X5 on a node started with {@code --authenticator password}: who may log
 * in, what a role may read and change, and a password that appears nowhere it should not.
 */
@Timeout(180)
class AuthIT {
    private static final String CANARY = "canary-7f3e-pw";
    private static final String SUPERUSER = TestNodes.SUPERUSER_PASSWORD;
    @TempDir
    Path dir;
    private InProcessCluster cluster;
    private TributaryNode node;
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private Logger root;
    private Logger ours;
    private Level oursLevel;

    @BeforeEach
    void start() throws Exception {
        // every message logged while the test runs (the node's down to DEBUG) is searched for the canary
        root = (Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ours = (Logger) org.slf4j.LoggerFactory.getLogger("dev.tributary");
        oursLevel = ours.getLevel();
        ours.setLevel(Level.DEBUG);
        logs.start();
        root.addAppender(logs);
        cluster = InProcessCluster.builder(dir).options(TestNodes.passwordAuthenticator(dir)).build();
        node = cluster.startOperating("n1");
    }

    @AfterEach
    void stop() {
        root.detachAppender(logs);
        ours.setLevel(oursLevel);
        if (cluster != null) {
            cluster.close();
        }
    }

    private TributaryClient client(String role, String password) {
        TributaryClient.Builder b = TributaryClient.builder().endpoints(node.endpoint()).requestTimeout(Duration.ofSeconds(20))
                .failoverWindow(Duration.ZERO);
        if (role != null) {
            b.credentials(role, password);
        }
        return b.build();
    }

    /** A raw channel whose calls carry {@code authorization} as given (null: none). */
    private static <S extends io.grpc.stub.AbstractStub<S>> S withAuthorization(S stub, String authorization) {
        if (authorization == null) {
            return stub;
        }
        Metadata md = new Metadata();
        md.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), authorization);
        return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md));
    }

    /**
     * Waits until a call is refused PERMISSION_DENIED: a REVOKE reaches the role cache of the node
     * within moments, as in Cassandra.
     */
    private static void awaitRefused(Runnable call, String what) {
        TestNodes.await(() -> {
            try {
                call.run();
                return false;
            } catch (PermissionDeniedException e) {
                return true;
            }
        }, Duration.ofSeconds(10), what);
    }

    private String token(ManagedChannel ch, String role, String password) {
        return AuthServiceGrpc.newBlockingStub(ch).login(LoginRequest.newBuilder().setRole(role).setPassword(password).build())
                .getToken();
    }

    private void setUp(TributaryClient admin) {
        admin.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
        admin.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
        admin.execute("CREATE TABLE ks.u (pk int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
        admin.execute("INSERT INTO ks.t (pk, v) VALUES (1, 'readable')");
        admin.execute("INSERT INTO ks.u (pk, v) VALUES (1, 'hidden')");
        admin.execute("CREATE ROLE alice WITH PASSWORD = '" + CANARY + "' AND LOGIN = true");
        admin.execute("GRANT SELECT ON TABLE ks.t TO alice");
    }

    @Test
    @DisplayName("X2: no, a malformed, a forged or an expired token, and a wrong password, are UNAUTHENTICATED, echoing "
            + "neither the token nor an exception; on a new cluster cassandra logs in with the password file's password "
            + "and never with cassandra/cassandra (issue 29 item 8)")
    void credentials() throws Exception {
        try (TributaryClient anonymous = client(null, null); TributaryClient wrong = client("cassandra", "nope");
                TributaryClient admin = client("cassandra", SUPERUSER);
                TributaryClient defaultPassword = client("cassandra", "cassandra")) {
            TributaryException e = assertThrows(TributaryException.class, () -> anonymous.execute("SELECT * FROM system.local"));
            assertEquals("UNAUTHENTICATED", e.code(), e.getMessage());
            e = assertThrows(TributaryException.class, () -> wrong.execute("SELECT * FROM system.local"));
            assertEquals("UNAUTHENTICATED", e.code());
            assertFalse(e.getMessage().contains("nope"), e.getMessage());
            e = assertThrows(TributaryException.class, () -> defaultPassword.execute("SELECT * FROM system.local"));
            assertEquals("UNAUTHENTICATED", e.code());
            assertEquals(1, admin.execute("SELECT * FROM system.local").all().size());
        }
        byte[] secret;
        try (CuratorFramework zk = CuratorFrameworkFactory.newClient(cluster.zkConnect(), new RetryOneTime(100))) {
            zk.start();
            secret = zk.getData().forPath("/tributary/tributary/peer-secret");
        }
        long now = System.currentTimeMillis();
        String expired = new Tokens(secret, () -> now).issue("cassandra", now - 1, 0);
        String forged = new Tokens(new byte[32], () -> now).issue("cassandra", now + 3_600_000, 0);
        ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
        try {
            for (String auth : new String[] {null, "Bearer", "Bearer not-a-token", "Basic Y2Fzc2FuZHJhOmNhc3NhbmRyYQ==",
                    "Bearer " + forged, "Bearer " + expired}) {
                StatusRuntimeException s = assertThrows(StatusRuntimeException.class, () -> withAuthorization(
                        CqlServiceGrpc.newBlockingStub(ch), auth).execute(ExecuteRequest.newBuilder()
                        .setStatement("SELECT * FROM system.local").setSession(SessionState.newBuilder()).build()), auth);
                assertEquals(Status.Code.UNAUTHENTICATED, s.getStatus().getCode(), auth);
                String said = s.getStatus().getDescription();
                assertFalse(auth != null && auth.length() > 12 && said.contains(auth.substring(7)), said);
                assertFalse(said.contains("Exception"), said);
                assertFalse(said.contains("cassandra") && auth != null && auth.startsWith("Basic"), said);
            }
            StatusRuntimeException s = assertThrows(StatusRuntimeException.class, () -> withAuthorization(
                    ChangeStreamServiceGrpc.newBlockingStub(ch), "Bearer " + expired).listStreams(
                    ListStreamsRequest.newBuilder().setTable("ks.t").build()));
            assertEquals(Status.Code.UNAUTHENTICATED, s.getStatus().getCode());
            assertEquals("token expired; log in again", s.getStatus().getDescription());
            String good = token(ch, "cassandra", SUPERUSER);
            withAuthorization(CqlServiceGrpc.newBlockingStub(ch), "Bearer " + good).execute(ExecuteRequest.newBuilder()
                    .setStatement("SELECT * FROM system.local").setSession(SessionState.newBuilder()).build());
        } finally {
            ch.shutdownNow();
        }
    }

    @Test
    @DisplayName("X2, X3: a role with SELECT on one table reads it, its CDC log and its change streams, and is refused "
            + "PERMISSION_DENIED on another table, on writes, on log tables, system keyspaces and roles")
    void permissions() {
        try (TributaryClient admin = client("cassandra", SUPERUSER)) {
            setUp(admin);
            try (TributaryClient alice = client("alice", CANARY)) {
                assertEquals("readable", alice.execute("SELECT v FROM ks.t WHERE pk = 1").one().getString("v"));
                TestNodes.await(() -> alice.execute("SELECT * FROM ks.t_scylla_cdc_log").all().size() == 1,
                        Duration.ofSeconds(20), "alice reads ks.t's CDC log");
                PermissionDeniedException denied = assertThrows(PermissionDeniedException.class,
                        () -> alice.execute("SELECT v FROM ks.u WHERE pk = 1"));
                assertEquals("User alice has no SELECT permission on <table ks.u> or any of its parents", denied.getMessage());
                for (String refused : List.of("SELECT * FROM ks.u_scylla_cdc_log", "INSERT INTO ks.t (pk, v) VALUES (2, 'x')",
                        "DELETE FROM ks.t WHERE pk = 1", "TRUNCATE ks.t", "DROP TABLE ks.t", "ALTER TABLE ks.t ADD w int",
                        "DROP TABLE ks.t_scylla_cdc_log", "ALTER TABLE ks.t_scylla_cdc_log WITH comment = 'x'",
                        "DROP KEYSPACE system_auth", "ALTER TABLE system_auth.roles ADD x int", "DROP KEYSPACE ks",
                        "CREATE KEYSPACE k2 WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}",
                        "CREATE TABLE ks.x (pk int PRIMARY KEY)", "SELECT * FROM system_auth.roles",
                        "CREATE ROLE mallory WITH PASSWORD = 'm' AND LOGIN = true AND SUPERUSER = true",
                        "ALTER ROLE alice WITH SUPERUSER = true", "GRANT ALL PERMISSIONS ON KEYSPACE ks TO alice",
                        "DROP ROLE cassandra", "CREATE DATABASE LINK l USING '127.0.0.1:1'",
                        "CALL dbms_streams_adm.set_up_queue(queue_name => 'q')",
                        "CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                                + "streams_name => 'c', queue_name => 'q')")) {
                    TributaryException e = assertThrows(TributaryException.class, () -> alice.execute(refused), refused);
                    assertEquals("PERMISSION_DENIED", e.code(), refused + ": " + e.getMessage());
                }
                assertEquals("readable", admin.execute("SELECT v FROM ks.t WHERE pk = 1").one().getString("v"),
                        "nothing alice tried changed anything");
                assertEquals(1, admin.execute("SELECT * FROM ks.t_scylla_cdc_log").all().size(), "no refused write was logged");

                // the change-stream RPCs ask the same question
                ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
                try {
                    String token = "Bearer " + token(ch, "alice", CANARY);
                    ChangeStreamServiceGrpc.ChangeStreamServiceBlockingStub changes = withAuthorization(
                            ChangeStreamServiceGrpc.newBlockingStub(ch), token);
                    assertEquals(1, changes.listStreams(ListStreamsRequest.newBuilder().setTable("ks.t").build())
                            .getLineagesCount());
                    StatusRuntimeException s = assertThrows(StatusRuntimeException.class,
                            () -> changes.listStreams(ListStreamsRequest.newBuilder().setTable("ks.u").build()));
                    assertEquals(Status.Code.PERMISSION_DENIED, s.getStatus().getCode());
                    assertTrue(s.getStatus().getDescription().contains("SELECT permission on <table ks.u>"),
                            s.getStatus().getDescription());
                    // a subscription, a streams read and a consumer group on ks.u: refused too
                    java.util.Iterator<dev.tributary.protocol.v1.LcrBatch> sub = changes.subscribe(
                            dev.tributary.protocol.v1.SubscribeRequest.newBuilder().setTable("ks.u").build());
                    assertEquals(Status.Code.PERMISSION_DENIED, assertThrows(StatusRuntimeException.class, sub::hasNext)
                            .getStatus().getCode());
                    java.util.concurrent.CompletableFuture<Status> streams = new java.util.concurrent.CompletableFuture<>();
                    io.grpc.stub.StreamObserver<dev.tributary.protocol.v1.ReadStreamsRequest> requests = withAuthorization(
                            ChangeStreamServiceGrpc.newStub(ch), token).readStreams(new io.grpc.stub.StreamObserver<>() {
                                @Override
                                public void onNext(dev.tributary.protocol.v1.StreamsBatch b) {
                                }

                                @Override
                                public void onError(Throwable t) {
                                    streams.complete(Status.fromThrowable(t));
                                }

                                @Override
                                public void onCompleted() {
                                    streams.complete(Status.OK);
                                }
                            });
                    requests.onNext(dev.tributary.protocol.v1.ReadStreamsRequest.newBuilder().setTable("ks.u").build());
                    assertEquals(Status.Code.PERMISSION_DENIED, streams.get(20, java.util.concurrent.TimeUnit.SECONDS).getCode());
                    requests.onCompleted();
                    dev.tributary.protocol.v1.ConsumerGroupServiceGrpc.ConsumerGroupServiceBlockingStub groups = withAuthorization(
                            dev.tributary.protocol.v1.ConsumerGroupServiceGrpc.newBlockingStub(ch), token);
                    StatusRuntimeException join = assertThrows(StatusRuntimeException.class, () -> groups.join(
                            dev.tributary.protocol.v1.JoinRequest.newBuilder().setGroup("g").setMemberId("m1").setLog(
                                    dev.tributary.protocol.v1.GroupLog.newBuilder().setTable("ks.u")).build()));
                    assertEquals(Status.Code.PERMISSION_DENIED, join.getStatus().getCode());
                    assertEquals("g", groups.join(dev.tributary.protocol.v1.JoinRequest.newBuilder().setGroup("g")
                            .setMemberId("m1").setLog(dev.tributary.protocol.v1.GroupLog.newBuilder().setTable("ks.t")).build())
                            .getGroup());
                } catch (Exception e) {
                    throw new AssertionError(e);
                } finally {
                    ch.shutdownNow();
                }

                // a grant on the keyspace covers its tables; a revoke takes it back
                admin.execute("GRANT MODIFY ON KEYSPACE ks TO alice");
                alice.execute("INSERT INTO ks.u (pk, v) VALUES (2, 'by alice')");
                admin.execute("REVOKE MODIFY ON KEYSPACE ks FROM alice");
                awaitRefused(() -> alice.execute("INSERT INTO ks.u (pk, v) VALUES (3, 'x')"), "the revoke to reach the role cache");
                ResultSet perms = admin.execute("LIST ALL PERMISSIONS OF alice");
                assertEquals(List.of("<table ks.t>|SELECT"), perms.all().stream()
                        .map(r -> r.getString("resource") + "|" + r.getString("permission")).toList());
                assertEquals("by alice", admin.execute("SELECT v FROM ks.u WHERE pk = 2").one().getString("v"));
            }

            // a role may change its own password; the old one no longer logs in
            try (TributaryClient alice = client("alice", CANARY)) {
                alice.execute("ALTER ROLE alice WITH PASSWORD = 'second-pw'");
            }
            try (TributaryClient old = client("alice", CANARY); TributaryClient renewed = client("alice", "second-pw")) {
                assertEquals("UNAUTHENTICATED", assertThrows(TributaryException.class,
                        () -> old.execute("SELECT v FROM ks.t WHERE pk = 1")).code());
                assertEquals("readable", renewed.execute("SELECT v FROM ks.t WHERE pk = 1").one().getString("v"));
                admin.execute("DROP ROLE alice");
                TestNodes.await(() -> {
                    try {
                        renewed.execute("SELECT v FROM ks.t WHERE pk = 1");
                        return false;
                    } catch (TributaryException e) {
                        return e.code().equals("UNAUTHENTICATED");
                    }
                }, Duration.ofSeconds(10), "a dropped role's token to be refused");
            }
        }
    }

    @Test
    @DisplayName("issue 29 item 8: to a role without permission a missing keyspace or table answers as a forbidden one "
            + "does (the same code, the same message but for the name), over CQL, the change-stream RPCs and the native "
            + "port; a role that may read the keyspace learns that a table is missing")
    void missingAnswersAsForbidden() {
        try (TributaryClient admin = client("cassandra", SUPERUSER)) {
            setUp(admin);
            admin.execute("CREATE ROLE bob WITH PASSWORD = 'bob-pw' AND LOGIN = true");
            admin.execute("GRANT SELECT ON KEYSPACE ks TO bob");
        }
        try (TributaryClient alice = client("alice", CANARY); TributaryClient bob = client("bob", "bob-pw")) {
            for (String[] pair : new String[][] {
                    {"SELECT v FROM ks.u WHERE pk = 1", "SELECT v FROM ks.nope WHERE pk = 1", "ks.u", "ks.nope"},
                    {"SELECT v FROM ks.u WHERE pk = 1", "SELECT v FROM nope.u WHERE pk = 1", "ks.u", "nope.u"},
                    {"SELECT * FROM ks.u_scylla_cdc_log", "SELECT * FROM ks.nope_scylla_cdc_log", "ks.u", "ks.nope"},
                    {"INSERT INTO ks.u (pk, v) VALUES (9, 'x')", "INSERT INTO ks.nope (pk, v) VALUES (9, 'x')", "ks.u", "ks.nope"},
                    {"UPDATE ks.u SET v = 'x' WHERE pk = 9", "UPDATE nope.u SET v = 'x' WHERE pk = 9", "ks.u", "nope.u"},
                    {"DELETE FROM ks.u WHERE pk = 9", "DELETE FROM ks.nope WHERE pk = 9", "ks.u", "ks.nope"},
                    {"TRUNCATE ks.u", "TRUNCATE ks.nope", "ks.u", "ks.nope"},
                    {"ALTER TABLE ks.u ADD w int", "ALTER TABLE ks.nope ADD w int", "ks.u", "ks.nope"},
                    {"DROP TABLE ks.u", "DROP TABLE ks.nope", "ks.u", "ks.nope"},
                    {"DROP KEYSPACE ks", "DROP KEYSPACE nope", "keyspace ks", "keyspace nope"},
                    {"CALL dbms_capture_adm.prepare_table_instantiation(table_name => 'ks.u')",
                            "CALL dbms_capture_adm.prepare_table_instantiation(table_name => 'ks.nope')", "ks.u", "ks.nope"}}) {
                TributaryException forbidden = assertThrows(TributaryException.class, () -> alice.execute(pair[0]), pair[0]);
                TributaryException missing = assertThrows(TributaryException.class, () -> alice.execute(pair[1]), pair[1]);
                assertEquals("PERMISSION_DENIED", forbidden.code(), pair[0] + ": " + forbidden.getMessage());
                assertEquals(forbidden.code() + ": " + forbidden.getMessage().replace(pair[2], pair[3]),
                        missing.code() + ": " + missing.getMessage(), pair[1]);
            }
            TributaryException missing = assertThrows(TributaryException.class, () -> bob.execute("SELECT v FROM ks.nope"));
            assertEquals("NOT_FOUND", missing.code(), "bob may read ks: " + missing.getMessage());
        }
        ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
        try {
            ChangeStreamServiceGrpc.ChangeStreamServiceBlockingStub changes = withAuthorization(
                    ChangeStreamServiceGrpc.newBlockingStub(ch), "Bearer " + token(ch, "alice", CANARY));
            for (String[] pair : new String[][] {{"ks.u", "ks.nope"}, {"ks.u", "nope.u"}}) {
                Status forbidden = assertThrows(StatusRuntimeException.class, () -> changes.listStreams(
                        ListStreamsRequest.newBuilder().setTable(pair[0]).build())).getStatus();
                Status missing = assertThrows(StatusRuntimeException.class, () -> changes.listStreams(
                        ListStreamsRequest.newBuilder().setTable(pair[1]).build())).getStatus();
                assertEquals(Status.Code.PERMISSION_DENIED, forbidden.getCode(), forbidden.toString());
                assertEquals(forbidden.getCode() + " " + forbidden.getDescription().replace(pair[0], pair[1]),
                        missing.getCode() + " " + missing.getDescription());
                java.util.Iterator<dev.tributary.protocol.v1.LcrBatch> sub = changes.subscribe(
                        dev.tributary.protocol.v1.SubscribeRequest.newBuilder().setTable(pair[1]).build());
                assertEquals(Status.Code.PERMISSION_DENIED, assertThrows(StatusRuntimeException.class, sub::hasNext)
                        .getStatus().getCode(), "subscribe " + pair[1]);
                dev.tributary.protocol.v1.ConsumerGroupServiceGrpc.ConsumerGroupServiceBlockingStub groups = withAuthorization(
                        dev.tributary.protocol.v1.ConsumerGroupServiceGrpc.newBlockingStub(ch), "Bearer " + token(ch, "alice", CANARY));
                Status[] joined = new Status[2];
                for (int i = 0; i < 2; i++) {
                    String table = pair[i];
                    joined[i] = assertThrows(StatusRuntimeException.class, () -> groups.join(
                            dev.tributary.protocol.v1.JoinRequest.newBuilder().setGroup("g").setMemberId("m1").setLog(
                                    dev.tributary.protocol.v1.GroupLog.newBuilder().setTable(table)).build())).getStatus();
                }
                assertEquals(joined[0].getCode() + " " + joined[0].getDescription().replace(pair[0], pair[1]),
                        joined[1].getCode() + " " + joined[1].getDescription(), "join a group on " + pair[1]);
            }
        } finally {
            ch.shutdownNow();
        }
        String ep = node.nativeEndpoint();
        InetSocketAddress contact = new InetSocketAddress("127.0.0.1", Integer.parseInt(ep.substring(ep.lastIndexOf(':') + 1)));
        try (CqlSession alice = CqlSession.builder().addContactPoint(contact).withLocalDatacenter("datacenter1")
                .withAuthCredentials("alice", CANARY).build()) {
            UnauthorizedException forbidden = assertThrows(UnauthorizedException.class, () -> alice.execute("SELECT v FROM ks.u"));
            UnauthorizedException missing = assertThrows(UnauthorizedException.class, () -> alice.execute("SELECT v FROM ks.nope"));
            assertEquals(forbidden.getMessage().replace("ks.u", "ks.nope"), missing.getMessage());
            assertThrows(UnauthorizedException.class, () -> alice.prepare("SELECT v FROM ks.nope WHERE pk = ?"));
        }
    }

    @Test
    @DisplayName("issue 29 item 8: ListGenerations needs a login like every other call: none, or a bad token, is "
            + "UNAUTHENTICATED; any role that logged in gets the generations")
    void listGenerationsNeedsLogin() {
        try (TributaryClient admin = client("cassandra", SUPERUSER)) {
            admin.execute("CREATE ROLE carol WITH PASSWORD = 'carol-pw' AND LOGIN = true");
        }
        ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
        try {
            for (String auth : new String[] {null, "Bearer t1.forged.token"}) {
                StatusRuntimeException s = assertThrows(StatusRuntimeException.class, () -> withAuthorization(
                        ChangeStreamServiceGrpc.newBlockingStub(ch), auth).listGenerations(
                        dev.tributary.protocol.v1.ListGenerationsRequest.getDefaultInstance()));
                assertEquals(Status.Code.UNAUTHENTICATED, s.getStatus().getCode(), String.valueOf(auth));
            }
            assertTrue(withAuthorization(ChangeStreamServiceGrpc.newBlockingStub(ch), "Bearer " + token(ch, "carol", "carol-pw"))
                    .listGenerations(dev.tributary.protocol.v1.ListGenerationsRequest.getDefaultInstance())
                    .getGenerationsCount() >= 1);
        } finally {
            ch.shutdownNow();
        }
        try (TributaryClient carol = client("carol", "carol-pw"); TributaryClient anonymous = client(null, null)) {
            assertEquals("UNAUTHENTICATED", assertThrows(TributaryException.class, () -> anonymous.execute(
                    "SELECT time FROM system_distributed.cdc_generation_timestamps WHERE key = 'timestamps'")).code());
            assertFalse(carol.execute("SELECT time FROM system_distributed.cdc_generation_timestamps WHERE key = 'timestamps'")
                    .all().isEmpty(), "the generations' table, as every role reads the system keyspaces");
        }
    }

    @Test
    @DisplayName("issue 29 item 9: GRANT role TO role gives the grantee what the role holds, through grants of grants "
            + "(tables, change streams, superuser status), shown in system_auth.roles member_of, LIST ROLES OF and LIST "
            + "PERMISSIONS OF; a grant that exists or would close a cycle is refused; only superusers grant roles; REVOKE "
            + "and DROP ROLE take it back")
    void roleMembership() {
        try (TributaryClient admin = client("cassandra", SUPERUSER)) {
            setUp(admin);
            admin.execute("CREATE ROLE readers");
            admin.execute("CREATE ROLE auditors");
            admin.execute("GRANT SELECT ON TABLE ks.u TO auditors");
            admin.execute("GRANT auditors TO readers");
            try (TributaryClient alice = client("alice", CANARY)) {
                assertEquals("PERMISSION_DENIED", assertThrows(TributaryException.class,
                        () -> alice.execute("SELECT v FROM ks.u WHERE pk = 1")).code());
                assertEquals("PERMISSION_DENIED", assertThrows(TributaryException.class,
                        () -> alice.execute("GRANT readers TO alice")).code(), "only superusers grant roles");
                admin.execute("GRANT readers TO alice");
                assertEquals("hidden", alice.execute("SELECT v FROM ks.u WHERE pk = 1").one().getString("v"),
                        "alice holds readers, readers holds auditors");
                TestNodes.await(() -> alice.execute("SELECT * FROM ks.u_scylla_cdc_log").all().size() == 1,
                        Duration.ofSeconds(20), "alice reads ks.u's CDC log through her roles");
                ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
                try {
                    assertEquals(1, withAuthorization(ChangeStreamServiceGrpc.newBlockingStub(ch), "Bearer " + token(ch, "alice",
                            CANARY)).listStreams(ListStreamsRequest.newBuilder().setTable("ks.u").build()).getLineagesCount());
                } finally {
                    ch.shutdownNow();
                }
                assertEquals("PERMISSION_DENIED", assertThrows(TributaryException.class,
                        () -> alice.execute("INSERT INTO ks.u (pk, v) VALUES (7, 'x')")).code(), "SELECT only");

                java.util.Map<String, Object> memberOf = new java.util.TreeMap<>();
                for (dev.tributary.client.Row r : admin.execute("SELECT role, member_of FROM system_auth.roles").all()) {
                    memberOf.put(r.getString("role"), r.isNull("member_of") ? null : r.getObject("member_of"));
                }
                java.util.Map<String, Object> want = new java.util.TreeMap<>();
                want.put("alice", java.util.Set.of("readers"));
                want.put("auditors", null);
                want.put("cassandra", null);
                want.put("readers", java.util.Set.of("auditors"));
                assertEquals(want.toString(), memberOf.toString());
                assertEquals(List.of("alice", "auditors", "readers"), alice.execute("LIST ROLES OF alice").all().stream()
                        .map(r -> r.getString("role")).sorted().toList(), "a role lists what it holds");
                assertEquals(List.of("alice", "readers"), admin.execute("LIST ROLES OF alice NORECURSIVE").all().stream()
                        .map(r -> r.getString("role")).sorted().toList());
                assertEquals(List.of("alice|<table ks.t>|SELECT", "auditors|<table ks.u>|SELECT"), admin.execute(
                        "LIST ALL PERMISSIONS OF alice").all().stream().map(r -> r.getString("role") + "|"
                        + r.getString("resource") + "|" + r.getString("permission")).sorted().toList());

                for (String[] refused : new String[][] {{"GRANT readers TO alice", "alice is a member of readers"},
                        {"GRANT auditors TO alice", "alice is a member of auditors"},
                        {"GRANT alice TO auditors", "alice is a member of auditors"},
                        {"GRANT readers TO readers", "readers is a member of readers"},
                        {"REVOKE auditors FROM alice", "alice is not a member of auditors"}}) {
                    TributaryException e = assertThrows(TributaryException.class, () -> admin.execute(refused[0]), refused[0]);
                    assertEquals("INVALID_REQUEST: " + refused[1], e.code() + ": " + e.getMessage(), refused[0]);
                }
                assertEquals("NOT_FOUND", assertThrows(TributaryException.class,
                        () -> admin.execute("GRANT nobody TO alice")).code());

                admin.execute("REVOKE readers FROM alice");
                awaitRefused(() -> alice.execute("SELECT v FROM ks.u WHERE pk = 1"), "the revoke to reach the role cache");
                admin.execute("GRANT auditors TO alice");
                assertEquals("hidden", alice.execute("SELECT v FROM ks.u WHERE pk = 1").one().getString("v"));
                admin.execute("DROP ROLE auditors");
                assertTrue(admin.execute("SELECT member_of FROM system_auth.roles WHERE role = 'alice'").one().isNull("member_of"),
                        "a dropped role leaves its members");
                assertTrue(admin.execute("SELECT member_of FROM system_auth.roles WHERE role = 'readers'").one().isNull("member_of"));
                admin.execute("CREATE ROLE auditors");
                awaitRefused(() -> alice.execute("SELECT v FROM ks.u WHERE pk = 1"),
                        "a role made again under a dropped one's name to give nothing");
            }
        }
    }

    @Test
    @DisplayName("two nodes: a token one node issued works on the other; a role's writes sent on to their owner and a "
            + "read gathered from both nodes run as that role (forwarded with the peer secret, checked again on arrival)")
    void twoNodes() throws Exception {
        TributaryNode n2 = cluster.start("n2");
        try (TributaryClient admin = client("cassandra", SUPERUSER)) {
            TestNodes.awaitGenerationInForce(n2);
            setUp(admin);
            admin.execute("GRANT MODIFY ON TABLE ks.t TO alice");
            ManagedChannel ch1 = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
            ManagedChannel ch2 = ManagedChannelBuilder.forTarget(n2.endpoint()).usePlaintext().build();
            try {
                String token = "Bearer " + token(ch1, "alice", CANARY);
                CqlServiceGrpc.CqlServiceBlockingStub one = withAuthorization(CqlServiceGrpc.newBlockingStub(ch1), token);
                CqlServiceGrpc.CqlServiceBlockingStub two = withAuthorization(CqlServiceGrpc.newBlockingStub(ch2), token);
                for (int i = 10; i < 110; i++) { // about half are owned by n2: sent on to it
                    one.execute(ExecuteRequest.newBuilder().setStatement("INSERT INTO ks.t (pk, v) VALUES (" + i + ", 'a')")
                            .setSession(SessionState.newBuilder().setUsername("mallory")).build());
                }
                assertEquals(101, two.execute(ExecuteRequest.newBuilder().setStatement("SELECT count(*) FROM ks.t")
                        .setSession(SessionState.newBuilder()).build()).getRows(0).getValues(0).getInteger());
                StatusRuntimeException denied = assertThrows(StatusRuntimeException.class, () -> two.execute(
                        ExecuteRequest.newBuilder().setStatement("INSERT INTO ks.u (pk, v) VALUES (5, 'x')")
                                .setSession(SessionState.newBuilder()).build()));
                assertEquals(Status.Code.PERMISSION_DENIED, denied.getStatus().getCode());
                // every write reached its owner's log, the forwarded ones checked there as alice (not "mallory")
                TestNodes.await(() -> admin.execute("SELECT * FROM ks.t_scylla_cdc_log").all().size() == 101,
                        Duration.ofSeconds(20), "the 101 LCRs of ks.t");
            } finally {
                ch1.shutdownNow();
                ch2.shutdownNow();
            }
        }
    }

    @Test
    @DisplayName("the native port asks for PasswordAuthenticator credentials: a driver with the right ones works, with "
            + "wrong ones fails to connect; a role without SELECT gets Unauthorized")
    void nativeProtocol() {
        try (TributaryClient admin = client("cassandra", SUPERUSER)) {
            setUp(admin);
        }
        String ep = node.nativeEndpoint();
        InetSocketAddress contact = new InetSocketAddress("127.0.0.1", Integer.parseInt(ep.substring(ep.lastIndexOf(':') + 1)));
        AllNodesFailedException refused = assertThrows(AllNodesFailedException.class, () -> CqlSession.builder()
                .addContactPoint(contact).withLocalDatacenter("datacenter1").withAuthCredentials("alice", "wrong").build());
        assertTrue(refused.getAllErrors().values().stream().flatMap(List::stream)
                .allMatch(e -> e instanceof AuthenticationException && !e.getMessage().contains("wrong")), refused.toString());
        AllNodesFailedException none = assertThrows(AllNodesFailedException.class, () -> CqlSession.builder()
                .addContactPoint(contact).withLocalDatacenter("datacenter1").build());
        assertTrue(none.getAllErrors().values().stream().flatMap(List::stream)
                .allMatch(e -> e instanceof AuthenticationException), none.toString());
        try (CqlSession alice = CqlSession.builder().addContactPoint(contact).withLocalDatacenter("datacenter1")
                .withAuthCredentials("alice", CANARY).build()) {
            assertEquals("readable", alice.execute("SELECT v FROM ks.t WHERE pk = 1").one().getString("v"));
            UnauthorizedException e = assertThrows(UnauthorizedException.class, () -> alice.execute("SELECT v FROM ks.u"));
            assertTrue(e.getMessage().contains("SELECT permission on <table ks.u>"), e.getMessage());
            assertThrows(UnauthorizedException.class, () -> alice.execute("INSERT INTO ks.t (pk, v) VALUES (5, 'x')"));
        }
        try (CqlSession admin = CqlSession.builder().addContactPoint(contact).withLocalDatacenter("datacenter1")
                .withAuthCredentials("cassandra", SUPERUSER).build()) {
            admin.execute("INSERT INTO ks.t (pk, v) VALUES (5, 'by cassandra')");
            assertEquals(2, admin.execute("SELECT * FROM ks.t").all().size());
        }
    }

    @Test
    @DisplayName("X5: a canary password appears in no log line, no view, no LIST output and no error, however the "
            + "statement that carries it is mistyped")
    void canary() {
        try (TributaryClient admin = client("cassandra", SUPERUSER)) {
            setUp(admin);
            StringBuilder seen = new StringBuilder();
            for (dev.tributary.client.Row r : admin.execute("SELECT * FROM system_auth.roles").all()) {
                seen.append(r).append('\n');
                if (r.getString("role").equals("alice")) {
                    assertTrue(r.getString("salted_hash").startsWith("$2a$10$"), r.getString("salted_hash"));
                }
            }
            admin.execute("LIST ROLES").all().forEach(r -> seen.append(r).append('\n'));
            admin.execute("LIST ALL PERMISSIONS").all().forEach(r -> seen.append(r).append('\n'));
            for (String bad : List.of("CREATE ROLE bob WITH PASSWORD = '" + CANARY + "' AND LOGIN = maybe",
                    "CREATE ROLE bob WITH PASSWORD '" + CANARY + "'", "CREATE ROLE alice WITH PASSWORD = '" + CANARY + "'",
                    "ALTER ROLE nobody WITH PASSWORD = '" + CANARY + "'", "ALTER ROLE alice WITH PASSWORD = '" + CANARY
                            + "' AND PASSWORD = '" + CANARY + "'",
                    "CREATE ROLE carol WITH PASSWORD = '" + CANARY + CANARY + CANARY + CANARY + CANARY + CANARY + "'",
                    "CREATE DATABASE LINK l CONNECT TO alice IDENTIFIED BY '" + CANARY + "' USNG '127.0.0.1:1'")) {
                TributaryException e = assertThrows(TributaryException.class, () -> admin.execute(bad), bad);
                seen.append(e.getMessage()).append('\n');
            }
            try (TributaryClient wrong = client("alice", CANARY + "x")) {
                seen.append(assertThrows(TributaryException.class, () -> wrong.execute("SELECT * FROM ks.t")).getMessage());
            }
            assertFalse(seen.toString().contains(CANARY), seen.toString());
        }
        for (ILoggingEvent e : logs.list) {
            String line = e.getFormattedMessage() + (e.getThrowableProxy() == null ? "" : e.getThrowableProxy().getMessage());
            assertFalse(line.contains(CANARY), "logged: " + line);
        }
        assertTrue(logs.list.size() > 0, "the log was captured");
    }
}
