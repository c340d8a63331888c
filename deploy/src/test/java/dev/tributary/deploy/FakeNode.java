package dev.tributary.deploy;

import dev.tributary.client.CqlTypeName;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.internal.ErrorMapper;
import dev.tributary.client.ValueCodec;
import dev.tributary.protocol.v1.AuthServiceGrpc;
import dev.tributary.protocol.v1.ColumnSpec;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.LoginRequest;
import dev.tributary.protocol.v1.LoginResponse;
import dev.tributary.protocol.v1.Row;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A CqlService served in-process that answers each Execute through a handler and records the
 * requests, so the CLI's own logic (splitting, output, exit codes, sessions) runs without a node.
 * It also serves AuthService.Login and records each call's authorization header.
 */
final class FakeNode implements AutoCloseable {
    final String name = "fake-" + System.nanoTime();
    final List<ExecuteRequest> requests = new CopyOnWriteArrayList<>();
    volatile Function<ExecuteRequest, ExecuteResponse> onExecute = FakeNode::echoSession;
    volatile Function<LoginRequest, LoginResponse> onLogin = r -> LoginResponse.getDefaultInstance();
    final List<LoginRequest> logins = new CopyOnWriteArrayList<>();
    /** Each call's method (bare name, e.g. Execute) and authorization header (null without one), in arrival order. */
    final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Server server;

    FakeNode() {
        this(false);
    }

    /** Over Netty on a free loopback port: for the options that make the CLI build its own channels (TLS, --user). */
    static FakeNode netty() {
        return new FakeNode(true);
    }

    private FakeNode(boolean overNetty) {
        ServerBuilder<?> builder = overNetty ? NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                : InProcessServerBuilder.forName(name);
        try {
            server = builder.addService(new Cql()).addService(new Auth()).intercept(new RecordCalls()).build().start();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code 127.0.0.1:port} of a node from {@link #netty()}. */
    String endpoint() {
        return "127.0.0.1:" + ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
    }

    record Call(String method, String authorization) {
    }

    /** The authorization headers of the calls to {@code method}, in order (null for none). */
    List<String> authorizations(String method) {
        return calls.stream().filter(c -> c.method().equals(method)).map(Call::authorization).toList();
    }

    /** A factory for the CLI that connects to this node whatever endpoints it is given. */
    ClientFactory clients() {
        return (endpoints, timeout, user) -> TributaryClient.builder()
                .channel(endpoints.get(0), InProcessChannelBuilder.forName(name).build())
                .requestTimeout(timeout).username(user).build();
    }

    List<String> statements() {
        return requests.stream().map(ExecuteRequest::getStatement).toList();
    }

    static ExecuteResponse echoSession(ExecuteRequest r) {
        return ExecuteResponse.newBuilder().setSession(r.getSession()).build();
    }

    /** A result with the given columns ("name type") and rows of Java values. */
    static ExecuteResponse rows(List<String> columns, List<List<Object>> rows) {
        ExecuteResponse.Builder b = ExecuteResponse.newBuilder().setHasRows(true);
        for (String c : columns) {
            int space = c.indexOf(' ');
            b.addColumns(ColumnSpec.newBuilder().setName(c.substring(0, space)).setType(c.substring(space + 1)));
        }
        for (List<Object> row : rows) {
            Row.Builder rb = Row.newBuilder();
            for (int i = 0; i < row.size(); i++) {
                String type = b.getColumns(i).getType();
                rb.addValues(ValueCodec.encode(row.get(i), CqlTypeName.parse(type), "test value"));
            }
            b.addRows(rb);
        }
        return b.build();
    }

    static StatusRuntimeException error(Status.Code status, String code, String message) {
        Metadata trailers = new Metadata();
        trailers.put(ErrorMapper.ERROR_CODE_KEY, code);
        return Status.fromCode(status).withDescription(message).asRuntimeException(trailers);
    }

    @Override
    public void close() {
        server.shutdownNow();
    }

    private final class RecordCalls implements ServerInterceptor {
        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
            calls.add(new Call(call.getMethodDescriptor().getBareMethodName(),
                    headers.get(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER))));
            return next.startCall(call, headers);
        }
    }

    private final class Auth extends AuthServiceGrpc.AuthServiceImplBase {
        @Override
        public void login(LoginRequest request, StreamObserver<LoginResponse> out) {
            logins.add(request);
            try {
                out.onNext(onLogin.apply(request));
                out.onCompleted();
            } catch (StatusRuntimeException e) {
                out.onError(e);
            }
        }
    }

    private final class Cql extends CqlServiceGrpc.CqlServiceImplBase {
        @Override
        public void execute(ExecuteRequest request, StreamObserver<ExecuteResponse> out) {
            requests.add(request);
            try {
                out.onNext(onExecute.apply(request));
                out.onCompleted();
            } catch (StatusRuntimeException e) {
                out.onError(e);
            }
        }
    }
}
