package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.client.ResultSet;
import dev.tributary.client.Row;
import dev.tributary.client.TributaryClient;
import dev.tributary.node.net.ErrorMapping;
import dev.tributary.protocol.v1.BatchRequest;
import dev.tributary.protocol.v1.BatchStatement;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.SessionState;
import dev.tributary.protocol.v1.Value;
import io.grpc.CallOptions;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Bad input gets a clear error and loses nothing: the node stays up, committed data stays intact. */
@Timeout(120)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputIT {
    /** Everything this test draws at random (its garbage, the node's host id, tokens and stream ids) comes from here. */
    final long seed = Long.getLong("tributary.badinput.seed", System.nanoTime());
    TributaryNode node;
    TestNodes.Wire w;

    @BeforeAll
    void start(@TempDir Path dir) {
        System.out.println("BadInputIT seed=" + seed + " (replay with -Dtributary.badinput.seed=" + seed + ")");
        node = TestNodes.startOperatingSeeded(dir, seed);
        w = new TestNodes.Wire(node);
        w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        w.exec("CREATE TABLE ks.t (pk int, ck text, v int, b blob, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
        w.exec("INSERT INTO ks.t (pk, ck, v) VALUES (1, 'a', 1)");
    }

    @AfterAll
    void stop() {
        w.close();
        node.close();
    }

    private StatusRuntimeException fails(String statement) {
        return assertThrows(StatusRuntimeException.class, () -> w.exec(statement), statement);
    }

    private static String code(StatusRuntimeException e) {
        return e.getTrailers() == null ? null : e.getTrailers().get(ErrorMapping.ERROR_CODE);
    }

    private void stillIntact() {
        assertEquals(1, w.exec("SELECT * FROM ks.t WHERE pk = 1").getRowsCount());
    }

    @Test
    void syntaxErrorsNameLineColumnAndToken() {
        StatusRuntimeException e = fails("SELECT * FORM ks.t");
        assertEquals("SYNTAX_ERROR", code(e));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        String m = e.getStatus().getDescription();
        assertTrue(m.contains("line 1:10") && m.contains("FORM"), m);
        StatusRuntimeException multi = fails("INSERT INTO ks.t (pk, ck, v)\nVALUES (1, 'x' 2)");
        assertTrue(multi.getStatus().getDescription().contains("line 2:"), multi.getStatus().getDescription());
        stillIntact();
    }

    @Test
    void aReplicationFactorAboveTheNodeCountRefusesWritesNotTheKeyspace() {
        // Scylla lets the keyspace be created and refuses the write it cannot place.
        w.exec("CREATE KEYSPACE rf3 WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 3}");
        w.exec("CREATE TABLE rf3.t (pk int PRIMARY KEY, v int)");
        StatusRuntimeException e = fails("INSERT INTO rf3.t (pk, v) VALUES (1, 1)");
        assertEquals("UNAVAILABLE", code(e));
        assertEquals("Cannot achieve replication_factor 3 for keyspace rf3: the cluster has 1 node, and each replica "
                + "needs a node of its own", e.getStatus().getDescription());
        assertEquals(0, w.exec("SELECT * FROM rf3.t").getRowsCount());
        StatusRuntimeException bad = fails("CREATE KEYSPACE rfx WITH replication = {'class': 'SimpleStrategy', "
                + "'replication_factor': 'three'}");
        assertEquals("INVALID_REQUEST", code(bad));
        assertTrue(bad.getStatus().getDescription().contains("'replication_factor' must be a whole number from 1 up, got "
                + "'three'"), bad.getStatus().getDescription());
        stillIntact();
    }

    @Test
    void unknownObjectsAreNamed() {
        StatusRuntimeException ks = fails("SELECT * FROM nope.t");
        assertEquals("NOT_FOUND", code(ks));
        assertTrue(ks.getStatus().getDescription().contains("nope"), ks.getStatus().getDescription());
        StatusRuntimeException t = fails("INSERT INTO ks.missing (pk) VALUES (1)");
        assertEquals("NOT_FOUND", code(t));
        assertTrue(t.getStatus().getDescription().contains("missing"));
        StatusRuntimeException c = fails("INSERT INTO ks.t (pk, ck, nosuch) VALUES (1, 'a', 1)");
        assertEquals("NOT_FOUND", code(c));
        assertTrue(c.getStatus().getDescription().contains("nosuch"));
        stillIntact();
    }

    @Test
    @org.junit.jupiter.api.DisplayName("RELIABILITY P3: an unknown table, queue or stream of a change stream and an unknown "
            + "consumer group are NOT_FOUND, naming what was not found")
    void unknownStreamsAndGroupsAreNamed() {
        var changes = dev.tributary.protocol.v1.ChangeStreamServiceGrpc.newBlockingStub(w.channel);
        var groups = dev.tributary.protocol.v1.ConsumerGroupServiceGrpc.newBlockingStub(w.channel);
        java.util.Map<String, Runnable> calls = new java.util.LinkedHashMap<>();
        calls.put("ks.nosuch", () -> changes.listStreams(dev.tributary.protocol.v1.ListStreamsRequest.newBuilder()
                .setTable("ks.nosuch").build()));
        calls.put("noqueue", () -> changes.listStreams(dev.tributary.protocol.v1.ListStreamsRequest.newBuilder()
                .setQueue("noqueue").build()));
        calls.put("ks.absent", () -> changes.readStream(dev.tributary.protocol.v1.ReadStreamRequest.newBuilder()
                .setTable("ks.absent").setStreamId(com.google.protobuf.ByteString.copyFrom(new byte[16])).build()).hasNext());
        byte[] stream = new byte[16];
        java.util.Arrays.fill(stream, (byte) 0x5a);
        calls.put(java.util.HexFormat.of().formatHex(stream), () -> changes.readStream(dev.tributary.protocol.v1.ReadStreamRequest
                .newBuilder().setTable("ks.t").setStreamId(com.google.protobuf.ByteString.copyFrom(stream)).build()).hasNext());
        calls.put("nogroup", () -> groups.fetchPositions(dev.tributary.protocol.v1.FetchPositionsRequest.newBuilder()
                .setGroup("nogroup").build()));
        calls.put("ghostgroup", () -> groups.heartbeat(dev.tributary.protocol.v1.HeartbeatRequest.newBuilder()
                .setGroup("ghostgroup").setMemberId("m").build()));
        calls.forEach((name, call) -> {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::run, name);
            assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode(), name + ": " + e.getStatus());
            assertTrue(e.getStatus().getDescription() != null && e.getStatus().getDescription().contains(name),
                    name + " named in: " + e.getStatus().getDescription());
        });
        stillIntact();
    }

    @Test
    void wrongTypesAndMissingKeys() {
        StatusRuntimeException type = fails("INSERT INTO ks.t (pk, ck, v) VALUES (1, 'a', 'text')");
        assertEquals("INVALID_REQUEST", code(type));
        assertTrue(type.getStatus().getDescription().contains("v"), type.getStatus().getDescription());
        StatusRuntimeException range = fails("INSERT INTO ks.t (pk, ck, v) VALUES (3000000000, 'a', 1)");
        assertEquals("INVALID_REQUEST", code(range));
        StatusRuntimeException key = fails("INSERT INTO ks.t (pk, v) VALUES (1, 1)");
        assertTrue(key.getStatus().getDescription().contains("ck"), key.getStatus().getDescription());
        StatusRuntimeException filtering = fails("SELECT * FROM ks.t WHERE v = 1");
        assertTrue(filtering.getStatus().getDescription().contains("ALLOW FILTERING"));
        assertEquals(1, w.exec("SELECT * FROM ks.t WHERE v = 1 ALLOW FILTERING").getRowsCount());
        stillIntact();
    }

    @Test
    @org.junit.jupiter.api.DisplayName("CDC-GEN-9: a write whose timestamp is far from the node's clock is rejected, saying by how much")
    void oversizedValuesAndTimestampsOutOfRange() {
        String hex = "0x" + "ab".repeat(17 * 1024 * 1024 / 2 + 8);
        StatusRuntimeException big = fails("INSERT INTO ks.t (pk, ck, b) VALUES (1, 'big', " + hex + ")");
        assertTrue(big.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED, big.getStatus().toString());
        long future = (System.currentTimeMillis() + 3_600_000L) * 1000;
        StatusRuntimeException ts = fails("INSERT INTO ks.t (pk, ck, v) VALUES (1, 'f', 1) USING TIMESTAMP " + future);
        assertEquals("WRITE_TIMESTAMP_OUT_OF_RANGE", code(ts));
        assertTrue(ts.getStatus().getDescription().contains("ahead of"), ts.getStatus().getDescription());
        stillIntact();
    }

    @Test
    @DisplayName("RELIABILITY P2: requests above the node's limits (a message above the gRPC limit, as statement text and as "
            + "a bound value, and a value above --max-value-bytes in a message under it) are refused with RESOURCE_EXHAUSTED "
            + "while a client on a connection of its own writes and reads on: every one of its operations succeeds and "
            + "every write it had acknowledged is in the table")
    void oversizedMessagesLeaveOtherClientsUnaffected() throws Exception {
        w.exec("CREATE TABLE ks.p2 (pk int, ck int, v text, PRIMARY KEY (pk, ck))");
        int limit = node.config().maxValueBytes();
        // the gRPC limit is the value limit plus 1 MB for the rest of the request: these are above it
        String text = "INSERT INTO ks.t (pk, ck, b) VALUES (1, 'big', 0x" + "ab".repeat(limit / 2 + 1024 * 1024) + ")";
        Value overMessage = Value.newBuilder().setBlob(ByteString.copyFrom(new byte[limit + 1024 * 1024 + 1])).build();
        // and this message fits, but its value does not
        Value overValue = Value.newBuilder().setBlob(ByteString.copyFrom(new byte[limit + 1])).build();
        String bound = "INSERT INTO ks.t (pk, ck, b) VALUES (1, 'big', ?)";
        SessionState session = SessionState.newBuilder().setUsername("offender").build();
        // each request with what its refusal says: which of the two limits refused it
        Map<ExecuteRequest, String> oversized = Map.of(
                ExecuteRequest.newBuilder().setSession(session).setStatement(text).build(), "gRPC message exceeds maximum size",
                ExecuteRequest.newBuilder().setSession(session).setStatement(bound).addBoundValues(overMessage).build(),
                "gRPC message exceeds maximum size",
                ExecuteRequest.newBuilder().setSession(session).setStatement(bound).addBoundValues(overValue).build(),
                "is " + (limit + 1) + " bytes; the largest allowed is " + limit + " bytes (--max-value-bytes)");

        // failoverWindow zero: an UNAVAILABLE is not retried out of sight, it fails the operation
        try (TributaryClient other = TributaryClient.builder().endpoints(node.endpoint()).requestTimeout(Duration.ofSeconds(30))
                .failoverWindow(Duration.ZERO).build()) {
            AtomicInteger acknowledged = new AtomicInteger();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                try {
                    for (int i = 0; !stop.get(); i++) {
                        other.execute("INSERT INTO ks.p2 (pk, ck, v) VALUES (?, ?, ?)", i % 8, i, "v" + i);
                        ResultSet r = other.execute("SELECT v FROM ks.p2 WHERE pk = ? AND ck = ?", i % 8, i);
                        if (r.size() != 1 || !r.one().getString("v").equals("v" + i)) {
                            throw new AssertionError("row " + i + " read back as " + r.all());
                        }
                        acknowledged.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failed.set(t);
                }
            }, "p2-other-client");
            writer.start();
            try {
                for (int round = 0; round < 3; round++) {
                    for (Map.Entry<ExecuteRequest, String> big : oversized.entrySet()) {
                        int before = acknowledged.get();
                        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> w.cql
                                .withDeadlineAfter(60, TimeUnit.SECONDS).execute(big.getKey()));
                        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode(), e.getStatus().toString());
                        assertTrue(e.getStatus().getDescription().contains(big.getValue()), e.getStatus().toString());
                        // the other client made progress across this refusal before the next is sent
                        TestNodes.await(() -> acknowledged.get() > before || failed.get() != null, Duration.ofSeconds(10),
                                "the other client to go on writing");
                        assertEquals(null, failed.get(), "the other client's operations all succeed");
                    }
                }
            } finally {
                stop.set(true);
                writer.join(TimeUnit.SECONDS.toMillis(40));
            }
            if (failed.get() != null) {
                throw new AssertionError("the other client's operation failed", failed.get());
            }
            assertTrue(!writer.isAlive(), "the other client's last operation returned");
            Set<Integer> present = new HashSet<>();
            for (Row r : other.execute("SELECT ck FROM ks.p2")) {
                present.add(r.getInt("ck"));
            }
            Set<Integer> acked = IntStream.range(0, acknowledged.get()).boxed().collect(Collectors.toSet());
            assertTrue(present.containsAll(acked), "every acknowledged write of the other client is present: "
                    + acked.size() + " acknowledged, missing " + acked.stream().filter(i -> !present.contains(i)).toList());
            assertTrue(acked.size() >= oversized.size() * 3, "the other client wrote across every refusal: " + acked.size());
        }
        stillIntact();
    }

    @Test
    void systemTablesAreReadOnly() {
        StatusRuntimeException e = fails("INSERT INTO system.local (key) VALUES ('x')");
        assertEquals("INVALID_REQUEST", code(e));
        StatusRuntimeException log = fails("DELETE FROM ks.t_scylla_cdc_log WHERE \"cdc$stream_id\" = 0x00");
        assertEquals("INVALID_REQUEST", code(log));
    }

    private static final MethodDescriptor.Marshaller<byte[]> RAW = dev.tributary.node.kit.RawBytes.MARSHALLER;

    @Test
    void aBatchStatementNamesItsTextByIndexAndABadIndexIsRefused() {
        CqlServiceGrpc.CqlServiceBlockingStub stub = CqlServiceGrpc.newBlockingStub(w.channel);
        BatchStatement.Builder row = BatchStatement.newBuilder().setTextIndex(1)
                .addBoundValues(Value.newBuilder().setInteger(7)).addBoundValues(Value.newBuilder().setText("x"));
        BatchRequest ok = BatchRequest.newBuilder().addStatementTexts("SELECT now() FROM system.local")
                .addStatementTexts("INSERT INTO ks.t (pk, ck, v) VALUES (?, ?, 70)")
                .addStatements(row).addStatements(row.clone().setBoundValues(1, Value.newBuilder().setText("y")))
                .setIdempotencyKey("batch-by-index").build();
        long scn = stub.executeBatch(ok).getCommitScn();
        assertTrue(scn > 0);
        assertEquals(2, w.exec("SELECT * FROM ks.t WHERE pk = 7").getRowsCount());

        BatchRequest bad = ok.toBuilder().setStatements(1, row.clone().setTextIndex(5)).setIdempotencyKey("bad-index")
                .build();
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> stub.executeBatch(bad));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.getStatus().toString());
        assertTrue(e.getStatus().getDescription().contains("batch statement 2 has no text and names statement text 5"),
                e.getStatus().getDescription());
        assertEquals(2, w.exec("SELECT * FROM ks.t WHERE pk = 7").getRowsCount(), "nothing of the refused batch is written");
        stillIntact();
    }

    @Test
    @DisplayName("a run replays from its seed: the node's host id and vnode tokens are the ones the seed draws")
    void theNodesRandomnessComesFromTheSeed() {
        Random replay = new Random(seed);
        // drawn in this order by the node: its host id (a version 4 UUID), then its tokens
        java.util.UUID id = new java.util.UUID(replay.nextLong() & ~0xF000L | 0x4000L,
                replay.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L);
        assertEquals(id, node.hostId(), "host id of seed " + seed);
        assertEquals(dev.tributary.generations.VnodeTokens.pick(8, replay, new HashSet<>()), node.tokens(),
                "tokens of seed " + seed);
    }

    @Test
    @DisplayName("RELIABILITY P1, found by ProtobufFuzzIT: a partition key bound to a value of no kind, a batch without "
            + "statements, an empty consumer member id and a name of 300,000 characters are the client's errors (or "
            + "nothing), never INTERNAL, and a refusal's message is cut so its trailer does not break the connection")
    void whatTheProtobufFuzzFound() {
        StatusRuntimeException nullKey = assertThrows(StatusRuntimeException.class, () -> w.cql.execute(ExecuteRequest
                .newBuilder().setStatement("SELECT * FROM ks.t WHERE pk = ?").addBoundValues(Value.getDefaultInstance())
                .build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, nullKey.getStatus().getCode(), nullKey.getStatus().toString());
        assertTrue(nullKey.getStatus().getDescription().contains("column pk"), nullKey.getStatus().getDescription());

        CqlServiceGrpc.newBlockingStub(w.channel).executeBatch(BatchRequest.newBuilder().setIdempotencyKey("empty-batch")
                .build());

        var groups = dev.tributary.protocol.v1.ConsumerGroupServiceGrpc.newBlockingStub(w.channel);
        groups.join(dev.tributary.protocol.v1.JoinRequest.newBuilder().setGroup("g-empty-member").setMemberId("m")
                .setLog(dev.tributary.protocol.v1.GroupLog.newBuilder().setTable("ks.t")).build());
        StatusRuntimeException member = assertThrows(StatusRuntimeException.class, () -> groups.heartbeat(
                dev.tributary.protocol.v1.HeartbeatRequest.newBuilder().setGroup("g-empty-member").build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, member.getStatus().getCode(), member.getStatus().toString());
        assertTrue(member.getStatus().getDescription().contains("member id"), member.getStatus().getDescription());

        String huge = "p".repeat(300_000);
        StatusRuntimeException named = assertThrows(StatusRuntimeException.class, () -> dev.tributary.protocol.v1
                .AdminServiceGrpc.newBlockingStub(w.channel).call(dev.tributary.protocol.v1.AdminCallRequest.newBuilder()
                        .setProcedure(huge).build()));
        assertTrue(named.getStatus().getCode() != Status.Code.INTERNAL, named.getStatus().toString());
        assertTrue(named.getStatus().getDescription().length() < 1100 && named.getStatus().getDescription()
                .contains("more characters"), named.getStatus().getDescription().length() + " characters");
        // the same connection goes on serving
        stillIntact();
    }

    @Test
    void garbageBytesOnTheWireAreRefusedAndTheNodeStaysUp() {
        MethodDescriptor<byte[], byte[]> execute = CqlServiceGrpc.getExecuteMethod().toBuilder(RAW, RAW).build();
        Random rnd = new Random(seed);
        for (int i = 0; i < 200; i++) {
            byte[] garbage = new byte[1 + rnd.nextInt(64)];
            rnd.nextBytes(garbage);
            try {
                ClientCalls.blockingUnaryCall(w.channel, execute, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), garbage);
            } catch (StatusRuntimeException e) {
                // garbage is the client's error: INVALID_ARGUMENT, never INTERNAL, and the node stays up
                assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.getStatus().toString());
            }
        }
        stillIntact();
    }
}
