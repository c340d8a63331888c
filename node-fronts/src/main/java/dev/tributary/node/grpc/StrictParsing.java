package dev.tributary.node.grpc;

import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.net.ErrorMapping;
import io.grpc.ForwardingServerCall;
import io.grpc.KnownLength;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Makes a request that is not a valid protobuf message an INVALID_ARGUMENT (reason code
 * INVALID_REQUEST) naming the method, instead of grpc-java's UNKNOWN "Application error":
 * garbage from a client is the client's error, not the node's. Requests arrive as bytes and
 * are parsed here, before the service sees them.
 */
public final class StrictParsing {
    private StrictParsing() {
    }

    public static ServerServiceDefinition wrap(ServerServiceDefinition def) {
        java.util.List<ServerMethodDefinition<byte[], ?>> methods = new java.util.ArrayList<>();
        // the schema (the .proto file) goes along, so server reflection can still describe the service
        io.grpc.ServiceDescriptor.Builder descriptor = io.grpc.ServiceDescriptor.newBuilder(def.getServiceDescriptor().getName())
                .setSchemaDescriptor(def.getServiceDescriptor().getSchemaDescriptor());
        for (ServerMethodDefinition<?, ?> m : def.getMethods()) {
            ServerMethodDefinition<byte[], ?> s = strict(m);
            methods.add(s);
            descriptor.addMethod(s.getMethodDescriptor());
        }
        ServerServiceDefinition.Builder b = ServerServiceDefinition.builder(descriptor.build());
        methods.forEach(b::addMethod);
        return b.build();
    }

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                if (stream instanceof KnownLength) {
                    // gRPC knows the message's length: read it into one array instead of growing chunks
                    byte[] b = new byte[stream.available()];
                    if (stream.readNBytes(b, 0, b.length) == b.length && stream.read() == -1) {
                        return b;
                    }
                    throw Status.INVALID_ARGUMENT.withDescription("request length differs from its frame")
                            .asRuntimeException();
                }
                return stream.readAllBytes();
            } catch (IOException e) {
                throw Status.INVALID_ARGUMENT.withDescription("unreadable request: " + e.getMessage()).asRuntimeException();
            }
        }
    };

    /**
     * Parses a request from the array it was read into, once: protobuf's array decoder with
     * aliasing lets each bytes field (a blob value) share the array instead of being copied, where
     * the marshaller's stream decoder buffered and copied every byte again.
     */
    @SuppressWarnings("unchecked")
    private static <Q> Q parse(MethodDescriptor<Q, ?> md, byte[] message) {
        if (md.getRequestMarshaller() instanceof MethodDescriptor.PrototypeMarshaller<Q> pm
                && pm.getMessagePrototype() instanceof com.google.protobuf.MessageLite prototype) {
            try {
                com.google.protobuf.CodedInputStream in = com.google.protobuf.CodedInputStream.newInstance(message);
                in.enableAliasing(true);
                return (Q) prototype.getParserForType().parseFrom(in);
            } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                throw Status.INTERNAL.withDescription("Invalid protobuf byte sequence").withCause(e).asRuntimeException();
            }
        }
        return md.getRequestMarshaller().parse(new ByteArrayInputStream(message));
    }

    /** The longest status message sent; the rest is cut (see {@link #bounded}). */
    static final int MAX_DESCRIPTION_CHARS = 1024;

    /**
     * The status with its message cut to {@link #MAX_DESCRIPTION_CHARS}. Messages name what the
     * client sent (a procedure, a token, a value), and a message travels in a trailer: an
     * oversized name echoed whole made trailers beyond the client's header limit, and the client
     * then failed the whole connection — every call on it INTERNAL, not just the offending one.
     */
    static Status bounded(Status status) {
        String d = status.getDescription();
        if (d == null || d.length() <= MAX_DESCRIPTION_CHARS) {
            return status;
        }
        return status.withDescription(d.substring(0, MAX_DESCRIPTION_CHARS) + "... (" + (d.length() - MAX_DESCRIPTION_CHARS)
                + " more characters)");
    }

    private static <Q, R> ServerMethodDefinition<byte[], R> strict(ServerMethodDefinition<Q, R> m) {
        MethodDescriptor<Q, R> md = m.getMethodDescriptor();
        MethodDescriptor<byte[], R> raw = md.toBuilder(BYTES, md.getResponseMarshaller()).build();
        ServerCallHandler<byte[], R> handler = (call, headers) -> {
            ServerCall<Q, R> typed = new ForwardingServerCall.SimpleForwardingServerCall<Q, R>(cast(call)) {
                @Override
                public MethodDescriptor<Q, R> getMethodDescriptor() {
                    return md;
                }

                @Override
                public void close(Status status, Metadata trailers) {
                    super.close(bounded(status), trailers);
                }
            };
            ServerCall.Listener<Q> inner = m.getServerCallHandler().startCall(typed, headers);
            return new ServerCall.Listener<>() {
                private boolean rejected;

                @Override
                public void onMessage(byte[] message) {
                    Q parsed;
                    try {
                        parsed = parse(md, message);
                    } catch (StatusRuntimeException e) {
                        rejected = true;
                        Metadata trailers = new Metadata();
                        trailers.put(ErrorMapping.ERROR_CODE, ErrorCode.INVALID_REQUEST.name());
                        String why = e.getCause() == null ? e.getStatus().getDescription() : e.getCause().getMessage();
                        call.close(bounded(Status.INVALID_ARGUMENT.withDescription("malformed " + md.getFullMethodName()
                                + " request: " + why)), trailers);
                        return;
                    }
                    inner.onMessage(parsed);
                }

                @Override
                public void onHalfClose() {
                    if (!rejected) {
                        inner.onHalfClose();
                    }
                }

                @Override
                public void onCancel() {
                    inner.onCancel();
                }

                @Override
                public void onComplete() {
                    inner.onComplete();
                }

                @Override
                public void onReady() {
                    if (!rejected) {
                        inner.onReady();
                    }
                }
            };
        };
        return ServerMethodDefinition.create(raw, handler);
    }

    @SuppressWarnings("unchecked")
    private static <Q, R> ServerCall<Q, R> cast(ServerCall<byte[], R> call) {
        // only the response side of the call is used by the service, and that type is unchanged
        return (ServerCall<Q, R>) (ServerCall<?, R>) call;
    }
}
