package dev.tributary.client;

import dev.tributary.client.internal.ErrorMapper;
import dev.tributary.protocol.v1.AdminCallRequest;
import dev.tributary.protocol.v1.AdminServiceGrpc;
import dev.tributary.protocol.v1.AuthServiceGrpc;
import dev.tributary.protocol.v1.BatchRequest;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.ColumnSpec;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecutePreparedRequest;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.ListGenerationsRequest;
import dev.tributary.protocol.v1.ListGenerationsResponse;
import dev.tributary.protocol.v1.LoginRequest;
import dev.tributary.protocol.v1.LoginResponse;
import dev.tributary.protocol.v1.PrepareRequest;
import dev.tributary.protocol.v1.PrepareResponse;
import dev.tributary.protocol.v1.ReadChangesRequest;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A stand-in node served in-process: CqlService, ChangeStreamService and AdminService answer through
 * replaceable handlers and record every request, so tests can drive the client's own logic
 * (sessions, failover, error mapping, streaming) without a real node.
 */
final class TestNode implements AutoCloseable {
    final String name;
    final List<Object> requests = new CopyOnWriteArrayList<>();
    volatile Function<ExecuteRequest, ExecuteResponse> onExecute = r -> ExecuteResponse.getDefaultInstance();
    volatile Function<PrepareRequest, PrepareResponse> onPrepare = r -> PrepareResponse.getDefaultInstance();
    volatile Function<ExecutePreparedRequest, ExecuteResponse> onExecutePrepared = r -> ExecuteResponse.getDefaultInstance();
    volatile Function<BatchRequest, ExecuteResponse> onBatch = r -> ExecuteResponse.getDefaultInstance();
    volatile Function<ListGenerationsRequest, ListGenerationsResponse> onGenerations =
            r -> ListGenerationsResponse.getDefaultInstance();
    volatile Function<AdminCallRequest, ExecuteResponse> onAdmin = r -> ExecuteResponse.getDefaultInstance();
    volatile BiConsumer<ReadChangesRequest, StreamObserver<Lcr>> onReadChanges = (r, o) -> o.onCompleted();
    volatile Function<LoginRequest, LoginResponse> onLogin = r -> LoginResponse.getDefaultInstance();
    /** Every call's method (bare name, e.g. Execute) and its authorization header, in arrival order. */
    final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Server server;

    private TestNode(String name, io.grpc.ServerBuilder<?> builder) throws IOException {
        this.name = name;
        this.server = builder.addService(new Cql()).addService(new Changes()).addService(new AdminCalls())
                .addService(new Auth()).intercept(new RecordCalls()).build().start();
    }

    /** A call as it arrived: the method's bare name and its authorization header, null without one. */
    record Call(String method, String authorization) {
    }

    /** The authorization headers of the calls to {@code method}, in order. */
    List<String> authorizations(String method) {
        return calls.stream().filter(c -> c.method().equals(method)).map(Call::authorization).toList();
    }

    static TestNode start(String name) {
        try {
            String unique = name + "-" + System.nanoTime();
            return new TestNode(unique, InProcessServerBuilder.forName(unique));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same services over Netty on a free loopback port (for *IT tests only). */
    static TestNode startNetty() {
        try {
            return new TestNode("netty", io.grpc.netty.NettyServerBuilder.forAddress(
                    new java.net.InetSocketAddress("127.0.0.1", 0)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The port of a node from {@link #startNetty()}. */
    int port() {
        return ((java.net.InetSocketAddress) server.getListenSockets().get(0)).getPort();
    }

    ManagedChannel channel() {
        return InProcessChannelBuilder.forName(name).build();
    }

    /** A channel to a name no server listens on: every call fails UNAVAILABLE. */
    static ManagedChannel deadChannel() {
        return InProcessChannelBuilder.forName("nobody-" + System.nanoTime()).build();
    }

    @SuppressWarnings("unchecked")
    <T> List<T> requestsOf(Class<T> type) {
        return (List<T>) requests.stream().filter(type::isInstance).toList();
    }

    static StatusRuntimeException error(Status.Code status, String code, String message) {
        Metadata trailers = new Metadata();
        if (code != null) {
            trailers.put(ErrorMapper.ERROR_CODE_KEY, code);
        }
        return Status.fromCode(status).withDescription(message).asRuntimeException(trailers);
    }

    static ColumnSpec column(String name, String type) {
        return ColumnSpec.newBuilder().setName(name).setType(type).build();
    }

    @Override
    public void close() {
        server.shutdownNow();
    }

    private <Q, R> void unary(Q request, Function<Q, R> handler, StreamObserver<R> out) {
        requests.add(request);
        R response;
        try {
            response = handler.apply(request);
        } catch (StatusRuntimeException e) {
            out.onError(e);
            return;
        }
        out.onNext(response);
        out.onCompleted();
    }

    private final class Cql extends CqlServiceGrpc.CqlServiceImplBase {
        @Override
        public void execute(ExecuteRequest request, StreamObserver<ExecuteResponse> out) {
            unary(request, onExecute, out);
        }

        @Override
        public void prepare(PrepareRequest request, StreamObserver<PrepareResponse> out) {
            unary(request, onPrepare, out);
        }

        @Override
        public void executePrepared(ExecutePreparedRequest request, StreamObserver<ExecuteResponse> out) {
            unary(request, onExecutePrepared, out);
        }

        @Override
        public void executeBatch(BatchRequest request, StreamObserver<ExecuteResponse> out) {
            unary(request, onBatch, out);
        }
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
            unary(request, onLogin, out);
        }
    }

    private final class AdminCalls extends AdminServiceGrpc.AdminServiceImplBase {
        @Override
        public void call(AdminCallRequest request, StreamObserver<ExecuteResponse> out) {
            unary(request, onAdmin, out);
        }
    }

    private final class Changes extends ChangeStreamServiceGrpc.ChangeStreamServiceImplBase {
        @Override
        public void listGenerations(ListGenerationsRequest request, StreamObserver<ListGenerationsResponse> out) {
            unary(request, onGenerations, out);
        }

        @Override
        public void readChanges(ReadChangesRequest request, StreamObserver<Lcr> out) {
            requests.add(request);
            try {
                onReadChanges.accept(request, out);
            } catch (StatusRuntimeException e) {
                out.onError(e);
            }
        }
    }
}
