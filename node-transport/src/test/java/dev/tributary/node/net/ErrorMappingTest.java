package dev.tributary.node.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ErrorMappingTest {
    @Test
    @DisplayName("an error raised before the request changed anything says so in a trailer; any other does not")
    void notAppliedTrailer() {
        StatusRuntimeException refused = ErrorMapping.toStatus(TributaryException.beforeApplying(ErrorCode.UNAVAILABLE, "not yet"));
        assertEquals(Status.Code.UNAVAILABLE, refused.getStatus().getCode());
        assertEquals("UNAVAILABLE", refused.getTrailers().get(ErrorMapping.ERROR_CODE));
        assertEquals("true", refused.getTrailers().get(ErrorMapping.NOT_APPLIED));
        StatusRuntimeException inDoubt = ErrorMapping.toStatus(new TributaryException(ErrorCode.UNAVAILABLE, "proposal lost"));
        assertNull(inDoubt.getTrailers().get(ErrorMapping.NOT_APPLIED));
    }
}
