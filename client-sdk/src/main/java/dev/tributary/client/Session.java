package dev.tributary.client;

import com.google.protobuf.ByteString;
import dev.tributary.client.errors.TributaryException;
import dev.tributary.client.internal.ClusterRing;
import dev.tributary.client.internal.Endpoints;
import dev.tributary.protocol.v1.AdminArgument;
import dev.tributary.protocol.v1.AdminCallRequest;
import dev.tributary.protocol.v1.AdminServiceGrpc;
import dev.tributary.protocol.v1.BatchRequest;
import dev.tributary.protocol.v1.ColumnSpec;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecutePreparedRequest;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.PrepareRequest;
import dev.tributary.protocol.v1.PrepareResponse;
import dev.tributary.protocol.v1.SessionState;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A client-side session: the current keyspace (changed by {@code USE}), the session tag
 * ({@code dbms_streams.set_tag}; carried into the LCRs of this session's writes), the username
 * and a session number unique within the JVM (the LCR's {@code session#}). Nodes keep no
 * sessions: this state travels with every request, so any node can serve any request, and the
 * state each answer reports (after {@code USE ks} or {@code CALL dbms_streams.set_tag(...)})
 * replaces the local one.
 *
 * <p>Thread-safe; statements run concurrently in one session see its state as of their start,
 * and the last answer to arrive sets it. Every method that runs a statement throws a
 * {@link TributaryException} subclass for a refused or failed request.
 */
public final class Session {
    private record State(String keyspace, byte[] tag) {
    }

    private final Endpoints endpoints;
    private final ClusterRing ring;
    private final String username;
    private final long sessionId;
    private final AtomicReference<State> state = new AtomicReference<>(new State("", null));
    private final Admin admin;

    /** @param ring the token ring requests are routed by; null when the client is not token-aware */
    Session(Endpoints endpoints, ClusterRing ring, String username, long sessionId) {
        this.endpoints = endpoints;
        this.ring = ring;
        this.username = username;
        this.sessionId = sessionId;
        this.admin = new Admin(this);
    }

    /** The current keyspace, or null when none was chosen with {@code USE}. */
    public String keyspace() {
        String ks = state.get().keyspace();
        return ks.isEmpty() ? null : ks;
    }

    /**
     * Sets the session tag sent with every later statement, like {@code dbms_streams.set_tag};
     * null removes it (the tag is then NULL, as {@code :dml.is_null_tag() = 'Y'} tests).
     */
    public void setTag(byte[] tag) {
        byte[] copy = tag == null ? null : tag.clone();
        state.updateAndGet(s -> new State(s.keyspace(), copy));
    }

    /** The session tag, like {@code dbms_streams.get_tag}; null when there is none. */
    public byte[] getTag() {
        byte[] tag = state.get().tag();
        return tag == null ? null : tag.clone();
    }

    public String username() {
        return username;
    }

    /** This session's number, sent as {@code SessionState.session_id}. */
    public long sessionId() {
        return sessionId;
    }

    /** Runs one statement (or a {@code BEGIN BATCH ... APPLY BATCH} block) with positional values. */
    public ResultSet execute(String statement, Object... values) {
        Objects.requireNonNull(statement, "statement");
        String key = UUID.randomUUID().toString();
        ExecuteRequest.Builder req = ExecuteRequest.newBuilder().setStatement(statement).setSession(wireState())
                .setIdempotencyKey(key);
        Object[] vs = values == null ? new Object[] {null} : values;
        for (int i = 0; i < vs.length; i++) {
            req.addBoundValues(ValueCodec.encode(vs[i], null, "value " + i));
        }
        ExecuteRequest request = req.build();
        return answer(endpoints.call(ep -> stub(ep).execute(request), key));
    }

    /** Parses a statement with bind markers once. */
    public PreparedStatement prepare(String statement) {
        Objects.requireNonNull(statement, "statement");
        PrepareRequest request = PrepareRequest.newBuilder().setStatement(statement).setSession(wireState()).build();
        PrepareResponse response = endpoints.call(ep -> stub(ep).prepare(request), null);
        List<ColumnDefinition> markers = new ArrayList<>(response.getBindMarkersCount());
        for (ColumnSpec c : response.getBindMarkersList()) {
            markers.add(new ColumnDefinition(c.getName(), c.getType()));
        }
        List<Integer> keyIndexes = response.hasRouting() ? response.getRouting().getPartitionKeyIndexesList() : List.of();
        String table = response.hasRouting() ? response.getRouting().getKeyspace() + "." + response.getRouting().getTable() : null;
        return new PreparedStatement(response.getStatementId(), statement, markers, keyIndexes, table);
    }

    /**
     * Runs a bound prepared statement. A token-aware client sends it first to the node owning
     * its partition key's token, then fails over as for any request.
     */
    public ResultSet execute(BoundStatement bound) {
        Objects.requireNonNull(bound, "bound");
        String key = bound.idempotencyKey() != null ? bound.idempotencyKey() : UUID.randomUUID().toString();
        ExecutePreparedRequest request = ExecutePreparedRequest.newBuilder()
                .setStatementId(bound.prepared().id())
                .setStatement(bound.prepared().statement())
                .setSession(wireState())
                .addAllBoundValues(bound.wireValues())
                .setIdempotencyKey(key)
                .build();
        Endpoints.Endpoint owner = ring == null ? null : ring.ownerOf(bound.routingKey());
        return answer(endpoints.call(ep -> stub(ep).executePrepared(request), key, owner));
    }

    /** Starts a batch that {@link BatchBuilder#execute()} runs in this session. */
    public BatchBuilder batch() {
        return new BatchBuilder(this);
    }

    /**
     * Runs a batch as one transaction: one transaction id, one commit SCN. A token-aware client
     * sends it first to the owner of its bound statements' partitions when they all have the same
     * one (statements given as text, whose keys the client does not know, do not count).
     */
    public ResultSet execute(Batch batch) {
        Objects.requireNonNull(batch, "batch");
        String key = batch.idempotencyKey() != null ? batch.idempotencyKey() : UUID.randomUUID().toString();
        BatchRequest request = BatchRequest.newBuilder()
                .addAllStatementTexts(batch.wireTexts())
                .addAllStatements(batch.wireStatements())
                .setSession(wireState())
                .setIdempotencyKey(key)
                .build();
        return answer(endpoints.call(ep -> stub(ep).executeBatch(request), key, owner(batch)));
    }

    /**
     * The administration procedures, run in this session: each call carries its keyspace, tag
     * and user, and the session the answer reports replaces this one's (as after
     * {@code dbms_streams.set_tag}).
     */
    public Admin admin() {
        return admin;
    }

    /**
     * Runs one AdminService call with this session's state. Admin calls carry no idempotency key
     * (the wire has none), so a timeout's exception has none either.
     */
    ResultSet call(String procedure, List<AdminArgument> arguments) {
        AdminCallRequest request = AdminCallRequest.newBuilder()
                .setProcedure(procedure)
                .addAllArguments(arguments)
                .setSession(wireState())
                .build();
        return answer(endpoints.call(ep -> AdminServiceGrpc.newBlockingStub(ep.channel())
                .withDeadlineAfter(endpoints.requestTimeout().toNanos(), TimeUnit.NANOSECONDS)
                .call(request), null));
    }

    /** The one node owning every routed partition of a batch, or null. */
    private Endpoints.Endpoint owner(Batch batch) {
        if (ring == null) {
            return null;
        }
        Endpoints.Endpoint owner = null;
        for (dev.tributary.client.internal.RoutingKey key : batch.routingKeys()) {
            if (key == null) {
                continue;
            }
            Endpoints.Endpoint o = ring.ownerOf(key);
            if (o == null || owner != null && !owner.equals(o)) {
                return null; // an unknown owner or several: the node it reaches decides, as without routing
            }
            owner = o;
        }
        return owner;
    }

    private CqlServiceGrpc.CqlServiceBlockingStub stub(Endpoints.Endpoint ep) {
        return CqlServiceGrpc.newBlockingStub(ep.channel())
                .withDeadlineAfter(endpoints.requestTimeout().toNanos(), TimeUnit.NANOSECONDS);
    }

    private ResultSet answer(ExecuteResponse response) {
        // Decode first: a result the client cannot read must not half-apply a session change.
        ResultSet result = ResultSet.of(response);
        if (response.hasSession()) {
            SessionState s = response.getSession();
            state.set(new State(s.getKeyspace(), s.getHasTag() ? s.getTag().toByteArray() : null));
        }
        return result;
    }

    SessionState wireState() {
        State s = state.get();
        SessionState.Builder b = SessionState.newBuilder()
                .setKeyspace(s.keyspace())
                .setUsername(username)
                .setSessionId(sessionId);
        if (s.tag() != null) {
            b.setHasTag(true).setTag(ByteString.copyFrom(s.tag()));
        }
        return b.build();
    }

    @Override
    public String toString() {
        State s = state.get();
        return "Session[" + sessionId + ", user=" + username + ", keyspace=" + s.keyspace()
                + (s.tag() == null ? "" : ", tag=0x" + HexFormat.of().formatHex(s.tag())) + "]";
    }
}
