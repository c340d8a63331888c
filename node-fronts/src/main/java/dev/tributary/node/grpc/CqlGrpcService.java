package dev.tributary.node.grpc;

import com.google.protobuf.ByteString;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.exec.BindMarkerName;
import dev.tributary.node.exec.ResultColumn;
import dev.tributary.node.exec.SessionContext;
import dev.tributary.node.exec.StatementExecutor;
import dev.tributary.node.exec.StatementResult;
import dev.tributary.node.net.ErrorMapping;
import dev.tributary.node.net.WireValues;
import dev.tributary.protocol.v1.BatchRequest;
import dev.tributary.protocol.v1.BatchStatement;
import dev.tributary.protocol.v1.ColumnSpec;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecutePreparedRequest;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.PrepareRequest;
import dev.tributary.protocol.v1.PrepareResponse;
import dev.tributary.protocol.v1.Row;
import dev.tributary.protocol.v1.SessionState;
import dev.tributary.protocol.v1.StatementRouting;
import dev.tributary.protocol.v1.Value;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The statement service: each request carries its session; errors become statuses through
 * {@link ErrorMapping}. A prepared statement's id is a digest of its text, so any node can
 * re-prepare it from the text the client sends along.
 */
public final class CqlGrpcService extends CqlServiceGrpc.CqlServiceImplBase {
    private final StatementExecutor executor;
    private final Peers peers;
    private final Authentication authentication;
    private final InstanceRouting routing;

    /**
     * @param peers the other nodes: a write another node owns is sent there, a read of table data
     *              gathers every live node's rows
     */
    public CqlGrpcService(StatementExecutor executor, Peers peers, Authentication authentication) {
        this.executor = executor;
        this.peers = peers;
        this.authentication = authentication;
        this.routing = new InstanceRouting(executor, peers);
    }

    /** What one request does, given the other nodes: answer here, send to the owner, or gather. */
    interface Remote {
        ExecuteResponse call(CqlServiceGrpc.CqlServiceBlockingStub peer);
    }

    private ExecuteResponse run(StatementExecutor.Prepared p, SessionContext s, List<Object> bound, String idempotencyKey,
            Remote remote) {
        if (!peers.forwarded() && p.statement() instanceof dev.tributary.cql.ast.Call call) {
            java.util.Optional<String> owner = routing.elsewhere(call, s);
            if (owner.isPresent()) {
                return remote.call(peers.procedureStub(owner.get()));
            }
        }
        StatementExecutor.Spread spread = executor.spread(p, s);
        Peers.ReadRoute route = peers.readRoute(spread, executor.pointPartitions(p, s, bound));
        if (route.kind() == Peers.ReadRoute.Kind.OWNER) {
            return peers.forwardRead(route.owner(), remote::call);
        }
        if (route.kind() == Peers.ReadRoute.Kind.GATHER) {
            return gatherFrom(peers, route.others(), () -> toWire(executor.execute(p, s, bound)), remote, spread,
                    executor.aggregates(p), executor.limit(p, bound));
        }
        try {
            // the owner keeps the key: a forwarded request carries it there
            return toWire(executor.execute(p, s, bound, idempotencyKey.isEmpty() ? null : idempotencyKey));
        } catch (dev.tributary.node.exec.Placement.NotOwnerException e) {
            return peers.forwardWrite(e.endpoint(), remote::call);
        }
    }

    /**
     * Asks this node and {@code others} and gathers their answers. A view of every instance's own
     * objects ({@link StatementExecutor.Spread#EVERY_NODE}) may be unknown to some (a queue lives on
     * one instance): those count as no rows, and only if no node knows it is it unknown.
     */
    static ExecuteResponse gatherFrom(Peers peers, List<String> others, java.util.function.Supplier<ExecuteResponse> local,
            Remote remote, StatementExecutor.Spread spread, List<StatementExecutor.Aggregate> aggregates, Integer limit) {
        boolean tolerant = spread == StatementExecutor.Spread.EVERY_NODE;
        List<ExecuteResponse> all = new ArrayList<>();
        RuntimeException unknownHere = null;
        try {
            all.add(local.get());
        } catch (RuntimeException e) {
            if (!tolerant || ErrorMapping.codeOf(e) != dev.tributary.node.errors.ErrorCode.NOT_FOUND) {
                throw e;
            }
            unknownHere = e;
        }
        for (String ep : others) {
            try {
                all.add(peers.gatherPart(ep, remote::call));
            } catch (io.grpc.StatusRuntimeException e) {
                if (!tolerant || e.getStatus().getCode() != io.grpc.Status.Code.NOT_FOUND) {
                    throw e;
                }
            }
        }
        if (all.isEmpty()) {
            throw unknownHere;
        }
        return gather(all, aggregates, limit);
    }

