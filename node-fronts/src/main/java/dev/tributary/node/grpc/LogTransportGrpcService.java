package dev.tributary.node.grpc;

import dev.tributary.node.net.ErrorMapping;
import dev.tributary.node.transport.ReceivedLogs;
import dev.tributary.protocol.v1.LogChunk;
import dev.tributary.protocol.v1.LogId;
import dev.tributary.protocol.v1.LogReceipt;
import dev.tributary.protocol.v1.LogTransportServiceGrpc;
import io.grpc.stub.StreamObserver;

/** The receiving end of log transport: archived redo logs other databases ship here. */
public final class LogTransportGrpcService extends LogTransportServiceGrpc.LogTransportServiceImplBase {
    private final ReceivedLogs logs;
    private final Authentication authentication;

    public LogTransportGrpcService(ReceivedLogs logs, Authentication authentication) {
        this.logs = logs;
        this.authentication = authentication;
    }

    /**
     * Shipped logs become what this database's downstream captures mine: only a superuser (the
     * role a source's database link connects as) may send them.
     */
    private void authorize() {
        authentication.access().requireSuperuser(authentication.principal(null), "ship redo logs here");
    }

    @Override
    public void received(LogId request, StreamObserver<LogReceipt> out) {
        ErrorMapping.answer(out, () -> {
            authorize();
            return logs.received(request);
        });
    }

    @Override
    public void ship(LogChunk request, StreamObserver<LogReceipt> out) {
        ErrorMapping.answer(out, () -> {
            authorize();
            return logs.ship(request);
        });
    }
}
