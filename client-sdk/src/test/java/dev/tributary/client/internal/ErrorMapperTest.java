package dev.tributary.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.errors.AlreadyExistsException;
import dev.tributary.client.errors.InvalidQueryException;
import dev.tributary.client.errors.NoCdcStreamException;
import dev.tributary.client.errors.NotFoundException;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ErrorMapperTest {

    static StatusRuntimeException failure(Status.Code status, String code, String message) {
        Metadata trailers = new Metadata();
        if (code != null) {
            trailers.put(ErrorMapper.ERROR_CODE_KEY, code);
        }
        return Status.fromCode(status).withDescription(message).asRuntimeException(trailers);
    }

    @ParameterizedTest(name = "{1} -> {2}")
    @CsvSource({
        "INVALID_ARGUMENT, SYNTAX_ERROR, SyntaxErrorException",
        "INVALID_ARGUMENT, INVALID_REQUEST, InvalidQueryException",
        "NOT_FOUND, NOT_FOUND, NotFoundException",
        "ALREADY_EXISTS, ALREADY_EXISTS, AlreadyExistsException",
        "FAILED_PRECONDITION, NO_CDC_STREAM, NoCdcStreamException",
        "FAILED_PRECONDITION, FENCED, FencedException",
        "INVALID_ARGUMENT, WRITE_TIMESTAMP_OUT_OF_RANGE, WriteRejectedException",
        "RESOURCE_EXHAUSTED, VALUE_TOO_LARGE, WriteRejectedException",
        "UNAVAILABLE, UNAVAILABLE, UnavailableException",
        "INTERNAL, INTERNAL, ServerErrorException",
        "UNAUTHENTICATED, UNAUTHENTICATED, AuthenticationException",
        "PERMISSION_DENIED, PERMISSION_DENIED, PermissionDeniedException",
        "FAILED_PRECONDITION, SOMETHING_NEW, TributaryException",
        "DEADLINE_EXCEEDED, TIMEOUT, RequestTimeoutException",
    })
    void theTrailerCodeChoosesTheException(Status.Code status, String code, String type) {
        TributaryException e = ErrorMapper.map(failure(status, code, "the message"), "n1:9160", "key-1");
        assertEquals(type, e.getClass().getSimpleName());
        assertEquals(code, e.code());
        assertEquals("the message", e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "UNAVAILABLE, UnavailableException",
        "DEADLINE_EXCEEDED, RequestTimeoutException",
        "INTERNAL, ServerErrorException",
        "UNKNOWN, ServerErrorException",
        "INVALID_ARGUMENT, InvalidQueryException",
        "NOT_FOUND, NotFoundException",
        "ALREADY_EXISTS, AlreadyExistsException",
        "PERMISSION_DENIED, PermissionDeniedException",
        "UNAUTHENTICATED, AuthenticationException",
        "RESOURCE_EXHAUSTED, TributaryException",
    })
    void withoutATrailerTheStatusCodeIsTheCode(Status.Code status, String type) {
        TributaryException e = ErrorMapper.map(failure(status, null, "m"), "n1:9160", "key-1");
        assertEquals(type, e.getClass().getSimpleName());
        assertEquals(status.name(), e.code());
    }

    @Test
    void aTimeoutCarriesTheIdempotencyKey() {
        RequestTimeoutException e = assertInstanceOf(RequestTimeoutException.class,
                ErrorMapper.map(failure(Status.Code.DEADLINE_EXCEEDED, null, "deadline"), "n1", "key-7"));
        assertEquals("key-7", e.idempotencyKey());
    }

    @Test
    @DisplayName("issue 32: a node's forward that timed out (TIMEOUT) is a request timeout carrying the key, never retried elsewhere")
    void aForwardTimeoutCarriesTheIdempotencyKey() {
        RequestTimeoutException e = assertInstanceOf(RequestTimeoutException.class,
                ErrorMapper.map(failure(Status.Code.DEADLINE_EXCEEDED, "TIMEOUT", "the forward to node h ..."), "n1", "key-8"));
        assertEquals("key-8", e.idempotencyKey());
        assertFalse(ErrorMapper.isRetryableElsewhere(failure(Status.Code.DEADLINE_EXCEEDED, "TIMEOUT", "x")));
    }

    @Test
    void unavailableNamesTheEndpoint() {
        UnavailableException e = assertInstanceOf(UnavailableException.class,
                ErrorMapper.map(failure(Status.Code.UNAVAILABLE, null, "down"), "n1:9160", null));
        assertEquals(List.of("n1:9160"), e.endpointsTried());
    }

    @Test
    void aStatusWithoutDescriptionUsesItsCodeName() {
        StatusRuntimeException e = Status.UNAVAILABLE.asRuntimeException();
        assertEquals("UNAVAILABLE", ErrorMapper.message(e));
        StatusRuntimeException withCause = Status.UNAVAILABLE.withCause(new java.io.IOException("refused")).asRuntimeException();
        assertEquals("UNAVAILABLE: refused", ErrorMapper.message(withCause));
    }

    @Test
    void aTransportFailureNamesItsCauseAServerErrorDoesNot() {
        StatusRuntimeException transport = Status.UNAVAILABLE.withDescription("io exception")
                .withCause(new java.net.ConnectException("Connection refused: /127.0.0.1:1")).asRuntimeException();
        assertEquals("io exception (Connection refused: /127.0.0.1:1)", ErrorMapper.message(transport));
        Metadata trailers = new Metadata();
        trailers.put(ErrorMapper.ERROR_CODE_KEY, "INTERNAL");
        StatusRuntimeException server = Status.INTERNAL.withDescription("disk failed")
                .withCause(new IllegalStateException("detail")).asRuntimeException(trailers);
        assertEquals("disk failed", ErrorMapper.message(server));
    }

    @Test
    void onlyUnavailableIsRetriedElsewhere() {
        assertTrue(ErrorMapper.isRetryableElsewhere(failure(Status.Code.UNAVAILABLE, null, "x")));
        assertTrue(ErrorMapper.isRetryableElsewhere(failure(Status.Code.INTERNAL, "UNAVAILABLE", "x")));
        assertFalse(ErrorMapper.isRetryableElsewhere(failure(Status.Code.UNAVAILABLE, "NO_CDC_STREAM", "x")));
        assertFalse(ErrorMapper.isRetryableElsewhere(failure(Status.Code.DEADLINE_EXCEEDED, null, "x")));
    }

    @Test
    void subclassesShareTheBase() {
        for (Class<?> c : List.of(SyntaxErrorException.class, InvalidQueryException.class, NotFoundException.class,
                AlreadyExistsException.class, NoCdcStreamException.class, WriteRejectedException.class,
                UnavailableException.class, ServerErrorException.class, RequestTimeoutException.class)) {
            assertTrue(TributaryException.class.isAssignableFrom(c), c.getName());
        }
    }
}