    /**
     * Every node's rows of a read, this node's first; count(...) columns of an aggregate add up,
     * min(...) and max(...) take the least and greatest of the nodes' values, a LIMIT applies to
     * the whole.
     */
    static ExecuteResponse gather(List<ExecuteResponse> all, List<StatementExecutor.Aggregate> aggregates, Integer limit) {
        ExecuteResponse local = all.get(0);
        boolean aggregate = aggregates.stream().anyMatch(a -> a != StatementExecutor.Aggregate.NONE);
        if (aggregate && local.getRowsCount() == 1) {
            Row.Builder row = local.getRows(0).toBuilder();
            for (int i = 0; i < aggregates.size() && i < row.getValuesCount(); i++) {
                switch (aggregates.get(i)) {
                    case COUNT -> {
                        long sum = 0;
                        for (ExecuteResponse r : all) {
                            sum += r.getRowsCount() == 0 ? 0 : r.getRows(0).getValues(i).getInteger();
                        }
                        row.setValues(i, Value.newBuilder().setInteger(sum));
                    }
                    case MIN, MAX -> row.setValues(i, extreme(all, i, aggregates.get(i) == StatementExecutor.Aggregate.MIN));
                    case NONE -> {
                    }
                }
            }
            return local.toBuilder().clearRows().addRows(row).build();
        }
        ExecuteResponse.Builder b = local.toBuilder().clearRows();
        for (ExecuteResponse r : all) {
            for (Row row : r.getRowsList()) {
                if (limit != null && b.getRowsCount() >= limit) {
                    return b.build();
                }
                b.addRows(row);
            }
        }
        return b.build();
    }

    /** The least (or greatest) non-null value of column {@code i} over the nodes' one-row answers. */
    private static Value extreme(List<ExecuteResponse> all, int i, boolean least) {
        dev.tributary.dictionary.types.CqlType type = dev.tributary.dictionary.types.CqlType.parse(
                all.get(0).getColumns(i).getType());
        java.util.Comparator<Object> order = dev.tributary.dictionary.types.ValueComparator.of(type);
        Object best = null;
        Value bestWire = Value.getDefaultInstance();
        for (ExecuteResponse r : all) {
            if (r.getRowsCount() == 0) {
                continue;
            }
            Value v = r.getRows(0).getValues(i);
            Object o = WireValues.fromWire(type, v, all.get(0).getColumns(i).getName());
            if (o != null && (best == null || (least ? order.compare(o, best) < 0 : order.compare(o, best) > 0))) {
                best = o;
                bestWire = v;
            }
        }
        return bestWire;
    }

    private SessionContext session(SessionState s) {
        return session(s, authentication);
    }

    /** A request's session, run as the principal the call authenticated as. */
    static SessionContext session(SessionState s, Authentication authentication) {
        return new SessionContext(s.getKeyspace().isEmpty() ? null : s.getKeyspace(),
                s.getHasTag() ? s.getTag().toByteArray() : null,
                s.getUsername().isEmpty() ? "anonymous" : s.getUsername(), s.getSessionId(),
                authentication.principal(s.getUsername()));
    }

    static SessionState toWire(SessionContext s) {
        SessionState.Builder b = SessionState.newBuilder().setUsername(s.username()).setSessionId(s.sessionId());
        if (s.keyspace() != null) {
            b.setKeyspace(s.keyspace());
        }
        if (s.tag() != null) {
            b.setHasTag(true).setTag(ByteString.copyFrom(s.tag()));
        }
        return b.build();
    }

    @Override
    public void execute(ExecuteRequest req, StreamObserver<ExecuteResponse> out) {
        ErrorMapping.answer(out, () -> statement(req.getSession(), req.getStatement(), req.getBoundValuesList(),
                req.getIdempotencyKey(), (peer, s) -> peer.execute(req.toBuilder().setSession(s).build())));
    }

    @Override
    public void prepare(PrepareRequest req, StreamObserver<PrepareResponse> out) {
        ErrorMapping.answer(out, () -> {
            SessionContext s = session(req.getSession());
            StatementExecutor.Prepared p = executor.prepare(req.getStatement(), s);
            PrepareResponse.Builder b = PrepareResponse.newBuilder().setStatementId(id(req.getStatement()));
            for (ResultColumn c : p.markers()) {
                b.addBindMarkers(ColumnSpec.newBuilder().setName(c.name()).setType(c.type().cql()));
            }
            executor.routing(p, s).ifPresent(r -> b.setRouting(StatementRouting.newBuilder().setKeyspace(r.keyspace())
                    .setTable(r.table()).addAllPartitionKeyIndexes(r.partitionKeyIndexes())));
            return b.build();
        });
    }

