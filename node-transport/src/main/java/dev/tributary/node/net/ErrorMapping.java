package dev.tributary.node.net;

import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlSyntaxException;
import dev.tributary.cql.errors.CqlTypeException;
import dev.tributary.dictionary.errors.AlreadyExistsException;
import dev.tributary.dictionary.errors.DictionaryException;
import dev.tributary.dictionary.errors.UnknownColumnException;
import dev.tributary.dictionary.errors.UnknownKeyspaceException;
import dev.tributary.dictionary.errors.UnknownTableException;
import dev.tributary.generations.errors.NoCdcStreamException;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where errors of every layer become a gRPC Status plus the stable reason code in
 * the {@code tributary-error-code} trailer. Unexpected exceptions are logged with their stack
 * here and reach the client as INTERNAL with a one-line message, never a stack trace.
 */
public final class ErrorMapping {
    public static final Metadata.Key<String> ERROR_CODE =
            Metadata.Key.of("tributary-error-code", Metadata.ASCII_STRING_MARSHALLER);
    /** Sent ({@code true}) with an error raised before the request changed anything: it was not applied. */
    public static final Metadata.Key<String> NOT_APPLIED =
            Metadata.Key.of("tributary-not-applied", Metadata.ASCII_STRING_MARSHALLER);
    /**
     * Sent ({@code true}) with an error after which a write may or may not have been applied (a
     * forward to the owner timed out): the client must not take it as refused.
     */
    public static final Metadata.Key<String> OUTCOME_UNKNOWN =
            Metadata.Key.of("tributary-outcome-unknown", Metadata.ASCII_STRING_MARSHALLER);
    private static final Logger LOG = LoggerFactory.getLogger(ErrorMapping.class);

    private ErrorMapping() {
    }

    /** The reason code of any exception a statement may raise. */
    public static ErrorCode codeOf(Throwable t) {
        if (t instanceof TributaryException te) {
            return te.code();
        }
        if (t instanceof CqlSyntaxException) {
            return ErrorCode.SYNTAX_ERROR;
        }
        if (t instanceof dev.tributary.cql.errors.CqlLimitException le) {
            return switch (le.limit()) {
                case VALUE_SIZE -> ErrorCode.VALUE_TOO_LARGE;
                case WRITE_TIMESTAMP_SKEW -> ErrorCode.WRITE_TIMESTAMP_OUT_OF_RANGE;
            };
        }
        if (t instanceof CqlInvalidException || t instanceof CqlTypeException
                || t instanceof dev.tributary.capture.CaptureScnException) {
            return ErrorCode.INVALID_REQUEST;
        }
        if (t instanceof UnknownKeyspaceException || t instanceof UnknownTableException
                || t instanceof UnknownColumnException) {
            return ErrorCode.NOT_FOUND;
        }
        if (t instanceof AlreadyExistsException) {
            return ErrorCode.ALREADY_EXISTS;
        }
        if (t instanceof DictionaryException) {
            return ErrorCode.INVALID_REQUEST;
        }
        if (t instanceof NoCdcStreamException) {
            return ErrorCode.NO_CDC_STREAM;
        }
        if (t instanceof dev.tributary.generations.errors.PublishConflictException) {
            return ErrorCode.UNAVAILABLE; // other coordinators kept publishing first: try again
        }
        if (t instanceof dev.tributary.capture.redo.UnsupportedRedoFormatException) {
            return ErrorCode.INVALID_REQUEST;
        }
        if (t instanceof dev.tributary.dictionary.io.CorruptRecordException) {
            return ErrorCode.CORRUPTION;
        }
        return ErrorCode.INTERNAL;
    }


    public static Status.Code statusOf(ErrorCode code) {
        return switch (code) {
            case SYNTAX_ERROR, INVALID_REQUEST, WRITE_TIMESTAMP_OUT_OF_RANGE -> Status.Code.INVALID_ARGUMENT;
            case NOT_FOUND -> Status.Code.NOT_FOUND;
            case ALREADY_EXISTS -> Status.Code.ALREADY_EXISTS;
            case NO_CDC_STREAM, FENCED -> Status.Code.FAILED_PRECONDITION;
            case VALUE_TOO_LARGE, DISK_FULL -> Status.Code.RESOURCE_EXHAUSTED;
            case UNAVAILABLE -> Status.Code.UNAVAILABLE;
            case STORAGE_ERROR, INTERNAL -> Status.Code.INTERNAL;
            case CORRUPTION -> Status.Code.DATA_LOSS;
            case UNAUTHENTICATED -> Status.Code.UNAUTHENTICATED;
            case PERMISSION_DENIED -> Status.Code.PERMISSION_DENIED;
            case TIMEOUT -> Status.Code.DEADLINE_EXCEEDED;
        };
    }

    /**
     * The reason code a client is given for an exception, as {@link #codeOf} but with the few
     * library exceptions that mean a bad request recognized; the native protocol front maps the
     * same codes.
     */
    public static ErrorCode reasonOf(Throwable t) {
        ErrorCode code = codeOf(t);
        if (code == ErrorCode.INTERNAL && t instanceof dev.tributary.dictionary.types.CqlType.UnknownTypeException) {
            code = ErrorCode.INVALID_REQUEST;
        }
        return code;
    }

    /**
     * The message a client is given: the exception's own, or for an unexpected failure (logged
     * here with its stack) a one-line description. Both fronts send it, so it reads the same.
     */
    public static String messageOf(Throwable t, ErrorCode code) {
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        if (code == ErrorCode.INTERNAL || code == ErrorCode.STORAGE_ERROR || code == ErrorCode.CORRUPTION
                || code == ErrorCode.DISK_FULL) {
            LOG.error("request failed", t);
            if (code == ErrorCode.INTERNAL) {
                message = "internal error: " + t.getClass().getSimpleName() + ": " + message;
            }
        }
        return message;
    }

    /** Answers a unary call with what {@code call} returns, or with the status its failure maps to. */
    public static <T> void answer(io.grpc.stub.StreamObserver<T> out, java.util.function.Supplier<T> call) {
        T result;
        try {
            result = call.get();
        } catch (RuntimeException e) {
            out.onError(toStatus(e));
            return;
        }
        out.onNext(result);
        out.onCompleted();
    }

    public static StatusRuntimeException toStatus(Throwable t) {
        if (t instanceof StatusRuntimeException sre) {
            return sre; // a peer's answer, forwarded: its status and trailers as it gave them
        }
        if (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        ErrorCode code = reasonOf(t);
        String message = messageOf(t, code);
        Metadata trailers = new Metadata();
        trailers.put(ERROR_CODE, code.name());
        if (t instanceof TributaryException te && te.notApplied()) {
            trailers.put(NOT_APPLIED, "true");
        }
        if (t instanceof dev.tributary.node.errors.ForwardTimeoutException ft && ft.write()) {
            trailers.put(OUTCOME_UNKNOWN, "true");
        }
        return Status.fromCode(statusOf(code)).withDescription(message).asRuntimeException(trailers);
    }
}
