package dev.tributary.node.grpc;

import dev.tributary.cql.ast.Argument;
import dev.tributary.cql.ast.BlobLit;
import dev.tributary.cql.ast.BooleanLit;
import dev.tributary.cql.ast.Call;
import dev.tributary.cql.ast.IntegerLit;
import dev.tributary.cql.ast.NullLit;
import dev.tributary.cql.ast.QualifiedName;
import dev.tributary.cql.ast.StringLit;
import dev.tributary.cql.ast.Term;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.exec.StatementExecutor;
import dev.tributary.node.net.ErrorMapping;
import dev.tributary.protocol.v1.AdminArgument;
import dev.tributary.protocol.v1.AdminCallRequest;
import dev.tributary.protocol.v1.AdminServiceGrpc;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Value;
import io.grpc.stub.StreamObserver;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The administration procedures over gRPC: the same procedures as CALL, with typed arguments. */
public final class AdminGrpcService extends AdminServiceGrpc.AdminServiceImplBase {
    private final StatementExecutor executor;
    private final Authentication authentication;
    private final Peers peers;
    private final InstanceRouting routing;

    /** @param peers the other nodes: a procedure acting on another instance's capture, apply or queue runs there */
    public AdminGrpcService(StatementExecutor executor, Peers peers, Authentication authentication) {
        this.executor = executor;
        this.authentication = authentication;
        this.peers = peers;
        this.routing = new InstanceRouting(executor, peers);
    }

    @Override
    public void call(AdminCallRequest req, StreamObserver<ExecuteResponse> out) {
        ErrorMapping.answer(out, () -> {
            String proc = req.getProcedure().trim().toLowerCase(Locale.ROOT);
            int dot = proc.indexOf('.');
            if (dot <= 0 || dot == proc.length() - 1) {
                throw new InvalidRequestException("procedure must be given as package.procedure, got '" + req.getProcedure() + "'");
            }
            List<Argument> args = new ArrayList<>();
            for (AdminArgument a : req.getArgumentsList()) {
                args.add(new Argument(a.getName().toLowerCase(Locale.ROOT), term(a.getName(), a.getValue())));
            }
            Call call = new Call(new QualifiedName(proc.substring(0, dot), proc.substring(dot + 1)), args);
            dev.tributary.node.exec.SessionContext s = CqlGrpcService.session(req.getSession(), authentication);
            java.util.Optional<String> owner = routing.elsewhere(call, s);
            if (owner.isPresent()) {
                return peers.procedureStub(owner.get()).execute(dev.tributary.protocol.v1.ExecuteRequest.newBuilder()
                        .setStatement(cql(call)).setSession(CqlGrpcService.toWire(s)).build());
            }
            return CqlGrpcService.toWire(executor.call(call, s));
        });
    }

    /** The CALL statement the typed call stands for, as the instance that runs it parses it. */
    private static String cql(Call call) {
        java.util.StringJoiner args = new java.util.StringJoiner(", ");
        for (Argument a : call.arguments()) {
            args.add(a.name() + " => " + a.value().cql());
        }
        return "CALL " + call.procedure().keyspace() + "." + call.procedure().name() + "(" + args + ")";
    }

    private static Term term(String name, Value v) {
        return switch (v.getKindCase()) {
            case KIND_NOT_SET -> NullLit.INSTANCE;
            case TEXT -> new StringLit(v.getText());
            case INTEGER -> new IntegerLit(BigInteger.valueOf(v.getInteger()));
            case BOOLEAN -> new BooleanLit(v.getBoolean());
            case BLOB -> new BlobLit(Blob.of(v.getBlob().toByteArray()));
            default -> throw new InvalidRequestException("argument " + name + ": use a text, integer, boolean or blob value, not "
                    + v.getKindCase().name().toLowerCase(Locale.ROOT));
        };
    }
}