    @Override
    public void executePrepared(ExecutePreparedRequest req, StreamObserver<ExecuteResponse> out) {
        ErrorMapping.answer(out, () -> statement(req.getSession(), req.getStatement(), req.getBoundValuesList(),
                req.getIdempotencyKey(), (peer, s) -> peer.executePrepared(req.toBuilder().setSession(s).build())));
    }

    /**
     * One statement of an Execute or ExecutePrepared request, run here or sent on as the same
     * request: a peer gets the session as authenticated (the role that logged in, not the user the
     * client named).
     */
    private ExecuteResponse statement(SessionState wire, String text, List<Value> values, String idempotencyKey,
            java.util.function.BiFunction<CqlServiceGrpc.CqlServiceBlockingStub, SessionState, ExecuteResponse> sendOn) {
        SessionContext s = session(wire);
        StatementExecutor.Prepared p = executor.prepare(text, s);
        return run(p, s, bind(p, values), idempotencyKey, peer -> sendOn.apply(peer, toWire(s)));
    }

    @Override
    public void executeBatch(BatchRequest req, StreamObserver<ExecuteResponse> out) {
        ErrorMapping.answer(out, () -> {
            SessionContext s = session(req.getSession());
            List<StatementExecutor.Prepared> items = new ArrayList<>();
            List<List<Object>> bound = new ArrayList<>();
            // a batch usually repeats a few statements: resolve each text's tables and markers once
            Map<String, StatementExecutor.Prepared> byText = new HashMap<>();
            for (BatchStatement bs : req.getStatementsList()) {
                StatementExecutor.Prepared p = byText.computeIfAbsent(text(req, bs, items.size()),
                        t -> executor.prepare(t, s));
                items.add(p);
                bound.add(bind(p, bs.getBoundValuesList()));
            }
            try {
                return toWire(executor.executeBatch(items, bound, s,
                        req.getIdempotencyKey().isEmpty() ? null : req.getIdempotencyKey()));
            } catch (dev.tributary.node.exec.Placement.NotOwnerException e) {
                return peers.forwardWrite(e.endpoint(), peer -> peer.executeBatch(req.toBuilder().setSession(toWire(s)).build()));
            }
        });
    }

    /** A batch statement's text: its own, or the batch's text it names by index. */
    private static String text(BatchRequest req, BatchStatement bs, int index) {
        if (!bs.getStatement().isEmpty()) {
            return bs.getStatement();
        }
        if (bs.getTextIndex() >= req.getStatementTextsCount()) {
            throw new InvalidRequestException("batch statement " + (index + 1) + " has no text and names statement text "
                    + bs.getTextIndex() + ", but the batch has " + req.getStatementTextsCount() + " (statement_texts)");
        }
        return req.getStatementTexts(bs.getTextIndex());
    }

    private static List<Object> bind(StatementExecutor.Prepared p, List<Value> values) {
        List<Object> out = new ArrayList<>(values.size());
        for (int i = 0; i < values.size() && i < p.markers().size(); i++) {
            ResultColumn c = p.markers().get(i);
            out.add(WireValues.fromWire(c.type(), values.get(i), new BindMarkerName(i + 1, c.name())));
        }
        for (int i = p.markers().size(); i < values.size(); i++) {
            out.add(null); // too many values: the executor reports the count mismatch
        }
        return out;
    }

    static ExecuteResponse toWire(StatementResult r) {
        ExecuteResponse.Builder b = ExecuteResponse.newBuilder().setHasRows(r.hasRows()).setSession(toWire(r.session()))
                .setCommitScn(r.commitScn()).setTransactionId(r.transactionId()).addAllWarnings(r.warnings());
        List<dev.tributary.dictionary.types.CqlType> types = new ArrayList<>();
        for (ResultColumn c : r.columns()) {
            b.addColumns(ColumnSpec.newBuilder().setName(c.name()).setType(c.type().cql()));
            types.add(c.type());
        }
        for (List<Object> row : r.rows()) {
            b.addRows(Row.newBuilder().addAllValues(WireValues.row(types, row)));
        }
        return b.build();
    }

    static String id(String statement) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(statement.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
