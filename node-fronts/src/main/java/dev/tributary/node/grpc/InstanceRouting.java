package dev.tributary.node.grpc;

import dev.tributary.cql.ast.Call;
import dev.tributary.node.exec.InstanceObjects;
import dev.tributary.node.exec.SessionContext;
import dev.tributary.node.exec.StatementExecutor;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Row;
import io.grpc.StatusRuntimeException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Where an administration CALL runs (CAP-RAC-2): on this node when its instance holds one of the
 * captures, applies, queues or rule sets the CALL names ({@link InstanceObjects}), or when no
 * instance does (a procedure that creates them creates them here); otherwise on the instance
 * that holds one, wherever it runs now — after a failover that is another node's endpoint, which
 * the caller need not know. Each instance is asked for its own objects alone (the forwarded
 * header), through the same views a user reads. Thread-safe.
 */
final class InstanceRouting {
    private final StatementExecutor executor;
    private final Peers peers;

    InstanceRouting(StatementExecutor executor, Peers peers) {
        this.executor = executor;
        this.peers = peers;
    }

    /** The endpoint of the instance to run {@code call} at, when it is not this node's. */
    Optional<String> elsewhere(Call call, SessionContext s) {
        List<InstanceObjects.Named> named = InstanceObjects.of(call);
        if (named.isEmpty()) {
            return Optional.empty();
        }
        Set<InstanceObjects.Named> here;
        try {
            here = objects(named, q -> CqlGrpcService.toWire(executor.execute(executor.prepare(q, s), s, List.of())));
        } catch (RuntimeException e) {
            return Optional.empty(); // this node cannot tell: the CALL runs here and says what is wrong
        }
        if (named.stream().anyMatch(here::contains)) {
            return Optional.empty();
        }
        ExecuteRequest.Builder req = ExecuteRequest.newBuilder().setSession(CqlGrpcService.toWire(s));
        for (String endpoint : peers.otherEndpoints()) {
            Set<InstanceObjects.Named> there;
            try {
                there = objects(named, q -> peers.procedureStub(endpoint).execute(req.setStatement(q).build()));
            } catch (StatusRuntimeException e) {
                continue; // down or leaving: another instance may hold the object
            }
            if (named.stream().anyMatch(there::contains)) {
                return Optional.of(endpoint);
            }
        }
        return Optional.empty();
    }

    /** The objects of the kinds {@code named} asks about that one instance holds. */
    private static Set<InstanceObjects.Named> objects(List<InstanceObjects.Named> named,
            Function<String, ExecuteResponse> query) {
        Set<InstanceObjects.Named> out = new HashSet<>();
        for (InstanceObjects.Kind kind : named.stream().map(InstanceObjects.Named::kind).distinct().toList()) {
            for (Row r : query.apply(InstanceObjects.listing(kind)).getRowsList()) {
                if (r.getValuesCount() > 0 && r.getValues(0).hasText()) {
                    out.add(new InstanceObjects.Named(kind, r.getValues(0).getText()));
                }
            }
        }
        return out;
    }
}
