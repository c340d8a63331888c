package dev.tributary.client.internal;

import dev.tributary.client.errors.AlreadyExistsException;
import dev.tributary.client.errors.AuthenticationException;
import dev.tributary.client.errors.FencedException;
import dev.tributary.client.errors.InvalidQueryException;
import dev.tributary.client.errors.NoCdcStreamException;
import dev.tributary.client.errors.NotFoundException;
import dev.tributary.client.errors.PermissionDeniedException;
import dev.tributary.client.errors.RequestTimeoutException;
import dev.tributary.client.errors.ServerErrorException;
import dev.tributary.client.errors.SyntaxErrorException;
import dev.tributary.client.errors.TributaryException;
import dev.tributary.client.errors.UnavailableException;
import dev.tributary.client.errors.WriteRejectedException;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;

/**
 * The one place that turns a failed RPC into the client's typed exceptions. The server puts a
 * stable reason code in the {@code tributary-error-code} trailer and the human message in the
 * status description; without the trailer the gRPC status code's name is the code.
 */
public final class ErrorMapper {
    /** The trailer the server puts the reason code in. */
    public static final Metadata.Key<String> ERROR_CODE_KEY =
            Metadata.Key.of("tributary-error-code", Metadata.ASCII_STRING_MARSHALLER);

    private ErrorMapper() {
    }

    /** The reason code of a failed RPC: the trailer's, else the gRPC status code's name. */
    public static String code(StatusRuntimeException e) {
        Metadata trailers = e.getTrailers();
        String code = trailers == null ? null : trailers.get(ERROR_CODE_KEY);
        if (code != null && !code.isBlank()) {
            return code.trim();
        }
        return e.getStatus().getCode().name();
    }

    /**
     * The server's message. A failure the server did not describe (no reason code: a transport
     * failure such as a refused connection) also names its cause, since gRPC's own description
     * ("io exception") does not say what went wrong.
     */
    public static String message(StatusRuntimeException e) {
        Status s = e.getStatus();
        boolean fromServer = e.getTrailers() != null && e.getTrailers().containsKey(ERROR_CODE_KEY);
        String description = s.getDescription() != null && !s.getDescription().isEmpty() ? s.getDescription() : null;
        String cause = s.getCause() != null && s.getCause().getMessage() != null ? s.getCause().getMessage() : null;
        if (description != null) {
            return fromServer || cause == null || description.contains(cause) ? description : description + " (" + cause + ")";
        }
        return cause != null ? s.getCode().name() + ": " + cause : s.getCode().name();
    }

    /** Whether another endpoint might serve the request: this one is down or refused for now. */
    public static boolean isRetryableElsewhere(StatusRuntimeException e) {
        return "UNAVAILABLE".equals(code(e));
    }

    /**
     * The typed exception for a failed RPC. {@code idempotencyKey} is the request's key (null
     * for reads), carried by a timeout so the caller can repeat the request safely.
     */
    public static TributaryException map(StatusRuntimeException e, String endpoint, String idempotencyKey) {
        return map(code(e), message(e), endpoint, idempotencyKey, e);
    }

    static TributaryException map(String code, String message, String endpoint, String idempotencyKey,
            Throwable cause) {
        switch (code) {
            case "SYNTAX_ERROR":
                return new SyntaxErrorException(code, message, cause);
            case "INVALID_REQUEST":
            case "INVALID_ARGUMENT":
                return new InvalidQueryException(code, message, cause);
            case "NOT_FOUND":
                return new NotFoundException(code, message, cause);
            case "ALREADY_EXISTS":
                return new AlreadyExistsException(code, message, cause);
            case "FENCED":
                return new FencedException(code, message, cause);
            case "NO_CDC_STREAM":
                return new NoCdcStreamException(code, message, cause);
            case "WRITE_TIMESTAMP_OUT_OF_RANGE":
            case "VALUE_TOO_LARGE":
            case "DISK_FULL":
                return new WriteRejectedException(code, message, cause);
            case "UNAUTHENTICATED":
                return new AuthenticationException(code, message, cause);
            case "PERMISSION_DENIED":
                return new PermissionDeniedException(code, message, cause);
            case "UNAVAILABLE":
                return new UnavailableException(message, endpoint == null ? List.of() : List.of(endpoint), cause);
            case "DEADLINE_EXCEEDED":
            case "TIMEOUT": // the node's forward to the owner timed out: the same unknown outcome
                return new RequestTimeoutException(code, message, idempotencyKey, cause);
            case "INTERNAL":
            case "UNKNOWN":
            case "DATA_LOSS":
            case "CORRUPTION":
                return new ServerErrorException(code, message, cause);
            default:
                return new TributaryException(code, message, cause);
        }
    }
}
