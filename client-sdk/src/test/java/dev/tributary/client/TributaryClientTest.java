package dev.tributary.client;

import static dev.tributary.client.TestNode.column;
import static dev.tributary.client.TestNode.error;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.client.errors.InvalidQueryException;
import dev.tributary.client.errors.NoCdcStreamException;
import dev.tributary.client.errors.RequestTimeoutException;
import dev.tributary.client.errors.SyntaxErrorException;
import dev.tributary.client.errors.UnavailableException;
import dev.tributary.client.errors.ValueConversionException;
import dev.tributary.protocol.v1.BatchRequest;
import dev.tributary.protocol.v1.BatchStatement;
import dev.tributary.protocol.v1.ExecutePreparedRequest;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.PrepareRequest;
import dev.tributary.protocol.v1.PrepareResponse;
import dev.tributary.protocol.v1.SessionState;
import dev.tributary.protocol.v1.Value;
import io.grpc.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class TributaryClientTest {
    private TestNode node;
    private TributaryClient client;

    @BeforeEach
    void start() {
        node = TestNode.start("n1");
        client = TributaryClient.builder().channel("n1", node.channel()).username("alice").build();
    }

    @AfterEach
    void stop() {
        client.close();
        node.close();
    }

    @Test
    void executeSendsTheStatementValuesAndSession() {
        client.execute("INSERT INTO ks.t (k, v) VALUES (?, ?)", 7, "seven");
        ExecuteRequest r = node.requestsOf(ExecuteRequest.class).get(0);
        assertEquals("INSERT INTO ks.t (k, v) VALUES (?, ?)", r.getStatement());
        assertEquals(List.of(Value.newBuilder().setInteger(7).build(), Value.newBuilder().setText("seven").build()),
                r.getBoundValuesList());
        assertEquals("alice", r.getSession().getUsername());
        assertEquals(client.session().sessionId(), r.getSession().getSessionId());
        assertEquals("", r.getSession().getKeyspace());
        assertFalse(r.getSession().getHasTag());
        assertFalse(r.getIdempotencyKey().isBlank());
    }

    @Test
    void everyRequestGetsItsOwnIdempotencyKey() {
        client.execute("SELECT 1");
        client.execute("SELECT 1");
        List<ExecuteRequest> rs = node.requestsOf(ExecuteRequest.class);
        assertNotEquals(rs.get(0).getIdempotencyKey(), rs.get(1).getIdempotencyKey());
    }

    @Test
    void useChangesTheKeyspaceOfThatSessionOnly() {
        node.onExecute = r -> ExecuteResponse.newBuilder()
                .setSession(r.getSession().toBuilder().setKeyspace(r.getStatement().startsWith("USE") ? "shop" : r.getSession().getKeyspace()))
                .build();
        Session other = client.newSession();
        client.execute("USE shop");
        assertEquals("shop", client.session().keyspace());
        assertNull(other.keyspace());
        client.execute("SELECT * FROM items");
        other.execute("SELECT * FROM items");
        List<ExecuteRequest> rs = node.requestsOf(ExecuteRequest.class);
        assertEquals("shop", rs.get(1).getSession().getKeyspace());
        assertEquals("", rs.get(2).getSession().getKeyspace());
        assertNotEquals(rs.get(1).getSession().getSessionId(), rs.get(2).getSession().getSessionId());
    }

    @Test
    void anAnswerWithoutSessionLeavesTheSessionAlone() {
        node.onExecute = r -> ExecuteResponse.newBuilder().setSession(SessionState.newBuilder().setKeyspace("ks")).build();
        client.execute("USE ks");
        node.onExecute = r -> ExecuteResponse.getDefaultInstance();
        client.execute("INSERT INTO t (k) VALUES (1)");
        assertEquals("ks", client.session().keyspace());
    }

    @Test
    void theSessionTagTravelsWithEveryStatement() {
        Session s = client.session();
        assertNull(s.getTag());
        byte[] tag = {0x1d, 0x00};
        s.setTag(tag);
        tag[0] = 0;
        assertArrayEquals(new byte[] {0x1d, 0x00}, s.getTag());
        client.execute("INSERT INTO ks.t (k) VALUES (1)");
        s.setTag(null);
        client.execute("INSERT INTO ks.t (k) VALUES (2)");
        List<ExecuteRequest> rs = node.requestsOf(ExecuteRequest.class);
        assertTrue(rs.get(0).getSession().getHasTag());
        assertEquals(ByteString.copyFrom(new byte[] {0x1d, 0x00}), rs.get(0).getSession().getTag());
        assertFalse(rs.get(1).getSession().getHasTag());
    }

    @Test
    void setTagThroughCallIsTakenFromTheAnswer() {
        node.onExecute = r -> ExecuteResponse.newBuilder().setSession(r.getSession().toBuilder()
                .setHasTag(true).setTag(ByteString.copyFrom(new byte[] {0x11}))).build();
        client.execute("CALL dbms_streams.set_tag(tag => 0x11)");
        assertArrayEquals(new byte[] {0x11}, client.session().getTag());
    }

    @Test
    void sessionNumbersAreUnique() {
        Set<Long> ids = new HashSet<>();
        ids.add(client.session().sessionId());
        for (int i = 0; i < 100; i++) {
            ids.add(client.newSession().sessionId());
        }
        assertEquals(101, ids.size());
    }

    @Test
    void rowsAreReadWithTheirColumnTypes() {
        node.onExecute = r -> ExecuteResponse.newBuilder().setHasRows(true)
                .addColumns(column("k", "int")).addColumns(column("ts", "timestamp")).addColumns(column("tags", "set<text>"))
                .addRows(dev.tributary.protocol.v1.Row.newBuilder()
                        .addValues(Value.newBuilder().setInteger(1))
                        .addValues(Value.newBuilder().setTimestampMillis(1585140283006L))
                        .addValues(Value.newBuilder().setCollection(dev.tributary.protocol.v1.CollectionValue.newBuilder()
                                .addElements(Value.newBuilder().setText("a")))))
                .addWarnings("scan")
                .build();
        ResultSet rs = client.execute("SELECT k, ts, tags FROM ks.t");
        assertTrue(rs.hasRows());
        assertEquals(List.of("k", "ts", "tags"), rs.columns().stream().map(ColumnDefinition::name).toList());
        Row row = rs.one();
        assertEquals(1, row.getInt("k"));
        assertEquals(Instant.parse("2020-03-25T12:44:43.006Z"), row.getInstant("ts"));
        assertEquals(Set.of("a"), row.getSet("tags", String.class));
        assertEquals(List.of("scan"), rs.warnings());
        assertEquals("{\"k\":1,\"ts\":\"2020-03-25T12:44:43.006Z\",\"tags\":[\"a\"]}", row.toJson());
    }

    @Test
    void writesReportTheirCommitScnAndTransaction() {
        node.onExecute = r -> ExecuteResponse.newBuilder().setCommitScn(1234).setTransactionId("1.2.3").build();
        ResultSet rs = client.execute("INSERT INTO ks.t (k) VALUES (1)");
        assertFalse(rs.hasRows());
        assertEquals(1234, rs.commitScn());
        assertEquals("1.2.3", rs.transactionId());
        assertNull(rs.one());
    }

    @Test
    void preparedStatementsBindWithTheMarkerTypes() {
        node.onPrepare = r -> PrepareResponse.newBuilder().setStatementId("p1")
                .addBindMarkers(column("k", "tinyint")).addBindMarkers(column("v", "list<bigint>")).build();
        PreparedStatement ps = client.prepare("INSERT INTO ks.t (k, v) VALUES (?, ?)");
        assertEquals("p1", ps.id());
        assertEquals(List.of(new ColumnDefinition("k", "tinyint"), new ColumnDefinition("v", "list<bigint>")), ps.bindMarkers());
        client.execute(ps.bind(5, List.of(1, 2)));
        ExecutePreparedRequest r = node.requestsOf(ExecutePreparedRequest.class).get(0);
        assertEquals("p1", r.getStatementId());
        assertEquals("INSERT INTO ks.t (k, v) VALUES (?, ?)", r.getStatement());
        assertEquals(5, r.getBoundValues(0).getInteger());
        assertEquals(2, r.getBoundValues(1).getCollection().getElements(1).getInteger());
        assertEquals("alice", node.requestsOf(PrepareRequest.class).get(0).getSession().getUsername());

        ValueConversionException range = assertThrows(ValueConversionException.class, () -> ps.bind(200, List.of()));
        assertTrue(range.getMessage().contains("bind marker 0 (k)"), range.getMessage());
        assertThrows(ValueConversionException.class, () -> ps.bind(1));
    }

    @Test
    void aFixedIdempotencyKeyIsSentAsGiven() {
        node.onPrepare = r -> PrepareResponse.newBuilder().setStatementId("p1").addBindMarkers(column("k", "int")).build();
        BoundStatement b = client.prepare("INSERT INTO ks.t (k) VALUES (?)").bind(1).withIdempotencyKey("write-1");
        client.execute(b);
        client.execute(b);
        List<ExecutePreparedRequest> rs = node.requestsOf(ExecutePreparedRequest.class);
        assertEquals("write-1", rs.get(0).getIdempotencyKey());
        assertEquals("write-1", rs.get(1).getIdempotencyKey());
    }

    @Test
    void aBatchIsOneRequest() {
        node.onPrepare = r -> PrepareResponse.newBuilder().setStatementId("p1").addBindMarkers(column("k", "int")).build();
        node.onBatch = r -> ExecuteResponse.newBuilder().setCommitScn(99).setTransactionId("tx-9").build();
        PreparedStatement ps = client.prepare("DELETE FROM ks.t WHERE k = ?");
        ResultSet rs = client.batch()
                .add("INSERT INTO ks.t (k, v) VALUES (?, ?)", 1, "a")
                .add(ps.bind(2))
                .add("UPDATE ks.t SET v = 'b' WHERE k = 3")
                .add(ps.bind(4))
                .execute();
        assertEquals(99, rs.commitScn());
        assertEquals("tx-9", rs.transactionId());
        List<BatchRequest> batches = node.requestsOf(BatchRequest.class);
        assertEquals(1, batches.size());
        BatchRequest b = batches.get(0);
        assertEquals(4, b.getStatementsCount());
        // each distinct text is sent once; the statements name it by index
        assertEquals(List.of("INSERT INTO ks.t (k, v) VALUES (?, ?)", "DELETE FROM ks.t WHERE k = ?",
                "UPDATE ks.t SET v = 'b' WHERE k = 3"), b.getStatementTextsList());
        assertEquals(List.of(0, 1, 2, 1), b.getStatementsList().stream().map(BatchStatement::getTextIndex).toList());
        assertTrue(b.getStatementsList().stream().allMatch(st -> st.getStatement().isEmpty()));
        assertEquals(2, b.getStatements(1).getBoundValues(0).getInteger());
        assertEquals(4, b.getStatements(3).getBoundValues(0).getInteger());
        assertEquals(0, b.getStatements(2).getBoundValuesCount());
        assertFalse(b.getIdempotencyKey().isBlank());
        assertThrows(IllegalStateException.class, () -> client.batch().build());
    }

    @Test
    void serverErrorsArriveTyped() {
        node.onExecute = r -> {
            throw error(Status.Code.INVALID_ARGUMENT, "SYNTAX_ERROR", "line 1:7 no viable alternative at 'FORM'");
        };
        SyntaxErrorException e = assertThrows(SyntaxErrorException.class, () -> client.execute("SELECT * FORM t"));
        assertEquals("SYNTAX_ERROR", e.code());
        assertEquals("line 1:7 no viable alternative at 'FORM'", e.getMessage());

        node.onExecute = r -> {
            throw error(Status.Code.FAILED_PRECONDITION, "NO_CDC_STREAM", "could not find any CDC stream");
        };
        assertThrows(NoCdcStreamException.class, () -> client.execute("INSERT INTO ks.t (k) VALUES (1)"));

        node.onExecute = r -> {
            throw error(Status.Code.INVALID_ARGUMENT, null, "no keyspace");
        };
        InvalidQueryException iq = assertThrows(InvalidQueryException.class, () -> client.execute("SELECT * FROM t"));
        assertEquals("INVALID_ARGUMENT", iq.code());
    }

    @Test
    void anUnreachableEndpointIsSkippedAndTheGoodOneRemembered() {
        TestNode second = TestNode.start("n2");
        try (TributaryClient c = TributaryClient.builder()
                .channel("dead", TestNode.deadChannel()).channel("n2", second.channel()).build()) {
            c.execute("SELECT 1");
            c.execute("SELECT 2");
            assertEquals(2, second.requestsOf(ExecuteRequest.class).size());
        } finally {
            second.close();
        }
    }

    @Test
    void aNodeAnsweringUnavailableIsRetriedElsewhereWithTheSameKey() {
        TestNode second = TestNode.start("n2");
        node.onExecute = r -> {
            throw error(Status.Code.UNAVAILABLE, "UNAVAILABLE", "node is shutting down");
        };
        try (TributaryClient c = TributaryClient.builder()
                .channel("n1", node.channel()).channel("n2", second.channel()).build()) {
            c.execute("INSERT INTO ks.t (k) VALUES (1)");
            String first = node.requestsOf(ExecuteRequest.class).get(0).getIdempotencyKey();
            String retried = second.requestsOf(ExecuteRequest.class).get(0).getIdempotencyKey();
            assertEquals(first, retried);
        } finally {
            second.close();
        }
    }

    @Test
    void otherErrorsAreNotRetriedElsewhere() {
        TestNode second = TestNode.start("n2");
        node.onExecute = r -> {
            throw error(Status.Code.INVALID_ARGUMENT, "SYNTAX_ERROR", "bad");
        };
        try (TributaryClient c = TributaryClient.builder()
                .channel("n1", node.channel()).channel("n2", second.channel()).build()) {
            assertThrows(SyntaxErrorException.class, () -> c.execute("SELEKT"));
            assertEquals(0, second.requestsOf(ExecuteRequest.class).size());
        } finally {
            second.close();
        }
    }

    @Test
    void whenNoEndpointCanServeTheErrorNamesThemAll() {
        try (TributaryClient c = TributaryClient.builder()
                .channel("a:1", TestNode.deadChannel()).channel("b:2", TestNode.deadChannel()).build()) {
            UnavailableException e = assertThrows(UnavailableException.class, () -> c.execute("SELECT 1"));
            assertEquals(List.of("a:1", "b:2"), e.endpointsTried());
            assertEquals("UNAVAILABLE", e.code());
            // each endpoint with its own answer
            assertTrue(e.getMessage().matches("no node could serve the request \\(tried a:1: .+; b:2: .+\\)"), e.getMessage());
        }
    }

    @Test
    void aSlowAnswerTimesOutWithTheKeyToRetryWith() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        node.onExecute = r -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ExecuteResponse.getDefaultInstance();
        };
        try (TributaryClient c = TributaryClient.builder().channel("n1", node.channel())
                .requestTimeout(Duration.ofMillis(200)).build()) {
            RequestTimeoutException e = assertThrows(RequestTimeoutException.class, () -> c.execute("INSERT INTO ks.t (k) VALUES (1)"));
            assertEquals("DEADLINE_EXCEEDED", e.code());
            assertEquals(node.requestsOf(ExecuteRequest.class).get(0).getIdempotencyKey(), e.idempotencyKey());
        } finally {
            release.countDown();
        }
    }

    @Test
    void aClosedClientRefusesWork() {
        client.close();
        assertThrows(IllegalStateException.class, () -> client.execute("SELECT 1"));
        client.close();
    }

    @Test
    void endpointsMustBeHostAndPort() {
        assertThrows(IllegalArgumentException.class, () -> TributaryClient.builder().endpoints("localhost"));
        assertThrows(IllegalArgumentException.class, () -> TributaryClient.builder().endpoints("h:0"));
        assertThrows(IllegalArgumentException.class, () -> TributaryClient.builder().endpoints("::1:9160"));
        assertThrows(IllegalStateException.class, () -> TributaryClient.builder().build());
        assertEquals(new TributaryClient.HostPort("::1", 9160), TributaryClient.HostPort.parse("[::1]:9160"));
        assertEquals(new TributaryClient.HostPort("127.0.0.1", 9160), TributaryClient.HostPort.parse(" 127.0.0.1:9160 "));
    }
}
