package dev.tributary.node.grpc;

import dev.tributary.node.transport.ReceivedLogs;
import dev.tributary.protocol.v1.LogChunk;
import dev.tributary.protocol.v1.LogId;
import dev.tributary.protocol.v1.LogReceipt;
import dev.tributary.protocol.v1.LogTransportServiceGrpc;
import io.grpc.stub.StreamObserver;

/** The receiving end of log transport: archived redo logs other databases ship here. */
public final class LogTransportGrpcService extends LogTransportServiceGrpc.LogTransportServiceImplBase {
    private final ReceivedLogs logs;

    public LogTransportGrpcService(ReceivedLogs logs) {
        this.logs = logs;
    }

    @Override
    public void received(LogId request, StreamObserver<LogReceipt> out) {
        ErrorMapping.answer(out, () -> logs.received(request));
    }

    @Override
    public void ship(LogChunk request, StreamObserver<LogReceipt> out) {
        ErrorMapping.answer(out, () -> logs.ship(request));
    }
}
