package dev.tributary.node.nativeproto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.node.errors.ErrorCode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The native front's error codes for the project's reason codes. */
class NativeErrorsTest {
    @Test
    @DisplayName("every reason code has its CQL error code: syntax, invalid, already exists, unavailable, server error")
    void errorCodes() {
        assertEquals(0x2000, NativeErrors.codeOf(ErrorCode.SYNTAX_ERROR));
        assertEquals(0x2200, NativeErrors.codeOf(ErrorCode.NOT_FOUND));
        assertEquals(0x2200, NativeErrors.codeOf(ErrorCode.INVALID_REQUEST));
        assertEquals(0x2400, NativeErrors.codeOf(ErrorCode.ALREADY_EXISTS));
        assertEquals(0x1000, NativeErrors.codeOf(ErrorCode.UNAVAILABLE));
        assertEquals(0x0000, NativeErrors.codeOf(ErrorCode.INTERNAL));
        assertEquals(0x1001, NativeErrors.overloaded(3).code);
        for (ErrorCode c : ErrorCode.values()) {
            NativeErrors.codeOf(c); // total: a new reason code must be given its CQL code
        }
    }

    @Test
    @DisplayName("an ALREADY_EXISTS of no keyspace or table (a database link) is INVALID, not a bare ALREADY_EXISTS error "
            + "the codec cannot encode (found by MutatedStatementsIT)")
    void anAlreadyExistsWithoutATableIsInvalid() {
        io.grpc.Metadata trailers = new io.grpc.Metadata();
        trailers.put(dev.tributary.node.net.ErrorMapping.ERROR_CODE, ErrorCode.ALREADY_EXISTS.name());
        var e = NativeErrors.toError(new io.grpc.StatusRuntimeException(io.grpc.Status.ALREADY_EXISTS
                .withDescription("database link l already exists"), trailers), 1);
        assertEquals(0x2200, e.code);
        assertEquals("database link l already exists", e.message);
        // encodable: a bare Error with code ALREADY_EXISTS made the codec throw ClassCastException
        var codec = com.datastax.oss.protocol.internal.FrameCodec.defaultServer(new ByteBufPrimitiveCodec(
                io.netty.buffer.UnpooledByteBufAllocator.DEFAULT), com.datastax.oss.protocol.internal.Compressor.none());
        codec.encode(com.datastax.oss.protocol.internal.Frame.forResponse(NativeServer.VERSION, 1, null,
                com.datastax.oss.protocol.internal.Frame.NO_PAYLOAD, java.util.List.of(), e)).release();
    }

    @Test
    @DisplayName("issue 32: a forward's timeout is Cassandra's WRITE_TIMEOUT (SIMPLE: drivers take it as maybe applied) for "
            + "a write, READ_TIMEOUT for a read, here or from a peer's trailers, and both encode")
    void aForwardTimeoutIsAWriteOrReadTimeout() {
        var codec = com.datastax.oss.protocol.internal.FrameCodec.defaultServer(new ByteBufPrimitiveCodec(
                io.netty.buffer.UnpooledByteBufAllocator.DEFAULT), com.datastax.oss.protocol.internal.Compressor.none());
        var write = NativeErrors.toError(new dev.tributary.node.errors.ForwardTimeoutException("h", "10.0.0.2:9160",
                java.time.Duration.ofSeconds(10), true), 1);
        assertEquals(0x1100, write.code);
        assertEquals("SIMPLE", ((com.datastax.oss.protocol.internal.response.error.WriteTimeout) write).writeType);
        var read = NativeErrors.toError(new dev.tributary.node.errors.ForwardTimeoutException("h", "10.0.0.2:9160",
                java.time.Duration.ofSeconds(10), false), 1);
        assertEquals(0x1200, read.code);
        io.grpc.Metadata trailers = new io.grpc.Metadata();
        trailers.put(dev.tributary.node.net.ErrorMapping.ERROR_CODE, ErrorCode.TIMEOUT.name());
        trailers.put(dev.tributary.node.net.ErrorMapping.OUTCOME_UNKNOWN, "true");
        var relayed = NativeErrors.toError(new io.grpc.StatusRuntimeException(io.grpc.Status.DEADLINE_EXCEEDED
                .withDescription("the forward to node h ..."), trailers), 1);
        assertEquals(0x1100, relayed.code);
        for (var e : java.util.List.of(write, read, relayed)) {
            codec.encode(com.datastax.oss.protocol.internal.Frame.forResponse(NativeServer.VERSION, 1, null,
                    com.datastax.oss.protocol.internal.Frame.NO_PAYLOAD, java.util.List.of(), e)).release();
        }
    }
}
