package dev.tributary.node.nativeproto;

import com.datastax.oss.protocol.internal.ProtocolConstants;
import com.datastax.oss.protocol.internal.response.Error;
import com.datastax.oss.protocol.internal.response.error.AlreadyExists;
import com.datastax.oss.protocol.internal.response.error.ReadTimeout;
import com.datastax.oss.protocol.internal.response.error.Unavailable;
import com.datastax.oss.protocol.internal.response.error.WriteTimeout;
import dev.tributary.dictionary.errors.AlreadyExistsException;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.net.ErrorMapping;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/**
 * The one place where errors become native-protocol ERROR messages. The reason code and the
 * message are the ones the gRPC API gives ({@link ErrorMapping#reasonOf}, {@link
 * ErrorMapping#messageOf}); only the code's native form is decided here. A peer's answer (a
 * request forwarded over gRPC) carries its reason code in its trailers and keeps it.
 */
public final class NativeErrors {
    /** The message drivers look for before they retry with a lower protocol version. */
    static final String UNSUPPORTED_VERSION = "Invalid or unsupported protocol version";

    private NativeErrors() {
    }

    /**
     * @param consistency the request's consistency level, which UNAVAILABLE repeats
     */
    public static Error toError(Throwable t, int consistency) {
        if (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        ErrorCode code;
        String message;
        if (t instanceof StatusRuntimeException sre) {
            String reason = sre.getTrailers() == null ? null : sre.getTrailers().get(ErrorMapping.ERROR_CODE);
            code = reason == null ? fromStatus(sre.getStatus().getCode()) : ErrorCode.valueOf(reason);
            message = sre.getStatus().getDescription() == null ? sre.getStatus().getCode().name()
                    : sre.getStatus().getDescription();
        } else {
            code = ErrorMapping.reasonOf(t);
            message = ErrorMapping.messageOf(t, code);
        }
        if (code == ErrorCode.ALREADY_EXISTS && t instanceof AlreadyExistsException ae) {
            return new AlreadyExists(message, ae.keyspace(), ae.name() == null ? "" : ae.name());
        }
        if (code == ErrorCode.ALREADY_EXISTS) {
            // the native ALREADY_EXISTS error must carry a keyspace and a table: as a bare Error it
            // could not be encoded (the client got a SERVER_ERROR). A role, a database link or a
            // capture that exists is INVALID, as Cassandra answers for an existing role.
            return new Error(ProtocolConstants.ErrorCode.INVALID, message);
        }
        if (code == ErrorCode.TIMEOUT) {
            // Cassandra's own answers for a replica that did not reply in time: a driver takes a
            // SIMPLE write timeout as "may have been applied" and does not retry it by itself
            boolean write = t instanceof dev.tributary.node.errors.ForwardTimeoutException ft ? ft.write()
                    : t instanceof StatusRuntimeException sre && sre.getTrailers() != null
                            && "true".equals(sre.getTrailers().get(ErrorMapping.OUTCOME_UNKNOWN));
            return write ? new WriteTimeout(message, consistency, 0, 1, "SIMPLE")
                    : new ReadTimeout(message, consistency, 0, 1, false);
        }
        if (code == ErrorCode.UNAVAILABLE) {
            // one replica holds each partition: the one required is not alive
            return new Unavailable(message, consistency, 1, 0);
        }
        return new Error(codeOf(code), message);
    }

    /** The native error code of a reason code. */
    static int codeOf(ErrorCode code) {
        return switch (code) {
            case SYNTAX_ERROR -> ProtocolConstants.ErrorCode.SYNTAX_ERROR;
            case INVALID_REQUEST, NOT_FOUND, NO_CDC_STREAM, WRITE_TIMESTAMP_OUT_OF_RANGE, VALUE_TOO_LARGE, FENCED ->
                    ProtocolConstants.ErrorCode.INVALID;
            case ALREADY_EXISTS -> ProtocolConstants.ErrorCode.ALREADY_EXISTS;
            case UNAVAILABLE -> ProtocolConstants.ErrorCode.UNAVAILABLE;
            case STORAGE_ERROR, INTERNAL, CORRUPTION, DISK_FULL -> ProtocolConstants.ErrorCode.SERVER_ERROR;
            case UNAUTHENTICATED -> ProtocolConstants.ErrorCode.AUTH_ERROR;
            case PERMISSION_DENIED -> ProtocolConstants.ErrorCode.UNAUTHORIZED;
            case TIMEOUT -> ProtocolConstants.ErrorCode.WRITE_TIMEOUT; // a read's is ReadTimeout, in toError
        };
    }

    /** A peer that answered without a reason code (it should not): by its status. */
    private static ErrorCode fromStatus(Status.Code s) {
        return switch (s) {
            case INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE -> ErrorCode.INVALID_REQUEST;
            case NOT_FOUND -> ErrorCode.NOT_FOUND;
            case ALREADY_EXISTS -> ErrorCode.ALREADY_EXISTS;
            case UNAVAILABLE, DEADLINE_EXCEEDED -> ErrorCode.UNAVAILABLE;
            case UNAUTHENTICATED -> ErrorCode.UNAUTHENTICATED;
            case PERMISSION_DENIED -> ErrorCode.PERMISSION_DENIED;
            default -> ErrorCode.INTERNAL;
        };
    }

    /** The server is busy: too many requests are waiting to run. */
    static Error overloaded(int waiting) {
        return new Error(ProtocolConstants.ErrorCode.OVERLOADED, "the node is overloaded: " + waiting
                + " native protocol requests are waiting to run; retry later or on another node");
    }

    /** A request the protocol does not allow here (before STARTUP, an unknown message). */
    static Error protocolError(String message) {
        return new Error(ProtocolConstants.ErrorCode.PROTOCOL_ERROR, message);
    }
}
