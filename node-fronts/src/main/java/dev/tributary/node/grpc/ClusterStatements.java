package dev.tributary.node.grpc;

import dev.tributary.dictionary.types.CqlType;
import dev.tributary.node.exec.Placement;
import dev.tributary.node.exec.ResultColumn;
import dev.tributary.node.exec.SessionContext;
import dev.tributary.node.exec.StatementExecutor;
import dev.tributary.node.exec.StatementResult;
import dev.tributary.node.net.WireValues;
import dev.tributary.protocol.v1.BatchRequest;
import dev.tributary.protocol.v1.BatchStatement;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Row;
import dev.tributary.protocol.v1.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * Statements run for a front other than gRPC (the CQL native protocol), with the cluster
 * semantics {@link CqlGrpcService} gives its own requests: a write another node owns is sent to
 * it, a read of table data gathers the rows of every node holding some (UNAVAILABLE while one is down) (count(...) adding up, min and max taken
 * over the nodes, a LIMIT applying to the whole). Peers are asked over their gRPC CqlService, so each node answers exactly as it
 * answers the SDK. Thread-safe.
 */
public final class ClusterStatements {
    private final StatementExecutor executor;
    private final Peers peers;
    private final InstanceRouting routing;

    public ClusterStatements(StatementExecutor executor, Peers peers) {
        this.executor = executor;
        this.peers = peers;
        this.routing = new InstanceRouting(executor, peers);
    }

    public StatementExecutor executor() {
        return executor;
    }

    /** Runs one statement where its data is; errors are those of the executor or a peer's status. */
    public StatementResult execute(StatementExecutor.Prepared p, SessionContext s, List<Object> bound) {
        if (p.statement() instanceof dev.tributary.cql.ast.Call call) {
            java.util.Optional<String> owner = routing.elsewhere(call, s);
            if (owner.isPresent()) {
                ExecuteResponse r = peers.procedureStub(owner.get()).execute(request(p, s, bound));
                return fromWire(r, columns(r), StatementResult.of(s));
            }
        }
        StatementExecutor.Spread spread = executor.spread(p, s);
        Peers.ReadRoute route = peers.readRoute(spread, executor.pointPartitions(p, s, bound));
        if (route.kind() == Peers.ReadRoute.Kind.OWNER) {
            ExecuteResponse r = peers.forwardRead(route.owner(), stub -> stub.execute(request(p, s, bound)));
            return fromWire(r, columns(r), StatementResult.committed(s, r.getCommitScn(), r.getTransactionId()));
        }
        if (route.kind() == Peers.ReadRoute.Kind.GATHER) {
            ExecuteRequest req = request(p, s, bound);
            ExecuteResponse gathered = CqlGrpcService.gatherFrom(peers, route.others(),
                    () -> CqlGrpcService.toWire(executor.execute(p, s, bound)), stub -> stub.execute(req), spread,
                    executor.aggregates(p), executor.limit(p, bound));
            return fromWire(gathered, columns(gathered), StatementResult.of(s));
        }
        try {
            return executor.execute(p, s, bound);
        } catch (Placement.NotOwnerException e) {
            ExecuteResponse r = peers.forwardWrite(e.endpoint(), stub -> stub.execute(request(p, s, bound)));
            return fromWire(r, columns(r), StatementResult.committed(s, r.getCommitScn(), r.getTransactionId()));
        }
    }

    /** Several modification statements as one transaction, where their partitions are. */
    public StatementResult executeBatch(List<StatementExecutor.Prepared> items, List<List<Object>> bound, SessionContext s) {
        try {
            return executor.executeBatch(items, bound, s, null);
        } catch (Placement.NotOwnerException e) {
            BatchRequest.Builder b = BatchRequest.newBuilder().setSession(CqlGrpcService.toWire(s));
            for (int i = 0; i < items.size(); i++) {
                b.addStatements(BatchStatement.newBuilder().setStatement(items.get(i).text())
                        .addAllBoundValues(values(items.get(i), bound.get(i))));
            }
            ExecuteResponse r = peers.forwardWrite(e.endpoint(), stub -> stub.executeBatch(b.build()));
            return StatementResult.committed(s, r.getCommitScn(), r.getTransactionId());
        }
    }

    private static ExecuteRequest request(StatementExecutor.Prepared p, SessionContext s, List<Object> bound) {
        return ExecuteRequest.newBuilder().setStatement(p.text()).setSession(CqlGrpcService.toWire(s))
                .addAllBoundValues(values(p, bound)).build();
    }

    private static List<Value> values(StatementExecutor.Prepared p, List<Object> bound) {
        List<Value> out = new ArrayList<>(bound.size());
        for (int i = 0; i < bound.size(); i++) {
            out.add(WireValues.toWire(p.markers().get(i).type(), bound.get(i)));
        }
        return out;
    }

    private static List<ResultColumn> columns(ExecuteResponse r) {
        List<ResultColumn> out = new ArrayList<>();
        for (dev.tributary.protocol.v1.ColumnSpec c : r.getColumnsList()) {
            out.add(new ResultColumn(c.getName(), CqlType.parse(c.getType())));
        }
        return out;
    }

    /** A peer's (or the gathered) answer in the executor's terms, typed by {@code columns}. */
    private static StatementResult fromWire(ExecuteResponse r, List<ResultColumn> columns, StatementResult like) {
        if (!r.getHasRows()) {
            return like;
        }
        List<List<Object>> rows = new ArrayList<>(r.getRowsCount());
        for (Row row : r.getRowsList()) {
            List<Object> values = new ArrayList<>(columns.size());
            for (int i = 0; i < columns.size(); i++) {
                values.add(WireValues.fromWire(columns.get(i).type(), row.getValues(i), columns.get(i).name()));
            }
            rows.add(values);
        }
        return StatementResult.rows(columns, rows, like.session(), r.getWarningsList());
    }
}
